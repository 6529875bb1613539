/** The sign-in page's English strings: the source of truth its other languages (de.ts, fr.ts…) are typed by. */
export const en = {
  title: 'Sign in',
  noAccount: 'New here?',
  signUp: 'Create an account',
  intro: 'Sign in to send documents and sign what others sent you.',
  email: 'Email',
  password: 'Password',
  rememberMe: 'Keep me signed in on this device for 30 days',
  submit: 'Sign in',
  submitting: 'Signing in…',
  totpTitle: 'Two-factor authentication',
  totpIntro: 'Enter the 6-digit code from your authenticator app.',
  totpLabel: 'Authentication code',
  totpSubmit: 'Verify code',
  back: 'Back',
  otherWays: 'Other ways to sign in',
  wrongCredentials: 'The email or password is not correct.',
  wrongCode: 'That code is not right, or it was already used. Wait for the next code and try again.',
  locked: (minutes: number) => `Too many failed attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  expired: 'This sign-in page has expired or was opened in another browser.',
  startAgain: 'Start again',
  failed: 'Signing in did not work. Check your connection and try again.',
  missingFields: 'Enter your email and password.',
  missingCode: 'Enter the 6-digit code.',
  passkeyTitle: 'Sign in with a passkey',
  passkeyIntro: 'Enter your email above, then use the passkey saved on this device or your security key.',
  passkeySubmit: 'Sign in with a passkey',
  passkeyWaiting: 'Waiting for your passkey…',
  passkeyNeedsEmail: 'Enter your email above first, then choose Sign in with a passkey.',
  passkeyUnsupported: 'This browser cannot use passkeys. Sign in with your password instead.',
  passkeyCancelled: 'The passkey request was cancelled or timed out. Try again when you are ready.',
  passkeyRejected: 'That passkey was not accepted for this account.',
  cardTitle: 'Sign in with a smart card',
  cardIntro:
    'Your browser cannot read the card itself, so you sign a short code with your card software and paste the result here.',
  cardCertificate: 'Card certificate (PEM)',
  cardCertificateFile: 'Or choose the certificate file',
  cardGetHash: 'Get the hash to sign',
  cardGettingHash: 'Preparing…',
  cardHashStep: 'Sign this hash with your card',
  cardHash: 'Hash to sign (base64)',
  cardCopy: 'Copy hash',
  cardCopied: 'The hash is copied.',
  cardCopyFailed: 'Copying did not work: select the hash and copy it yourself.',
  cardHowTo: "How to sign it with OpenSC's pkcs11-tool",
  cardHowToIntro:
    "In a terminal, with the card in its reader (use your system's path to opensc-pkcs11.so; add --id with the key's id when the card holds several keys; pkcs11-tool asks for the PIN):",
  cardHowToRsa: 'For an RSA key:',
  cardHowToEc: 'For an elliptic-curve (ECDSA) key:',
  cardHowToLast: 'Then print the signature to paste below:',
  cardSignature: 'Signature (base64)',
  cardSubmit: 'Sign in with the card',
  cardRestart: 'Use another certificate',
  cardHashExpires: 'The hash can be used once, within 5 minutes.',
  cardNeedsCertificate: 'Paste or choose your card certificate first.',
  cardNeedsSignature: 'Paste the signature in base64.',
  cardUnreadable:
    'That is not a certificate this page can read. Paste the PEM text, starting with -----BEGIN CERTIFICATE-----.',
  cardFileUnreadable: 'That file could not be read.',
  cardOff: 'Smart-card sign-in is not enabled on this service.',
  cardExpiredChallenge: 'The hash has expired or was already used. Get a new hash and sign it again.',
  cardRejected: (reason: string): string => {
    switch (reason) {
      case 'SIGNATURE':
        return 'The signature does not match the hash and the certificate. Sign exactly the hash shown, with this card.';
      case 'UNTRUSTED_ISSUER':
        return "This card's certificate was not issued by an authority this service accepts.";
      case 'NOT_YET_VALID':
        return "This card's certificate is not valid yet.";
      case 'EXPIRED':
        return "This card's certificate has expired.";
      case 'KEY_USAGE':
        return "This card's certificate may not be used to sign in.";
      case 'REVOKED':
        return "This card's certificate has been revoked.";
      case 'REVOCATION_UNKNOWN':
        return "Whether this card's certificate is revoked could not be checked. Try again later.";
      case 'NO_EMAIL':
        return "This card's certificate names no email address.";
      case 'NO_ACCOUNT':
        return "No account uses the email address in this card's certificate.";
      default:
        return 'The card sign-in was not accepted.';
    }
  },
  tooManyChallenges: (minutes: number) =>
    `Too many sign-in attempts from this network. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
};

export type Messages = typeof en;
