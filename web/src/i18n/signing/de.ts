import { PRODUCT_NAME } from '../../shared/product.ts';
import type { Mark, Messages } from './en.ts';

const mark: Record<Mark, string> = { signature: 'Unterschrift', initials: 'Initialen', stamp: 'Stempel' };
const your: Record<Mark, string> = {
  signature: 'Ihre Unterschrift',
  initials: 'Ihre Initialen',
  stamp: 'Ihren Stempel',
};
const attempts = (n: number) => `${n} ${n === 1 ? 'Versuch' : 'Versuche'}`;

/** Das Deutsch der Signaturseite (Anrede „Sie“). */
export const de: Messages = {
  appName: PRODUCT_NAME,
  loading: 'Wird geladen …',
  opening: 'Ihr Dokument wird geöffnet …',
  skipToDocument: 'Zum Dokument springen',

  linkExpiredTitle: 'Dieser Link funktioniert nicht mehr',
  linkExpiredText:
    'Der Signaturlink ist abgelaufen, oder die Aufgabe wurde an eine andere Person übergeben. Links lassen sich nicht verlängern.',
  linkExpiredWhatToDo:
    'Bitten Sie den Absender, das Dokument erneut zu senden. Haben Sie die Aufgabe weitergegeben, hat die andere Person einen eigenen Link erhalten.',
  linkVoidedText:
    'Der Absender hat diesen Umschlag storniert; es gibt nichts mehr zu unterschreiben. Die Begründung haben Sie per E-Mail erhalten.',
  genericErrorTitle: 'Etwas ist schiefgelaufen',
  genericErrorText: 'Das Dokument konnte nicht geladen werden. Prüfen Sie Ihre Verbindung und laden Sie die Seite neu.',
  reload: 'Neu laden',
  requestReference: (id: string) => `Referenz für den Support: ${id}`,

  from: (name: string) => `Von ${name}`,
  messageFromSender: 'Nachricht des Absenders',
  brandLogoAlt: (organization: string) => `Logo von ${organization}`,
  involvedHeading: 'Beteiligte',
  involvedOrdered: 'Alle handeln nacheinander in dieser Reihenfolge.',
  involvedUnordered: 'Alle können gleichzeitig handeln.',
  you: 'Sie',
  role: { SIGNER: 'Unterschreibt', APPROVER: 'Genehmigt', CC: 'Erhält eine Kopie' },
  recipientStatus: {
    PENDING: 'Noch nicht an der Reihe',
    SENT: 'Eingeladen',
    VIEWED: 'Hat das Dokument geöffnet',
    SIGNED: 'Unterschrieben',
    APPROVED: 'Genehmigt',
    DECLINED: 'Abgelehnt',
    SKIPPED: 'Hat eine Kopie erhalten',
    DELEGATED: 'Hat die Aufgabe weitergegeben',
  },

  consentHeading: 'Bevor Sie beginnen',
  consentIntro: 'Bitte lesen Sie diesen Hinweis. Er wird zusammen mit Ihrer Unterschrift gespeichert.',
  consentAgree: 'Ich stimme zu, weiter',
  consentDecline: 'Ich stimme nicht zu (ablehnen)',

  passwordHeading: 'Dieses Dokument ist geschützt',
  passwordIntro:
    'Der Absender hat dieses Dokument mit einem Passwort geschützt. Sie sollten es separat von ihm erhalten haben.',
  passwordLabel: 'Passwort',
  passwordSubmit: 'Dokument öffnen',
  passwordWrong: 'Das Passwort ist nicht richtig. Prüfen Sie es und versuchen Sie es erneut.',
  passwordLocked: 'Zu viele falsche Passwörter. Warten Sie eine Weile, bevor Sie es erneut versuchen.',

  otpHeading: 'Bestätigen Sie, dass Sie es sind',
  otpIntro: (email: string) =>
    `Der Absender möchte Ihre Identität prüfen lassen. Wir senden einen 6-stelligen Code an ${email}.`,
  otpSend: 'Code per E-Mail senden',
  otpSent: (time: string) => `Wir haben Ihnen einen Code gesendet. Er gilt bis ${time} Uhr.`,
  otpLabel: 'Code aus der E-Mail',
  otpHint: '6 Ziffern',
  otpVerify: 'Code bestätigen',
  otpResend: 'Neuen Code senden',
  otpResendIn: (seconds: number) => `Einen neuen Code können Sie in ${seconds} s anfordern.`,
  otpWrong: (attemptsLeft: number) =>
    attemptsLeft > 0
      ? `Der Code ist nicht richtig. Noch ${attempts(attemptsLeft)}.`
      : 'Dieser Code gilt nicht mehr. Fordern Sie einen neuen an.',
  otpFormat: 'Geben Sie die 6 Ziffern aus der E-Mail ein.',
  otpTooSoon: (seconds: number) => `Bitte warten Sie ${seconds} s, bevor Sie einen neuen Code anfordern.`,
  otpVerified: 'Danke, Ihre Identität ist bestätigt.',

  documentsHeading: 'Dokument',
  documentOf: (name: string, index: number, total: number) =>
    total > 1 ? `${name} (Dokument ${index} von ${total})` : name,
  pageOf: (page: number, total: number) => `Seite ${page} von ${total}`,
  zoomOut: 'Verkleinern',
  zoomIn: 'Vergrößern',
  zoomFit: 'An Breite anpassen',
  zoomLevel: (percent: number) => `Zoom ${percent} %`,
  pageLoading: 'Seite wird geladen …',
  pageFailed: 'Diese Seite kann nicht angezeigt werden.',

  fieldType: {
    SIGNATURE: 'Unterschrift',
    INITIALS: 'Initialen',
    TEXT: 'Text',
    TEXTAREA: 'Text',
    NUMBER: 'Zahl',
    EMAIL: 'E-Mail',
    DATE: 'Datum',
    CHECKBOX: 'Kontrollkästchen',
    DROPDOWN: 'Auswahl',
    NAME: 'Name',
    NOTE: 'Hinweis',
    IMAGE: 'Bild',
    STAMP: 'Stempel',
    DIGITAL_SIGNATURE: 'Digitale Signatur',
  },
  required: 'Pflichtfeld',
  optional: 'optional',
  filled: 'ausgefüllt',
  empty: 'leer',
  fieldButton: (label: string, required: boolean, filled: boolean) =>
    `${label}, ${required ? 'Pflichtfeld' : 'optional'}, ${filled ? 'ausgefüllt' : 'leer'}`,
  progress: (done: number, total: number) => `${done} von ${total} Pflichtfeldern ausgefüllt`,
  nextField: 'Nächstes Feld',
  previousField: 'Vorheriges Feld',
  skipField: 'Feld überspringen',
  startFilling: 'Zum ersten Feld',
  today: 'Heute',
  reviewFields: 'Ihre Felder prüfen',
  allRequiredDone: 'Alle Pflichtfelder sind ausgefüllt.',
  fieldPanelHeading: (label: string, position: number, total: number) => `${label} (Feld ${position} von ${total})`,
  closeField: 'Schließen',
  noFieldsForYou: 'Für Sie gibt es nichts auszufüllen.',
  saved: 'Gespeichert',
  saving: 'Wird gespeichert …',
  savedLocally: 'Bis zum Abschluss auf diesem Gerät gespeichert',
  saveFailed:
    'Speichern nicht möglich. Ihre Eingabe bleibt auf diesem Gerät erhalten und wird beim Abschließen gespeichert.',
  applyValue: 'Speichern und weiter',
  clearValue: 'Leeren',
  notePrefix: 'Hinweis des Absenders',
  checkboxLabel: (label: string) => label,
  choosePlaceholder: 'Bitte wählen …',
  dateShownAs: (text: string) => `Im Dokument steht: ${text}`,
  invalidNumber: 'Geben Sie eine Zahl ein, zum Beispiel 42 oder 3.5 (mit Punkt, nicht mit Komma).',
  invalidEmail: 'Geben Sie eine E-Mail-Adresse ein, zum Beispiel name@example.com.',
  invalidDate: 'Geben Sie ein Datum ein.',
  tooLong: (max: number) => `Höchstens ${max} Zeichen.`,
  requiredMissing: 'Dieses Feld ist ein Pflichtfeld.',
  imageChoose: 'Bild auswählen',
  imageTooLarge: 'Das Bild ist zu groß. Verwenden Sie ein Bild unter 2 MB und mit höchstens 8000 Pixeln je Seite.',
  imageUnreadable: 'Diese Datei konnte nicht als Bild gelesen werden.',
  imagePreviewAlt: 'Ausgewähltes Bild',
  stampFromFile: 'Ein Stempel ist ein Bild Ihres Firmenstempels. Wählen Sie die Bilddatei aus.',

  signatureHow: 'Wie möchten Sie unterschreiben?',
  signatureDraw: 'Zeichnen',
  signatureType: 'Tippen',
  drawAreaLabel: (m: Mark) => `Zeichenfläche für ${your[m]}. Zeichnen Sie mit der Maus, einem Stift oder dem Finger.`,
  drawHint: 'Zeichnen Sie in das Feld. Keine Maus und kein Touchscreen? Wählen Sie „Tippen“.',
  drawEmpty: 'Zeichnen Sie zuerst Ihre Unterschrift oder wählen Sie „Tippen“.',
  typeLabel: (m: Mark) => `${mark[m]} eintippen`,
  typePreviewAlt: (m: Mark) => `Vorschau: ${your[m]}, getippt`,
  typeEmpty: 'Tippen Sie zuerst Ihren Namen ein.',
  adoptSignature: (m: Mark) =>
    `${m === 'initials' ? 'Diese' : m === 'stamp' ? 'Diesen' : 'Diese'} ${mark[m]} verwenden`,
  signaturePreviewAlt: (m: Mark) => your[m].replace(/^Ihren /, 'Ihr '),
  changeSignature: 'Ändern',
  signingPasswordMissing: 'Geben Sie Ihr Signaturpasswort ein.',
  signingPasswordCreateLabel: 'Signaturpasswort festlegen',
  signingPasswordCreateHint: (min: number) =>
    `Dies ist Ihre erste Unterschrift mit einem persönlichen Signaturzertifikat. Das Passwort erzeugt Ihren Signaturschlüssel und schützt ihn: Ohne dieses Passwort kann niemand damit unterschreiben, auch der Dienst nicht. Verwenden Sie mindestens ${min} Zeichen und bewahren Sie es sicher auf; Sie brauchen es für jede weitere Unterschrift.`,
  signingPasswordConfirmLabel: 'Signaturpasswort bestätigen',
  signingPasswordEnterLabel: 'Signaturpasswort eingeben',
  signingPasswordEnterHint:
    'Das Passwort, das Sie bei Ihrer ersten Unterschrift mit Ihrem Signaturzertifikat festgelegt haben. Es entsperrt Ihren Signaturschlüssel für diese Unterschrift.',
  signingPasswordTooShort: (min: number) => `Verwenden Sie mindestens ${min} Zeichen.`,
  signingPasswordMismatch: 'Die beiden Passwörter stimmen nicht überein.',
  signingPasswordWrong: (attemptsLeft: number | null) =>
    attemptsLeft === null
      ? 'Das Signaturpasswort ist falsch.'
      : `Das Signaturpasswort ist falsch. Noch ${attempts(attemptsLeft)}.`,
  signingPasswordLocked:
    'Zu viele falsche Signaturpasswörter. Versuchen Sie es in 15 Minuten erneut oder erstellen Sie unten einen neuen Signaturschlüssel.',
  signingKeyNotCertifiable:
    'Ihre Adresse muss bestätigt sein, bevor ein Signaturzertifikat dafür ausgestellt werden kann. Öffnen Sie den Bestätigungslink, den wir Ihnen bei der Kontoerstellung gesendet haben, oder unterschreiben Sie über den Link in der E-Mail mit der Signaturanfrage.',
  signingKeyForgot: 'Signaturpasswort vergessen?',
  signingKeyResetIntro:
    'Wir senden Ihnen einen Code per E-Mail. Damit legen Sie ein neues Signaturpasswort fest; es erzeugt einen neuen Signaturschlüssel und ein neues Zertifikat. Ihre bisherigen Unterschriften bleiben gültig.',
  signingKeyResetSend: 'Code per E-Mail senden',
  signingKeyResetSending: 'Wird gesendet …',
  signingKeyResetSent: 'Wir haben Ihnen einen Code gesendet. Er gilt 10 Minuten.',
  signingKeyResetCode: 'Code aus der E-Mail',
  signingKeyResetPassword: 'Neues Signaturpasswort',
  signingKeyResetConfirm: 'Neues Signaturpasswort bestätigen',
  signingKeyResetSubmit: 'Neuen Signaturschlüssel erstellen',
  signingKeyResetDone:
    'Ihr neuer Signaturschlüssel ist bereit. Geben Sie oben sein Passwort ein, um zu unterschreiben.',
  signingKeyResetCodeInvalid: 'Geben Sie die 6 Ziffern aus der E-Mail ein.',
  signedWithCertificate: 'Mit Ihrem persönlichen Signaturzertifikat unterschrieben.',
  libraryHeading: (m: Mark) =>
    m === 'signature'
      ? 'Ihre gespeicherten Unterschriften'
      : m === 'initials'
        ? 'Ihre gespeicherten Initialen'
        : 'Ihre gespeicherten Stempel',
  libraryUse: (name: string) => `„${name}“ verwenden`,
  libraryImageAlt: (name: string) => `Gespeichert: ${name}`,
  librarySignIn: 'Sie haben ein Konto? Melden Sie sich an, um Ihre gespeicherten Unterschriften zu verwenden',

  actionsRegion: 'Ausfüllen und unterschreiben',
  finishHeading: 'Abschließen',
  finishSign: 'Abschließen und unterschreiben',
  finishApprove: 'Genehmigen',
  approveCommentLabel: 'Kommentar für den Absender (optional)',
  finishBlocked: (count: number) =>
    count === 1 ? 'Füllen Sie zuerst noch 1 Pflichtfeld aus.' : `Füllen Sie zuerst noch ${count} Pflichtfelder aus.`,
  moreActions: 'Weitere Optionen',
  decline: 'Ablehnen',
  declineHeading: 'Unterschrift ablehnen',
  declineReasonLabel: 'Begründung (der Absender liest sie)',
  declineConfirm: 'Ablehnen',
  declineReasonMissing: 'Teilen Sie dem Absender mit, warum Sie ablehnen.',
  delegate: 'An eine andere Person übergeben',
  delegateHeading: 'Diese Aufgabe an eine andere Person übergeben',
  delegateIntro: 'Die Person erhält eine eigene E-Mail mit einem Link; Ihr Link funktioniert dann nicht mehr.',
  delegateName: 'Name der Person',
  delegateEmail: 'E-Mail-Adresse der Person',
  delegateConfirm: 'Übergeben',
  delegateNameInvalid:
    'Geben Sie den Namen ein: 2 bis 50 Zeichen, Buchstaben (ein Bindestrich oder Apostroph zwischen zweien), einzelne Leerzeichen zwischen Wörtern.',
  delegateEmailInvalid: 'Geben Sie die E-Mail-Adresse der Person ein.',
  cancel: 'Abbrechen',
  close: 'Schließen',

  doneSignedTitle: 'Vielen Dank, Sie haben unterschrieben',
  doneApprovedTitle: 'Vielen Dank, Sie haben genehmigt',
  doneWaiting:
    'Die anderen Beteiligten sind noch an der Reihe. Sobald alle fertig sind, erhalten Sie das abgeschlossene Dokument per E-Mail.',
  doneCompleted:
    'Alle sind fertig. Das Dokument wird versiegelt; der Download erscheint gleich hier, und Sie erhalten es auch per E-Mail.',
  doneSealed: 'Alle sind fertig. Das Dokument ist versiegelt und bereit.',
  declinedTitle: 'Sie haben abgelehnt',
  declinedText: 'Der Absender wurde mit Ihrer Begründung informiert. Niemand kann dieses Dokument mehr unterschreiben.',
  delegatedTitle: 'Aufgabe übergeben',
  delegatedText: (name: string, email: string) =>
    `${name} (${email}) erhält eine E-Mail mit einem eigenen Link. Ihr Link funktioniert nicht mehr.`,
  voidTitle: 'Dieses Dokument wurde storniert',
  voidText: 'Jemand hat abgelehnt oder der Absender hat storniert. Es kann nichts mehr unterschrieben werden.',
  notYourTurnTitle: 'Sie sind noch nicht an der Reihe',
  notYourTurnText:
    'Andere handeln vor Ihnen. Wir benachrichtigen Sie per E-Mail, sobald Sie an der Reihe sind; bis dahin können Sie das Dokument lesen.',
  ccTitle: 'Sie erhalten eine Kopie',
  ccText: 'Sie müssen nichts tun. Sie können das Dokument hier lesen.',
  alreadyFinished: 'Sie sind bereits fertig. Sie können das Dokument hier lesen.',
  downloadsHeading: 'Download',
  downloadDocument: (name: string) => `${name} herunterladen (versiegeltes PDF)`,
  downloadCertificate: 'Abschlusszertifikat herunterladen',
  downloadFailed: 'Der Download ist fehlgeschlagen. Versuchen Sie es gleich noch einmal.',

  commentsHeading: 'Kommentare',
  commentsEmpty: 'Noch keine Kommentare.',
  commentLabel: 'Kommentar hinzufügen',
  commentOnField: (label: string) => `Zum Feld „${label}“`,
  commentAboutField: (label: string) => `zu „${label}“`,
  commentSend: 'Kommentar senden',
  commentEmpty: 'Schreiben Sie zuerst einen Kommentar.',
  commentBy: (name: string, time: string) => `${name}, ${time}`,

  cscReturning: 'Zurück zu Ihrem Dokument …',
  ssoTitle: 'Anmelden',
  ssoHandedBack: 'Sie sind angemeldet. Dieses Fenster schließt sich von selbst; falls nicht, schließen Sie es bitte.',
  ssoReturnToApp: 'Anmeldung abgeschlossen. Kehren Sie zu der App zurück, die Sie zur Anmeldung aufgefordert hat.',
  ssoFailed: (reason: string) =>
    `Die Anmeldung wurde nicht abgeschlossen (${reason}). Kehren Sie zur App zurück und versuchen Sie es erneut.`,
  cscNoSession: 'Diese Seite schließt eine Fernsignatur ab. Kehren Sie zu dem Dokument zurück, das Sie unterschreiben.',

  cscHeading: 'Fernsignatur',
  cscIntro:
    'Ihr Signaturdienst unterschreibt mit Ihrem eigenen Zertifikat: Sie bestätigen die Unterschrift auf seiner Seite und kehren dann hierher zurück.',
  cscLoading: 'Ihre Zertifikate werden bei Ihrem Signaturdienst abgefragt …',
  cscCredentialLabel: 'Zertifikat',
  cscCredentialOption: (name: string, kind: string) => `${name}, ${kind}`,
  cscQualifier: {
    SES: 'einfache elektronische Signatur',
    AES: 'fortgeschrittene elektronische Signatur',
    QES: 'qualifizierte elektronische Signatur',
  },
  cscSignButton: 'Mit Ihrem Fernsignaturdienst unterschreiben',
  cscRedirecting: 'Sie werden zu Ihrem Signaturdienst weitergeleitet …',
  cscNoCredentials: 'Ihr Signaturdienst hat kein Zertifikat für eine Signaturart, die dieses Dokument akzeptiert.',
  cscUnavailable: 'Ihr Signaturdienst ist gerade nicht erreichbar. Versuchen Sie es gleich noch einmal.',
  cscCompleting: 'Ihre Fernsignatur wird abgeschlossen …',
  cscRefused:
    'Ihr Signaturdienst hat die Unterschrift nicht freigegeben. Es wurde nichts unterschrieben; Sie können es erneut versuchen.',
  cscFailed: (reason: string) =>
    `Die Fernsignatur konnte nicht abgeschlossen werden: ${reason} Es wurde nichts unterschrieben; Sie können es erneut versuchen.`,
  cscSigned: 'Ihre Fernsignatur wurde dem Dokument hinzugefügt.',

  notFoundTitle: 'Seite nicht gefunden',
  notFoundText: 'Öffnen Sie den Signaturlink aus Ihrer E-Mail.',
};
