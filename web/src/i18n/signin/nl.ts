import type { Messages } from './en.ts';

const minutes = (n: number) => `${n} ${n === 1 ? 'minuut' : 'minuten'}`;

/** Het Nederlands van de inlogpagina (u-vorm). */
export const nl: Messages = {
  title: 'Inloggen',
  noAccount: 'Nieuw hier?',
  signUp: 'Account aanmaken',
  intro: 'Log in om documenten te versturen en te ondertekenen wat anderen u hebben gestuurd.',
  email: 'E-mail',
  password: 'Wachtwoord',
  rememberMe: 'Op dit apparaat 30 dagen ingelogd blijven',
  submit: 'Inloggen',
  submitting: 'Inloggen…',
  totpTitle: 'Tweestapsverificatie',
  totpIntro: 'Vul de code van 6 cijfers uit uw authenticator-app in.',
  totpLabel: 'Verificatiecode',
  totpSubmit: 'Code controleren',
  back: 'Terug',
  otherWays: 'Andere manieren om in te loggen',
  wrongCredentials: 'Het e-mailadres of wachtwoord klopt niet.',
  wrongCode: 'Die code klopt niet of is al gebruikt. Wacht op de volgende code en probeer het opnieuw.',
  locked: (n: number) => `Te veel mislukte pogingen. Probeer het over ${minutes(n)} opnieuw.`,
  expired: 'Deze inlogpagina is verlopen of is in een andere browser geopend.',
  startAgain: 'Opnieuw beginnen',
  failed: 'Inloggen is niet gelukt. Controleer uw verbinding en probeer het opnieuw.',
  missingFields: 'Vul uw e-mailadres en wachtwoord in.',
  missingCode: 'Vul de code van 6 cijfers in.',
  passkeyTitle: 'Inloggen met een passkey',
  passkeyIntro:
    'Vul hierboven uw e-mailadres in en gebruik dan de passkey die op dit apparaat is opgeslagen, of uw beveiligingssleutel.',
  passkeySubmit: 'Inloggen met een passkey',
  passkeyWaiting: 'Wachten op uw passkey…',
  passkeyNeedsEmail: 'Vul eerst hierboven uw e-mailadres in en kies dan Inloggen met een passkey.',
  passkeyUnsupported: 'Deze browser ondersteunt geen passkeys. Log in plaats daarvan in met uw wachtwoord.',
  passkeyCancelled: 'Het passkeyverzoek is geannuleerd of verlopen. Probeer het opnieuw wanneer u zover bent.',
  passkeyRejected: 'Die passkey is voor dit account niet geaccepteerd.',
  cardTitle: 'Inloggen met een smartcard',
  cardIntro:
    'Uw browser kan de kaart niet zelf lezen. Daarom ondertekent u een korte code met de software van uw kaart en plakt u het resultaat hier.',
  cardCertificate: 'Kaartcertificaat (PEM)',
  cardCertificateFile: 'Of kies het certificaatbestand',
  cardGetHash: 'Hash ophalen om te ondertekenen',
  cardGettingHash: 'Voorbereiden…',
  cardHashStep: 'Onderteken deze hash met uw kaart',
  cardHash: 'Te ondertekenen hash (base64)',
  cardCopy: 'Hash kopiëren',
  cardCopied: 'De hash is gekopieerd.',
  cardCopyFailed: 'Kopiëren is niet gelukt: selecteer de hash en kopieer hem zelf.',
  cardHowTo: 'Zo ondertekent u met pkcs11-tool van OpenSC',
  cardHowToIntro:
    'In een terminal, met de kaart in de lezer (gebruik het pad naar opensc-pkcs11.so op uw systeem; voeg --id met de id van de sleutel toe als de kaart meerdere sleutels bevat; pkcs11-tool vraagt om de pincode):',
  cardHowToRsa: 'Voor een RSA-sleutel:',
  cardHowToEc: 'Voor een elliptische-curvesleutel (ECDSA):',
  cardHowToLast: 'Toon daarna de handtekening om die hieronder te plakken:',
  cardSignature: 'Handtekening (base64)',
  cardSubmit: 'Inloggen met de kaart',
  cardRestart: 'Een ander certificaat gebruiken',
  cardHashExpires: 'De hash kan één keer worden gebruikt, binnen 5 minuten.',
  cardNeedsCertificate: 'Plak of kies eerst uw kaartcertificaat.',
  cardNeedsSignature: 'Plak de handtekening in base64.',
  cardUnreadable:
    'Dat is geen certificaat dat deze pagina kan lezen. Plak de PEM-tekst, die begint met -----BEGIN CERTIFICATE-----.',
  cardFileUnreadable: 'Dat bestand kon niet worden gelezen.',
  cardOff: 'Inloggen met een smartcard is bij deze dienst niet ingeschakeld.',
  cardExpiredChallenge: 'De hash is verlopen of al gebruikt. Haal een nieuwe hash op en onderteken die opnieuw.',
  cardRejected: (reason: string) => {
    switch (reason) {
      case 'SIGNATURE':
        return 'De handtekening past niet bij de hash en het certificaat. Onderteken precies de getoonde hash, met deze kaart.';
      case 'UNTRUSTED_ISSUER':
        return 'Het certificaat van deze kaart is niet uitgegeven door een instantie die deze dienst accepteert.';
      case 'NOT_YET_VALID':
        return 'Het certificaat van deze kaart is nog niet geldig.';
      case 'EXPIRED':
        return 'Het certificaat van deze kaart is verlopen.';
      case 'KEY_USAGE':
        return 'Het certificaat van deze kaart mag niet worden gebruikt om in te loggen.';
      case 'REVOKED':
        return 'Het certificaat van deze kaart is ingetrokken.';
      case 'REVOCATION_UNKNOWN':
        return 'Niet kon worden nagegaan of het certificaat van deze kaart is ingetrokken. Probeer het later opnieuw.';
      case 'NO_EMAIL':
        return 'Het certificaat van deze kaart bevat geen e-mailadres.';
      case 'NO_ACCOUNT':
        return 'Geen enkel account gebruikt het e-mailadres uit het certificaat van deze kaart.';
      default:
        return 'Het inloggen met de kaart is niet geaccepteerd.';
    }
  },
  tooManyChallenges: (n: number) => `Te veel inlogpogingen vanaf dit netwerk. Probeer het over ${minutes(n)} opnieuw.`,
};
