import type { MailMessages } from './en.ts';
import { languageTools } from './format.ts';

/** Dutch, formal (u). */
const { locale, categories, number, plural } = languageTools('nl-NL', ['one', 'other']);
const q = (text: string) => `‘${text}’`;
const minutes = (count: number) => `${number(count)} ${plural(count, { one: 'minuut', other: 'minuten' })}`;

export const nl: MailMessages = {
  locale,
  pluralCategories: categories,

  layout: {
    greeting: (p) => `Beste ${p.name},`,
    messageFrom: (p) => `Bericht van ${p.by}:`,
    link: (p) => `${p.label}: ${p.url}`,
  },

  theSender: 'De afzender',
  openDocument: 'Document openen',
  ignoreIfNotAsked: 'Hebt u deze code niet aangevraagd? Dan kunt u dit bericht negeren.',

  commence: {
    sent: (p) =>
      `${p.sender} heeft u ${q(p.document)} gestuurd om ${p.approve ? 'te beoordelen en goed te keuren' : 'te ondertekenen'}.`,
    delegated: (p) =>
      `${p.delegatedBy} heeft u gevraagd ${q(p.document)} in diens plaats ${p.approve ? 'te beoordelen en goed te keuren' : 'te ondertekenen'}. Het document is verstuurd door ${p.sender}.`,
    personalLink: (p) => `Deze link is persoonlijk: stuur hem niet door. U kunt hem gebruiken tot ${p.date}.`,
  },

  copy: {
    subject: (p) => `Kopie: ${p.title}`,
    sent: (p) =>
      `${p.sender} heeft ${q(p.document)} ter ondertekening verstuurd en u een kopie gestuurd. U hoeft niets te doen.`,
    viewDocument: 'Document bekijken',
    linkValid: (p) => `U kunt deze link gebruiken tot ${p.date}.`,
  },

  otp: {
    subject: (p) => `Uw verificatiecode voor ${q(p.title)}`,
    code: (p) => `Uw verificatiecode is ${p.code}`,
    enterIt: (p) =>
      `Voer deze code in om uw identiteit te bevestigen voordat u ${q(p.document)} ${p.approve ? 'beoordeelt en goedkeurt' : 'ondertekent'}. De code is ${minutes(p.minutes)} geldig.`,
  },

  declined: {
    subject: (p) => `Geweigerd: ${p.title}`,
    body: (p) => `${p.name} (${p.email}) heeft ${q(p.document)} geweigerd. De envelop is daarmee geannuleerd.`,
    reasonGiven: 'Opgegeven reden:',
  },

  voided: {
    subject: (p) => `Geannuleerd: ${p.title}`,
    byDecline: (p) => `${p.name} heeft ${q(p.document)} geweigerd.`,
    byOwner: (p) => `${p.name} heeft ${q(p.document)} geannuleerd: ${p.reason}`,
    nothingMore: 'De envelop is geannuleerd. U hoeft verder niets te doen.',
  },

  reminder: {
    subject: (p) => `Herinnering: ${p.title}`,
    waiting: (p) => `${p.sender} wacht nog tot u ${q(p.document)} ${p.approve ? 'goedkeurt' : 'ondertekent'}.`,
    alreadyDone: 'Hebt u dit al gedaan? Dan kunt u dit bericht negeren.',
  },

  completed: {
    subject: (p) => `Voltooid: ${p.title}`,
    finished: (p) =>
      `Iedereen heeft ${q(p.document)} afgerond. ${plural(p.count, { one: 'Het ondertekende document is', other: 'De ondertekende documenten zijn' })} verzegeld met het elektronische zegel van het platform:`,
    attached: (p) =>
      plural(p.count, {
        one: 'Het verzegelde pdf-bestand zit als bijlage bij deze e-mail.',
        other: 'De verzegelde pdf-bestanden zitten als bijlage bij deze e-mail.',
      }),
    tooLarge: (p) => `De verzegelde bestanden zijn groter dan ${number(p.megabytes)} MB en daarom niet bijgevoegd.`,
    download: 'Bestanden downloaden',
  },

  sealFailed: {
    subject: (p) => `Verzegelen mislukt: ${p.title}`,
    body: (p) =>
      `Iedereen heeft ${q(p.document)} afgerond, maar de dienst kon het ondertekende document na meerdere pogingen niet verzegelen.`,
    reason: (p) => `Reden: ${p.reason}`,
    kept: 'De handtekeningen en de audittrail blijven bewaard. Neem contact op met uw beheerder.',
  },

  signingKeyReset: {
    subject: 'Uw code voor een nieuwe ondertekeningssleutel',
    code: (p) => `Uw code voor een nieuwe ondertekeningssleutel is ${p.code}`,
    lines: (p) => [
      `Voer deze code op de ondertekenpagina in, samen met een nieuw ondertekeningswachtwoord. De code is ${minutes(p.minutes)} geldig.`,
      'Uw eerdere handtekeningen blijven geldig; het oude ondertekeningswachtwoord werkt niet meer.',
      'Hebt u deze code niet aangevraagd? Negeer dit bericht dan: uw sleutel blijft ongewijzigd.',
    ],
  },
};
