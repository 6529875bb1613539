import { PRODUCT_NAME } from '../../shared/product.ts';
import type { Mark, Messages } from './en.ts';

const sua: Record<Mark, string> = { signature: 'la Sua firma', initials: 'le Sue iniziali', stamp: 'il Suo timbro' };
const attempts = (n: number) => (n === 1 ? 'Resta 1 tentativo.' : `Restano ${n} tentativi.`);

/** L’italiano della pagina di firma (forma di cortesia, Lei). */
export const it: Messages = {
  appName: PRODUCT_NAME,
  loading: 'Caricamento…',
  opening: 'Apertura del documento…',
  skipToDocument: 'Vai al documento',

  linkExpiredTitle: 'Questo link non funziona più',
  linkExpiredText:
    'Il link di firma è scaduto, oppure l’incarico è stato affidato a un’altra persona. I link non possono essere prorogati.',
  linkExpiredWhatToDo:
    'Chieda al mittente di inviare di nuovo il documento. Se ha affidato l’incarico a un’altra persona, questa ha ricevuto un proprio link.',
  linkVoidedText:
    'Il mittente ha annullato questa busta: non c’è più nulla da firmare. Il motivo Le è stato inviato per e-mail.',
  genericErrorTitle: 'Si è verificato un problema',
  genericErrorText: 'Non è stato possibile caricare il documento. Controlli la connessione e ricarichi la pagina.',
  reload: 'Ricarica',
  requestReference: (id: string) => `Riferimento per l’assistenza: ${id}`,

  from: (name: string) => `Da ${name}`,
  messageFromSender: 'Messaggio del mittente',
  brandLogoAlt: (organization: string) => `Logo di ${organization}`,
  involvedHeading: 'Chi partecipa',
  involvedOrdered: 'Ognuno interviene in questo ordine.',
  involvedUnordered: 'Tutti possono intervenire contemporaneamente.',
  you: 'Lei',
  role: { SIGNER: 'Firma', APPROVER: 'Approva', CC: 'Riceve una copia' },
  recipientStatus: {
    PENDING: 'In attesa del proprio turno',
    SENT: 'Invitato',
    VIEWED: 'Ha aperto il documento',
    SIGNED: 'Ha firmato',
    APPROVED: 'Ha approvato',
    DECLINED: 'Ha rifiutato',
    SKIPPED: 'Ha ricevuto una copia',
    DELEGATED: 'Ha affidato l’incarico a un’altra persona',
  },

  consentHeading: 'Prima di iniziare',
  consentIntro: 'La preghiamo di leggere questa informativa. Viene registrata insieme alla Sua firma.',
  consentAgree: 'Accetto, continua',
  consentDecline: 'Non accetto (rifiuta)',

  passwordHeading: 'Questo documento è protetto',
  passwordIntro:
    'Il mittente ha protetto questo documento con una password, che dovrebbe averLe comunicato separatamente.',
  passwordLabel: 'Password',
  passwordSubmit: 'Apri il documento',
  passwordWrong: 'La password non è corretta. La controlli e riprovi.',
  passwordLocked: 'Troppe password errate. Attenda un po’ prima di riprovare.',

  otpHeading: 'Confermi la Sua identità',
  otpIntro: (email: string) =>
    `Il mittente ci ha chiesto di verificare la Sua identità. Invieremo un codice di 6 cifre a ${email}.`,
  otpSend: 'Inviami un codice',
  otpSent: (time: string) => `Le abbiamo inviato un codice via e-mail. È valido fino alle ${time}.`,
  otpLabel: 'Codice ricevuto via e-mail',
  otpHint: '6 cifre',
  otpVerify: 'Conferma il codice',
  otpResend: 'Invia un nuovo codice',
  otpResendIn: (seconds: number) => `Potrà richiedere un nuovo codice tra ${seconds} s.`,
  otpWrong: (attemptsLeft: number) =>
    attemptsLeft > 0
      ? `Il codice non è corretto. ${attempts(attemptsLeft)}`
      : 'Questo codice non è più valido. Ne richieda uno nuovo.',
  otpFormat: 'Inserisca le 6 cifre ricevute via e-mail.',
  otpTooSoon: (seconds: number) => `Attenda ${seconds} s prima di richiedere un nuovo codice.`,
  otpVerified: 'Grazie, la Sua identità è confermata.',

  documentsHeading: 'Documento',
  documentOf: (name: string, index: number, total: number) =>
    total > 1 ? `${name} (documento ${index} di ${total})` : name,
  pageOf: (page: number, total: number) => `Pagina ${page} di ${total}`,
  zoomOut: 'Riduci',
  zoomIn: 'Ingrandisci',
  zoomFit: 'Adatta alla larghezza',
  zoomLevel: (percent: number) => `Zoom ${percent}%`,
  pageLoading: 'Caricamento della pagina…',
  pageFailed: 'Impossibile visualizzare questa pagina.',

  fieldType: {
    SIGNATURE: 'Firma',
    INITIALS: 'Iniziali',
    TEXT: 'Testo',
    TEXTAREA: 'Testo',
    NUMBER: 'Numero',
    EMAIL: 'E-mail',
    DATE: 'Data',
    CHECKBOX: 'Casella di controllo',
    DROPDOWN: 'Scelta',
    NAME: 'Nome',
    NOTE: 'Nota',
    IMAGE: 'Immagine',
    STAMP: 'Timbro',
    DIGITAL_SIGNATURE: 'Firma digitale',
  },
  required: 'obbligatorio',
  optional: 'facoltativo',
  filled: 'compilato',
  empty: 'vuoto',
  fieldButton: (label: string, required: boolean, filled: boolean) =>
    `${label}, ${required ? 'obbligatorio' : 'facoltativo'}, ${filled ? 'compilato' : 'vuoto'}`,
  progress: (done: number, total: number) =>
    done === 1 ? `1 campo obbligatorio compilato su ${total}` : `${done} campi obbligatori compilati su ${total}`,
  nextField: 'Campo successivo',
  previousField: 'Campo precedente',
  skipField: 'Salta questo campo',
  startFilling: 'Vai al primo campo',
  today: 'Oggi',
  reviewFields: 'Controlla i Suoi campi',
  allRequiredDone: 'Tutti i campi obbligatori sono compilati.',
  fieldPanelHeading: (label: string, position: number, total: number) => `${label} (campo ${position} di ${total})`,
  closeField: 'Chiudi',
  noFieldsForYou: 'Non c’è nulla da compilare per Lei.',
  saved: 'Salvato',
  saving: 'Salvataggio…',
  savedLocally: 'Conservato su questo dispositivo fino alla fine',
  saveFailed: 'Impossibile salvare. Quanto inserito resta su questo dispositivo e verrà salvato quando avrà terminato.',
  applyValue: 'Salva e continua',
  clearValue: 'Cancella',
  notePrefix: 'Nota del mittente',
  checkboxLabel: (label: string) => label,
  choosePlaceholder: 'Scegliere…',
  dateShownAs: (text: string) => `Sul documento apparirà: ${text}`,
  invalidNumber: 'Inserisca un numero, ad esempio 42 o 3.5 (con il punto, non con la virgola).',
  invalidEmail: 'Inserisca un indirizzo e-mail, ad esempio nome@example.com.',
  invalidDate: 'Inserisca una data.',
  tooLong: (max: number) => `Al massimo ${max} caratteri.`,
  requiredMissing: 'Questo campo è obbligatorio.',
  imageChoose: 'Scegli un’immagine',
  imageTooLarge: 'L’immagine è troppo grande. Usi un’immagine inferiore a 2 MB e a 8000 pixel per lato.',
  imageUnreadable: 'Questo file non può essere letto come immagine.',
  imagePreviewAlt: 'Immagine scelta',
  stampFromFile: 'Un timbro è un’immagine del timbro della Sua azienda. Scelga il file dell’immagine.',

  signatureHow: 'Come desidera firmare?',
  signatureDraw: 'Disegna',
  signatureType: 'Digita',
  drawAreaLabel: (m: Mark) => `Area di disegno per ${sua[m]}. Disegni con il mouse, una penna o il dito.`,
  drawHint: 'Disegni all’interno del riquadro. Non ha un mouse o uno schermo tattile? Scelga Digita.',
  drawEmpty: 'Disegni prima la Sua firma, oppure scelga Digita.',
  typeLabel: (m: Mark) => `Digiti ${sua[m]}`,
  typePreviewAlt: (m: Mark) =>
    m === 'initials'
      ? 'Anteprima delle Sue iniziali digitate'
      : m === 'stamp'
        ? 'Anteprima del Suo timbro digitato'
        : 'Anteprima della Sua firma digitata',
  typeEmpty: 'Digiti prima il Suo nome.',
  adoptSignature: (m: Mark) =>
    m === 'initials' ? 'Usa queste iniziali' : m === 'stamp' ? 'Usa questo timbro' : 'Usa questa firma',
  signaturePreviewAlt: (m: Mark) =>
    m === 'initials' ? 'Le Sue iniziali' : m === 'stamp' ? 'Il Suo timbro' : 'La Sua firma',
  changeSignature: 'Modifica',
  signingPasswordMissing: 'Inserisca la Sua password di firma.',
  signingPasswordCreateLabel: 'Crei una password di firma',
  signingPasswordCreateHint: (min: number) =>
    `Questa è la Sua prima firma con un certificato di firma personale. La password crea la Sua chiave di firma e la protegge: nessuno può firmare con essa senza questa password, nemmeno il servizio. Usi almeno ${min} caratteri e la conservi al sicuro; Le servirà per ogni firma successiva.`,
  signingPasswordConfirmLabel: 'Confermi la password di firma',
  signingPasswordEnterLabel: 'Inserisca la Sua password di firma',
  signingPasswordEnterHint:
    'La password scelta la prima volta che ha firmato con il Suo certificato di firma. Sblocca la Sua chiave di firma per questa firma.',
  signingPasswordTooShort: (min: number) => `Usi almeno ${min} caratteri.`,
  signingPasswordMismatch: 'Le due password non coincidono.',
  signingPasswordWrong: (attemptsLeft: number | null) =>
    attemptsLeft === null
      ? 'La password di firma è errata.'
      : `La password di firma è errata. ${attempts(attemptsLeft)}`,
  signingPasswordLocked:
    'Troppe password di firma errate. Riprovi tra 15 minuti, oppure crei qui sotto una nuova chiave di firma.',
  signingKeyNotCertifiable:
    'Il Suo indirizzo deve essere confermato prima che si possa emettere un certificato di firma a suo nome. Apra il link di conferma che Le abbiamo inviato alla creazione dell’account, oppure firmi dal link contenuto nell’e-mail di richiesta di firma.',
  signingKeyForgot: 'Ha dimenticato la password di firma?',
  signingKeyResetIntro:
    'Le inviamo un codice via e-mail. Con questo sceglie una nuova password di firma, che crea una nuova chiave e un nuovo certificato di firma. Le firme precedenti restano valide.',
  signingKeyResetSend: 'Inviami un codice',
  signingKeyResetSending: 'Invio in corso…',
  signingKeyResetSent: 'Le abbiamo inviato un codice. È valido per 10 minuti.',
  signingKeyResetCode: 'Codice ricevuto via e-mail',
  signingKeyResetPassword: 'Nuova password di firma',
  signingKeyResetConfirm: 'Confermi la nuova password di firma',
  signingKeyResetSubmit: 'Crea una nuova chiave di firma',
  signingKeyResetDone: 'La Sua nuova chiave di firma è pronta. Inserisca la sua password qui sopra per firmare.',
  signingKeyResetCodeInvalid: 'Inserisca le 6 cifre ricevute via e-mail.',
  signedWithCertificate: 'Firmato con il Suo certificato di firma personale.',
  libraryHeading: (m: Mark) =>
    m === 'initials' ? 'Le Sue iniziali salvate' : m === 'stamp' ? 'I Suoi timbri salvati' : 'Le Sue firme salvate',
  libraryUse: (name: string) => `Usa «${name}»`,
  libraryImageAlt: (name: string) => `Salvato: ${name}`,
  librarySignIn: 'Ha un account? Acceda per usare le firme salvate',

  actionsRegion: 'Compilazione e firma',
  finishHeading: 'Conclusione',
  finishSign: 'Concludi e firma',
  finishApprove: 'Approva',
  approveCommentLabel: 'Commento per il mittente (facoltativo)',
  finishBlocked: (count: number) =>
    count === 1 ? 'Compili prima ancora 1 campo obbligatorio.' : `Compili prima ancora ${count} campi obbligatori.`,
  moreActions: 'Altre opzioni',
  decline: 'Rifiuta',
  declineHeading: 'Rifiutare la firma',
  declineReasonLabel: 'Motivo (lo leggerà il mittente)',
  declineConfirm: 'Rifiuta',
  declineReasonMissing: 'Indichi al mittente il motivo del rifiuto.',
  delegate: 'Affida a un’altra persona',
  delegateHeading: 'Affidare questo incarico a un’altra persona',
  delegateIntro: 'Riceverà una propria e-mail con un link, e il Suo link smetterà di funzionare.',
  delegateName: 'Nome della persona',
  delegateEmail: 'E-mail della persona',
  delegateConfirm: 'Affida',
  delegateNameInvalid:
    'Inserisca il nome: da 2 a 50 caratteri, lettere (un trattino o un apostrofo tra due lettere), un solo spazio tra le parole.',
  delegateEmailInvalid: 'Inserisca l’indirizzo e-mail della persona.',
  cancel: 'Annulla',
  close: 'Chiudi',

  doneSignedTitle: 'Grazie, ha firmato',
  doneApprovedTitle: 'Grazie, ha approvato',
  doneWaiting:
    'Gli altri devono ancora intervenire. Quando tutti avranno terminato, riceverà via e-mail il documento completato.',
  doneCompleted:
    'Tutti hanno terminato. Il documento è in fase di sigillatura; il download comparirà qui tra un attimo e lo riceverà anche via e-mail.',
  doneSealed: 'Tutti hanno terminato. Il documento è sigillato e pronto.',
  declinedTitle: 'Ha rifiutato',
  declinedText: 'Il mittente è stato informato, con il Suo motivo. Nessuno può più firmare questo documento.',
  delegatedTitle: 'Incarico affidato',
  delegatedText: (name: string, email: string) =>
    `${name} (${email}) riceverà un’e-mail con un proprio link. Il Suo link non funziona più.`,
  voidTitle: 'Questo documento è stato annullato',
  voidText: 'Qualcuno ha rifiutato oppure il mittente lo ha annullato. Non si può più firmare nulla.',
  notYourTurnTitle: 'Non è ancora il Suo turno',
  notYourTurnText:
    'Altre persone intervengono prima di Lei. La avviseremo via e-mail quando sarà il Suo turno; nel frattempo può leggere il documento.',
  ccTitle: 'Lei riceve una copia',
  ccText: 'Non deve fare nulla. Può leggere il documento qui.',
  alreadyFinished: 'Ha già terminato. Può leggere il documento qui.',
  downloadsHeading: 'Download',
  downloadDocument: (name: string) => `Scarica ${name} (PDF sigillato)`,
  downloadCertificate: 'Scarica il certificato di completamento',
  downloadFailed: 'Il download non è riuscito. Riprovi tra un attimo.',

  commentsHeading: 'Commenti',
  commentsEmpty: 'Ancora nessun commento.',
  commentLabel: 'Aggiungi un commento',
  commentOnField: (label: string) => `Sul campo «${label}»`,
  commentAboutField: (label: string) => `su «${label}»`,
  commentSend: 'Pubblica il commento',
  commentEmpty: 'Scriva prima un commento.',
  commentBy: (name: string, time: string) => `${name}, ${time}`,

  cscReturning: 'Ritorno al documento…',
  ssoTitle: 'Accedi',
  ssoHandedBack: 'Ha effettuato l’accesso. Questa finestra si chiude da sola; se resta aperta, la chiuda.',
  ssoReturnToApp: 'Accesso completato. Torni all’app che Le ha chiesto di accedere.',
  ssoFailed: (reason: string) => `L’accesso non è stato completato (${reason}). Torni all’app e riprovi.`,
  cscNoSession: 'Questa pagina completa una firma remota. Torni al documento che stava firmando.',

  cscHeading: 'Firma remota',
  cscIntro:
    'Il Suo servizio di firma firma con il Suo certificato: Lei conferma la firma sulla sua pagina e poi torna qui.',
  cscLoading: 'Ricerca dei Suoi certificati presso il servizio di firma…',
  cscCredentialLabel: 'Certificato',
  cscCredentialOption: (name: string, kind: string) => `${name}, ${kind}`,
  cscQualifier: {
    SES: 'firma elettronica semplice',
    AES: 'firma elettronica avanzata',
    QES: 'firma elettronica qualificata',
  },
  cscSignButton: 'Firma con il Suo servizio di firma remota',
  cscRedirecting: 'Reindirizzamento al Suo servizio di firma…',
  cscNoCredentials:
    'Il Suo servizio di firma non dispone di alcun certificato per un tipo di firma accettato da questo documento.',
  cscUnavailable: 'Il Suo servizio di firma al momento non è raggiungibile. Riprovi tra un attimo.',
  cscCompleting: 'Completamento della firma remota…',
  cscRefused: 'Il Suo servizio di firma non ha autorizzato la firma. Non è stato firmato nulla; può riprovare.',
  cscFailed: (reason: string) =>
    `Non è stato possibile completare la firma remota: ${reason} Non è stato firmato nulla; può riprovare.`,
  cscSigned: 'La Sua firma remota è stata aggiunta al documento.',

  notFoundTitle: 'Pagina non trovata',
  notFoundText: 'Apra il link di firma ricevuto via e-mail.',
};
