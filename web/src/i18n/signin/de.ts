import type { Messages } from './en.ts';

const minutes = (n: number) => `${n} ${n === 1 ? 'Minute' : 'Minuten'}`;

/** Das Deutsch der Anmeldeseite (Anrede „Sie“). */
export const de: Messages = {
  title: 'Anmelden',
  noAccount: 'Neu hier?',
  signUp: 'Konto erstellen',
  intro: 'Melden Sie sich an, um Dokumente zu versenden und zu unterschreiben, was andere Ihnen geschickt haben.',
  email: 'E-Mail',
  password: 'Passwort',
  rememberMe: 'Auf diesem Gerät 30 Tage angemeldet bleiben',
  submit: 'Anmelden',
  submitting: 'Anmeldung läuft …',
  totpTitle: 'Zwei-Faktor-Authentifizierung',
  totpIntro: 'Geben Sie den 6-stelligen Code aus Ihrer Authenticator-App ein.',
  totpLabel: 'Authentifizierungscode',
  totpSubmit: 'Code prüfen',
  back: 'Zurück',
  otherWays: 'Andere Anmeldemöglichkeiten',
  wrongCredentials: 'E-Mail-Adresse oder Passwort ist nicht richtig.',
  wrongCode:
    'Der Code ist nicht richtig oder wurde schon verwendet. Warten Sie auf den nächsten Code und versuchen Sie es erneut.',
  locked: (n: number) => `Zu viele Fehlversuche. Versuchen Sie es in ${minutes(n)} erneut.`,
  expired: 'Diese Anmeldeseite ist abgelaufen oder wurde in einem anderen Browser geöffnet.',
  startAgain: 'Neu beginnen',
  failed: 'Die Anmeldung hat nicht geklappt. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  missingFields: 'Geben Sie Ihre E-Mail-Adresse und Ihr Passwort ein.',
  missingCode: 'Geben Sie den 6-stelligen Code ein.',
  passkeyTitle: 'Mit einem Passkey anmelden',
  passkeyIntro:
    'Geben Sie oben Ihre E-Mail-Adresse ein und verwenden Sie dann den auf diesem Gerät gespeicherten Passkey oder Ihren Sicherheitsschlüssel.',
  passkeySubmit: 'Mit einem Passkey anmelden',
  passkeyWaiting: 'Warten auf Ihren Passkey …',
  passkeyNeedsEmail: 'Geben Sie zuerst oben Ihre E-Mail-Adresse ein und wählen Sie dann „Mit einem Passkey anmelden“.',
  passkeyUnsupported: 'Dieser Browser unterstützt keine Passkeys. Melden Sie sich stattdessen mit Ihrem Passwort an.',
  passkeyCancelled:
    'Die Passkey-Anfrage wurde abgebrochen oder ist abgelaufen. Versuchen Sie es erneut, wenn Sie bereit sind.',
  passkeyRejected: 'Dieser Passkey wurde für dieses Konto nicht akzeptiert.',
  cardTitle: 'Mit einer Smartcard anmelden',
  cardIntro:
    'Ihr Browser kann die Karte nicht selbst lesen. Sie signieren daher einen kurzen Code mit Ihrer Kartensoftware und fügen das Ergebnis hier ein.',
  cardCertificate: 'Kartenzertifikat (PEM)',
  cardCertificateFile: 'Oder die Zertifikatsdatei auswählen',
  cardGetHash: 'Zu signierenden Hash abrufen',
  cardGettingHash: 'Wird vorbereitet …',
  cardHashStep: 'Diesen Hash mit Ihrer Karte signieren',
  cardHash: 'Zu signierender Hash (Base64)',
  cardCopy: 'Hash kopieren',
  cardCopied: 'Der Hash wurde kopiert.',
  cardCopyFailed: 'Kopieren hat nicht funktioniert: Markieren Sie den Hash und kopieren Sie ihn selbst.',
  cardHowTo: 'So signieren Sie mit pkcs11-tool von OpenSC',
  cardHowToIntro:
    'In einem Terminal, mit der Karte im Lesegerät (verwenden Sie den Pfad zu opensc-pkcs11.so auf Ihrem System; geben Sie mit --id die Schlüssel-ID an, wenn die Karte mehrere Schlüssel enthält; pkcs11-tool fragt nach der PIN):',
  cardHowToRsa: 'Für einen RSA-Schlüssel:',
  cardHowToEc: 'Für einen Schlüssel mit elliptischen Kurven (ECDSA):',
  cardHowToLast: 'Geben Sie dann die Signatur aus, um sie unten einzufügen:',
  cardSignature: 'Signatur (Base64)',
  cardSubmit: 'Mit der Karte anmelden',
  cardRestart: 'Anderes Zertifikat verwenden',
  cardHashExpires: 'Der Hash kann einmal verwendet werden, innerhalb von 5 Minuten.',
  cardNeedsCertificate: 'Fügen Sie zuerst Ihr Kartenzertifikat ein oder wählen Sie es aus.',
  cardNeedsSignature: 'Fügen Sie die Signatur in Base64 ein.',
  cardUnreadable:
    'Das ist kein Zertifikat, das diese Seite lesen kann. Fügen Sie den PEM-Text ein, beginnend mit -----BEGIN CERTIFICATE-----.',
  cardFileUnreadable: 'Diese Datei konnte nicht gelesen werden.',
  cardOff: 'Die Anmeldung mit Smartcard ist bei diesem Dienst nicht aktiviert.',
  cardExpiredChallenge:
    'Der Hash ist abgelaufen oder wurde schon verwendet. Rufen Sie einen neuen Hash ab und signieren Sie ihn erneut.',
  cardRejected: (reason: string) => {
    switch (reason) {
      case 'SIGNATURE':
        return 'Die Signatur passt nicht zu Hash und Zertifikat. Signieren Sie genau den angezeigten Hash, mit dieser Karte.';
      case 'UNTRUSTED_ISSUER':
        return 'Das Zertifikat dieser Karte stammt nicht von einer Stelle, die dieser Dienst anerkennt.';
      case 'NOT_YET_VALID':
        return 'Das Zertifikat dieser Karte ist noch nicht gültig.';
      case 'EXPIRED':
        return 'Das Zertifikat dieser Karte ist abgelaufen.';
      case 'KEY_USAGE':
        return 'Das Zertifikat dieser Karte darf nicht zur Anmeldung verwendet werden.';
      case 'REVOKED':
        return 'Das Zertifikat dieser Karte wurde widerrufen.';
      case 'REVOCATION_UNKNOWN':
        return 'Ob das Zertifikat dieser Karte widerrufen wurde, ließ sich nicht prüfen. Versuchen Sie es später erneut.';
      case 'NO_EMAIL':
        return 'Das Zertifikat dieser Karte enthält keine E-Mail-Adresse.';
      case 'NO_ACCOUNT':
        return 'Kein Konto verwendet die E-Mail-Adresse aus dem Zertifikat dieser Karte.';
      default:
        return 'Die Anmeldung mit der Karte wurde nicht akzeptiert.';
    }
  },
  tooManyChallenges: (n: number) =>
    `Zu viele Anmeldeversuche aus diesem Netzwerk. Versuchen Sie es in ${minutes(n)} erneut.`,
};
