import type { MailMessages } from './en.ts';
import { languageTools } from './format.ts';

/** Italian, formal (Lei, with the courtesy capitals Le, Sua). */
const { locale, categories, number, plural } = languageTools('it-IT', ['one', 'many', 'other']);
const q = (text: string) => `«${text}»`;
const minutes = (count: number) =>
  `${number(count)} ${plural(count, { one: 'minuto', many: 'minuti', other: 'minuti' })}`;
/** "fino al 5 marzo", but "fino all’8 marzo" and "fino all’11 marzo": the article elides before a vowel sound. */
const untilDate = (date: string) => (/^(8|11)\b/.test(date) ? `fino all’${date}` : `fino al ${date}`);

export const it: MailMessages = {
  locale,
  pluralCategories: categories,

  layout: {
    greeting: (p) => `Gentile ${p.name},`,
    messageFrom: (p) => `Messaggio di ${p.by}:`,
    link: (p) => `${p.label}: ${p.url}`,
  },

  theSender: 'Il mittente',
  openDocument: 'Apri il documento',
  ignoreIfNotAsked: 'Se non ha richiesto questo codice, ignori pure questo messaggio.',

  commence: {
    sent: (p) => `${p.sender} Le ha inviato ${q(p.document)} ${p.approve ? 'da esaminare e approvare' : 'da firmare'}.`,
    delegated: (p) =>
      `${p.delegatedBy} Le ha chiesto di ${p.approve ? 'esaminare e approvare' : 'firmare'} ${q(p.document)} al suo posto. Il documento è stato inviato da ${p.sender}.`,
    personalLink: (p) =>
      `Questo link è personale: La preghiamo di non inoltrarlo. Può essere utilizzato ${untilDate(p.date)}.`,
  },

  copy: {
    subject: (p) => `In copia: ${p.title}`,
    sent: (p) =>
      `${p.sender} ha inviato ${q(p.document)} per la firma e Le ha inviato una copia per conoscenza. Non è richiesta alcuna azione da parte Sua.`,
    viewDocument: 'Visualizza il documento',
    linkValid: (p) => `Questo link può essere utilizzato ${untilDate(p.date)}.`,
  },

  otp: {
    subject: (p) => `Il Suo codice di verifica per ${q(p.title)}`,
    code: (p) => `Il Suo codice di verifica è ${p.code}`,
    enterIt: (p) =>
      `Lo inserisca per confermare la Sua identità prima di ${p.approve ? 'esaminare e approvare' : 'firmare'} ${q(p.document)}. Il codice è valido per ${minutes(p.minutes)}.`,
  },

  declined: {
    subject: (p) => `Rifiutato: ${p.title}`,
    body: (p) => `${p.name} (${p.email}) ha rifiutato ${q(p.document)}. La busta è quindi annullata.`,
    reasonGiven: 'Motivo indicato:',
  },

  voided: {
    subject: (p) => `Annullato: ${p.title}`,
    byDecline: (p) => `${p.name} ha rifiutato ${q(p.document)}.`,
    byOwner: (p) => `${p.name} ha annullato ${q(p.document)}: ${p.reason}`,
    nothingMore: 'La busta è stata annullata. Non è richiesta alcuna ulteriore azione da parte Sua.',
  },

  reminder: {
    subject: (p) => `Promemoria: ${p.title}`,
    waiting: (p) => `${p.sender} è ancora in attesa che Lei ${p.approve ? 'approvi' : 'firmi'} ${q(p.document)}.`,
    alreadyDone: 'Se ha già provveduto, ignori pure questo messaggio.',
  },

  completed: {
    subject: (p) => `Completato: ${p.title}`,
    finished: (p) =>
      `Tutti i partecipanti hanno completato ${q(p.document)}. ${plural(p.count, {
        one: 'Il documento firmato è sigillato',
        many: 'I documenti firmati sono sigillati',
        other: 'I documenti firmati sono sigillati',
      })} con il sigillo elettronico della piattaforma:`,
    attached: (p) =>
      plural(p.count, {
        one: 'Il file PDF sigillato è allegato a questo messaggio.',
        many: 'I file PDF sigillati sono allegati a questo messaggio.',
        other: 'I file PDF sigillati sono allegati a questo messaggio.',
      }),
    tooLarge: (p) => `I file sigillati superano ${number(p.megabytes)} MB, pertanto non sono allegati.`,
    download: 'Scarica i file',
  },

  sealFailed: {
    subject: (p) => `Sigillatura non riuscita: ${p.title}`,
    body: (p) =>
      `Tutti i partecipanti hanno completato ${q(p.document)}, ma il servizio non è riuscito a sigillare il documento firmato dopo diversi tentativi.`,
    reason: (p) => `Motivo: ${p.reason}`,
    kept: 'Le firme e il registro di controllo vengono conservati. La preghiamo di contattare il Suo amministratore.',
  },

  signingKeyReset: {
    subject: 'Il Suo codice per una nuova chiave di firma',
    code: (p) => `Il Suo codice per una nuova chiave di firma è ${p.code}`,
    lines: (p) => [
      `Lo inserisca nella pagina di firma insieme a una nuova password di firma. Il codice è valido per ${minutes(p.minutes)}.`,
      'Le firme apposte in precedenza restano valide; la vecchia password di firma non funzionerà più.',
      'Se non ha richiesto questo codice, ignori questo messaggio: la Sua chiave resta invariata.',
    ],
  },
};
