import type { Messages } from './en.ts';

const minutes = (n: number) => `${n} ${n === 1 ? 'minuto' : 'minuti'}`;

/** L’italiano della pagina di accesso (forma di cortesia, Lei). */
export const it: Messages = {
  title: 'Accedi',
  noAccount: 'È la prima volta?',
  signUp: 'Crea un account',
  intro: 'Acceda per inviare documenti e firmare quelli che altri Le hanno inviato.',
  email: 'E-mail',
  password: 'Password',
  rememberMe: 'Resta connesso su questo dispositivo per 30 giorni',
  submit: 'Accedi',
  submitting: 'Accesso in corso…',
  totpTitle: 'Autenticazione a due fattori',
  totpIntro: 'Inserisca il codice di 6 cifre della Sua app di autenticazione.',
  totpLabel: 'Codice di autenticazione',
  totpSubmit: 'Verifica il codice',
  back: 'Indietro',
  otherWays: 'Altri modi per accedere',
  wrongCredentials: 'L’e-mail o la password non sono corrette.',
  wrongCode: 'Il codice non è corretto o è già stato usato. Attenda il codice successivo e riprovi.',
  locked: (n: number) => `Troppi tentativi non riusciti. Riprovi tra ${minutes(n)}.`,
  expired: 'Questa pagina di accesso è scaduta o è stata aperta in un altro browser.',
  startAgain: 'Ricomincia',
  failed: 'L’accesso non è riuscito. Controlli la connessione e riprovi.',
  missingFields: 'Inserisca e-mail e password.',
  missingCode: 'Inserisca il codice di 6 cifre.',
  passkeyTitle: 'Accedi con una passkey',
  passkeyIntro:
    'Inserisca qui sopra la Sua e-mail, poi usi la passkey salvata su questo dispositivo o la Sua chiave di sicurezza.',
  passkeySubmit: 'Accedi con una passkey',
  passkeyWaiting: 'In attesa della passkey…',
  passkeyNeedsEmail: 'Inserisca prima la Sua e-mail qui sopra, poi scelga Accedi con una passkey.',
  passkeyUnsupported: 'Questo browser non supporta le passkey. Acceda invece con la Sua password.',
  passkeyCancelled: 'La richiesta della passkey è stata annullata o è scaduta. Riprovi quando è pronto.',
  passkeyRejected: 'Questa passkey non è stata accettata per questo account.',
  cardTitle: 'Accedi con una smart card',
  cardIntro:
    'Il browser non può leggere direttamente la carta: firmi un breve codice con il software della carta e incolli qui il risultato.',
  cardCertificate: 'Certificato della carta (PEM)',
  cardCertificateFile: 'Oppure scelga il file del certificato',
  cardGetHash: 'Ottieni l’hash da firmare',
  cardGettingHash: 'Preparazione…',
  cardHashStep: 'Firmi questo hash con la Sua carta',
  cardHash: 'Hash da firmare (base64)',
  cardCopy: 'Copia l’hash',
  cardCopied: 'L’hash è stato copiato.',
  cardCopyFailed: 'La copia non è riuscita: selezioni l’hash e lo copi manualmente.',
  cardHowTo: 'Come firmarlo con pkcs11-tool di OpenSC',
  cardHowToIntro:
    'In un terminale, con la carta inserita nel lettore (usi il percorso di opensc-pkcs11.so del Suo sistema; aggiunga --id con l’identificativo della chiave se la carta ne contiene più di una; pkcs11-tool chiederà il PIN):',
  cardHowToRsa: 'Per una chiave RSA:',
  cardHowToEc: 'Per una chiave a curva ellittica (ECDSA):',
  cardHowToLast: 'Poi stampi la firma da incollare qui sotto:',
  cardSignature: 'Firma (base64)',
  cardSubmit: 'Accedi con la carta',
  cardRestart: 'Usa un altro certificato',
  cardHashExpires: 'L’hash può essere usato una sola volta, entro 5 minuti.',
  cardNeedsCertificate: 'Incolli o scelga prima il certificato della carta.',
  cardNeedsSignature: 'Incolli la firma in base64.',
  cardUnreadable:
    'Questo non è un certificato leggibile da questa pagina. Incolli il testo PEM, che inizia con -----BEGIN CERTIFICATE-----.',
  cardFileUnreadable: 'Non è stato possibile leggere il file.',
  cardOff: 'L’accesso con smart card non è attivo su questo servizio.',
  cardExpiredChallenge: 'L’hash è scaduto o è già stato usato. Ne ottenga uno nuovo e lo firmi di nuovo.',
  cardRejected: (reason: string) => {
    switch (reason) {
      case 'SIGNATURE':
        return 'La firma non corrisponde all’hash e al certificato. Firmi esattamente l’hash mostrato, con questa carta.';
      case 'UNTRUSTED_ISSUER':
        return 'Il certificato di questa carta non è stato emesso da un’autorità accettata da questo servizio.';
      case 'NOT_YET_VALID':
        return 'Il certificato di questa carta non è ancora valido.';
      case 'EXPIRED':
        return 'Il certificato di questa carta è scaduto.';
      case 'KEY_USAGE':
        return 'Il certificato di questa carta non può essere usato per accedere.';
      case 'REVOKED':
        return 'Il certificato di questa carta è stato revocato.';
      case 'REVOCATION_UNKNOWN':
        return 'Non è stato possibile verificare se il certificato di questa carta è revocato. Riprovi più tardi.';
      case 'NO_EMAIL':
        return 'Il certificato di questa carta non contiene alcun indirizzo e-mail.';
      case 'NO_ACCOUNT':
        return 'Nessun account usa l’indirizzo e-mail del certificato di questa carta.';
      default:
        return 'L’accesso con la carta non è stato accettato.';
    }
  },
  tooManyChallenges: (n: number) => `Troppi tentativi di accesso da questa rete. Riprovi tra ${minutes(n)}.`,
};
