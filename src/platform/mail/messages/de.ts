import type { MailMessages } from './en.ts';
import { languageTools } from './format.ts';

/** German, formal (Sie). */
const { locale, categories, number, plural } = languageTools('de-DE', ['one', 'other']);
const q = (text: string) => `„${text}“`;
const minutes = (count: number) => `${number(count)} ${plural(count, { one: 'Minute', other: 'Minuten' })}`;

export const de: MailMessages = {
  locale,
  pluralCategories: categories,

  layout: {
    greeting: (p) => `Guten Tag ${p.name},`,
    messageFrom: (p) => `Nachricht von ${p.by}:`,
    link: (p) => `${p.label}: ${p.url}`,
  },

  theSender: 'Der Absender',
  openDocument: 'Dokument öffnen',
  ignoreIfNotAsked: 'Wenn Sie diesen Code nicht angefordert haben, können Sie diese Nachricht ignorieren.',

  commence: {
    sent: (p) =>
      `${p.sender} hat Ihnen ${q(p.document)} ${p.approve ? 'zur Prüfung und Freigabe' : 'zur Unterschrift'} gesendet.`,
    delegated: (p) =>
      `${p.delegatedBy} hat Sie gebeten, ${q(p.document)} stellvertretend ${p.approve ? 'zu prüfen und freizugeben' : 'zu unterschreiben'}. Gesendet wurde das Dokument von ${p.sender}.`,
    personalLink: (p) =>
      `Dieser Link ist persönlich: Bitte leiten Sie ihn nicht weiter. Sie können ihn bis zum ${p.date} verwenden.`,
  },

  copy: {
    subject: (p) => `Kopie: ${p.title}`,
    sent: (p) =>
      `${p.sender} hat ${q(p.document)} zur Unterschrift versendet und Sie in Kopie gesetzt. Sie müssen nichts weiter tun.`,
    viewDocument: 'Dokument ansehen',
    linkValid: (p) => `Sie können diesen Link bis zum ${p.date} verwenden.`,
  },

  otp: {
    subject: (p) => `Ihr Bestätigungscode für ${q(p.title)}`,
    code: (p) => `Ihr Bestätigungscode lautet ${p.code}`,
    enterIt: (p) =>
      `Bitte geben Sie ihn ein, um Ihre Identität zu bestätigen, bevor Sie ${q(p.document)} ${p.approve ? 'prüfen und freigeben' : 'unterschreiben'}. Der Code ist ${minutes(p.minutes)} gültig.`,
  },

  declined: {
    subject: (p) => `Abgelehnt: ${p.title}`,
    body: (p) => `${p.name} (${p.email}) hat ${q(p.document)} abgelehnt. Der Umschlag ist damit storniert.`,
    reasonGiven: 'Angegebener Grund:',
  },

  voided: {
    subject: (p) => `Storniert: ${p.title}`,
    byDecline: (p) => `${p.name} hat ${q(p.document)} abgelehnt.`,
    byOwner: (p) => `${p.name} hat ${q(p.document)} storniert: ${p.reason}`,
    nothingMore: 'Der Umschlag wurde storniert. Sie müssen nichts weiter tun.',
  },

  reminder: {
    subject: (p) => `Erinnerung: ${p.title}`,
    waiting: (p) =>
      `${p.sender} wartet noch darauf, dass Sie ${q(p.document)} ${p.approve ? 'freigeben' : 'unterschreiben'}.`,
    alreadyDone: 'Falls Sie das bereits erledigt haben, betrachten Sie diese Nachricht bitte als gegenstandslos.',
  },

  completed: {
    subject: (p) => `Abgeschlossen: ${p.title}`,
    finished: (p) =>
      `Alle Beteiligten haben ${q(p.document)} abgeschlossen. ${plural(p.count, { one: 'Das unterzeichnete Dokument ist', other: 'Die unterzeichneten Dokumente sind' })} mit dem elektronischen Siegel der Plattform versiegelt:`,
    attached: (p) =>
      plural(p.count, {
        one: 'Die versiegelte PDF-Datei ist dieser E-Mail angehängt.',
        other: 'Die versiegelten PDF-Dateien sind dieser E-Mail angehängt.',
      }),
    tooLarge: (p) => `Die versiegelten Dateien sind größer als ${number(p.megabytes)} MB und deshalb nicht angehängt.`,
    download: 'Hier herunterladen',
  },

  sealFailed: {
    subject: (p) => `Versiegelung fehlgeschlagen: ${p.title}`,
    body: (p) =>
      `Alle Beteiligten haben ${q(p.document)} abgeschlossen, aber der Dienst konnte das unterzeichnete Dokument auch nach mehreren Versuchen nicht versiegeln.`,
    reason: (p) => `Grund: ${p.reason}`,
    kept: 'Die Signaturen und das Prüfprotokoll bleiben erhalten. Bitte wenden Sie sich an Ihre Administration.',
  },

  signingKeyReset: {
    subject: 'Ihr Code für einen neuen Signaturschlüssel',
    code: (p) => `Ihr Code für einen neuen Signaturschlüssel lautet ${p.code}`,
    lines: (p) => [
      `Geben Sie ihn auf der Signaturseite zusammen mit einem neuen Signaturpasswort ein. Der Code ist ${minutes(p.minutes)} gültig.`,
      'Ihre bisherigen Signaturen bleiben gültig; das alte Signaturpasswort funktioniert danach nicht mehr.',
      'Wenn Sie diesen Code nicht angefordert haben, ignorieren Sie diese Nachricht: Ihr Schlüssel bleibt unverändert.',
    ],
  },
};
