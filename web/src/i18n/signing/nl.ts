import { PRODUCT_NAME } from '../../shared/product.ts';
import type { Mark, Messages } from './en.ts';

const uw: Record<Mark, string> = { signature: 'uw handtekening', initials: 'uw initialen', stamp: 'uw stempel' };
const attempts = (n: number) => `Nog ${n} ${n === 1 ? 'poging' : 'pogingen'}.`;

/** Het Nederlands van de ondertekenpagina (u-vorm). */
export const nl: Messages = {
  appName: PRODUCT_NAME,
  loading: 'Laden…',
  opening: 'Uw document wordt geopend…',
  skipToDocument: 'Naar het document',

  linkExpiredTitle: 'Deze link werkt niet meer',
  linkExpiredText:
    'De ondertekenlink is verlopen, of de taak is aan iemand anders overgedragen. Links kunnen niet worden verlengd.',
  linkExpiredWhatToDo:
    'Vraag de afzender het document opnieuw te sturen. Hebt u de taak aan iemand anders overgedragen, dan heeft die persoon een eigen link ontvangen.',
  linkVoidedText:
    'De afzender heeft deze envelop geannuleerd; er valt niets meer te ondertekenen. De reden hebt u per e-mail ontvangen.',
  genericErrorTitle: 'Er is iets misgegaan',
  genericErrorText: 'Het document kon niet worden geladen. Controleer uw verbinding en laad de pagina opnieuw.',
  reload: 'Opnieuw laden',
  requestReference: (id: string) => `Referentie voor de helpdesk: ${id}`,

  from: (name: string) => `Van ${name}`,
  messageFromSender: 'Bericht van de afzender',
  brandLogoAlt: (organization: string) => `Logo van ${organization}`,
  involvedHeading: 'Wie doet er mee',
  involvedOrdered: 'Iedereen is in deze volgorde aan de beurt.',
  involvedUnordered: 'Iedereen kan tegelijk aan de slag.',
  you: 'u',
  role: { SIGNER: 'Ondertekent', APPROVER: 'Keurt goed', CC: 'Ontvangt een kopie' },
  recipientStatus: {
    PENDING: 'Wacht op de beurt',
    SENT: 'Uitgenodigd',
    VIEWED: 'Heeft het document geopend',
    SIGNED: 'Ondertekend',
    APPROVED: 'Goedgekeurd',
    DECLINED: 'Geweigerd',
    SKIPPED: 'Heeft een kopie ontvangen',
    DELEGATED: 'Heeft de taak overgedragen',
  },

  consentHeading: 'Voordat u begint',
  consentIntro: 'Lees deze verklaring. Ze wordt samen met uw handtekening vastgelegd.',
  consentAgree: 'Ik ga akkoord, verder',
  consentDecline: 'Ik ga niet akkoord (weigeren)',

  passwordHeading: 'Dit document is beveiligd',
  passwordIntro:
    'De afzender heeft dit document met een wachtwoord beveiligd. Dat wachtwoord hoort u apart te hebben ontvangen.',
  passwordLabel: 'Wachtwoord',
  passwordSubmit: 'Document openen',
  passwordWrong: 'Dat wachtwoord klopt niet. Controleer het en probeer het opnieuw.',
  passwordLocked: 'Te veel onjuiste wachtwoorden. Wacht even voordat u het opnieuw probeert.',

  otpHeading: 'Bevestig dat u het bent',
  otpIntro: (email: string) =>
    `De afzender heeft ons gevraagd uw identiteit te controleren. We e-mailen een code van 6 cijfers naar ${email}.`,
  otpSend: 'Code e-mailen',
  otpSent: (time: string) => `We hebben u een code gemaild. Die is geldig tot ${time}.`,
  otpLabel: 'Code uit de e-mail',
  otpHint: '6 cijfers',
  otpVerify: 'Code bevestigen',
  otpResend: 'Nieuwe code sturen',
  otpResendIn: (seconds: number) => `U kunt over ${seconds} s een nieuwe code aanvragen.`,
  otpWrong: (attemptsLeft: number) =>
    attemptsLeft > 0
      ? `Die code klopt niet. ${attempts(attemptsLeft)}`
      : 'Die code is niet meer geldig. Vraag een nieuwe code aan.',
  otpFormat: 'Vul de 6 cijfers uit de e-mail in.',
  otpTooSoon: (seconds: number) => `Wacht ${seconds} s voordat u een nieuwe code aanvraagt.`,
  otpVerified: 'Dank u, uw identiteit is bevestigd.',

  documentsHeading: 'Document',
  documentOf: (name: string, index: number, total: number) =>
    total > 1 ? `${name} (document ${index} van ${total})` : name,
  pageOf: (page: number, total: number) => `Pagina ${page} van ${total}`,
  zoomOut: 'Uitzoomen',
  zoomIn: 'Inzoomen',
  zoomFit: 'Passend in breedte',
  zoomLevel: (percent: number) => `Zoom ${percent}%`,
  pageLoading: 'Pagina laden…',
  pageFailed: 'Deze pagina kan niet worden weergegeven.',

  fieldType: {
    SIGNATURE: 'Handtekening',
    INITIALS: 'Initialen',
    TEXT: 'Tekst',
    TEXTAREA: 'Tekst',
    NUMBER: 'Getal',
    EMAIL: 'E-mail',
    DATE: 'Datum',
    CHECKBOX: 'Selectievakje',
    DROPDOWN: 'Keuze',
    NAME: 'Naam',
    NOTE: 'Opmerking',
    IMAGE: 'Afbeelding',
    STAMP: 'Stempel',
    DIGITAL_SIGNATURE: 'Digitale handtekening',
  },
  required: 'verplicht',
  optional: 'optioneel',
  filled: 'ingevuld',
  empty: 'leeg',
  fieldButton: (label: string, required: boolean, filled: boolean) =>
    `${label}, ${required ? 'verplicht' : 'optioneel'}, ${filled ? 'ingevuld' : 'leeg'}`,
  progress: (done: number, total: number) => `${done} van ${total} verplichte velden ingevuld`,
  nextField: 'Volgend veld',
  previousField: 'Vorig veld',
  skipField: 'Dit veld overslaan',
  startFilling: 'Naar het eerste veld',
  today: 'Vandaag',
  reviewFields: 'Uw velden nakijken',
  allRequiredDone: 'Alle verplichte velden zijn ingevuld.',
  fieldPanelHeading: (label: string, position: number, total: number) => `${label} (veld ${position} van ${total})`,
  closeField: 'Sluiten',
  noFieldsForYou: 'Er is niets voor u om in te vullen.',
  saved: 'Opgeslagen',
  saving: 'Opslaan…',
  savedLocally: 'Op dit apparaat bewaard tot u klaar bent',
  saveFailed: 'Opslaan is niet gelukt. Uw invoer blijft op dit apparaat bewaard en wordt opgeslagen als u afrondt.',
  applyValue: 'Opslaan en verder',
  clearValue: 'Wissen',
  notePrefix: 'Opmerking van de afzender',
  checkboxLabel: (label: string) => label,
  choosePlaceholder: 'Kies…',
  dateShownAs: (text: string) => `Staat op het document als: ${text}`,
  invalidNumber: 'Vul een getal in, bijvoorbeeld 42 of 3.5 (met een punt, geen komma).',
  invalidEmail: 'Vul een e-mailadres in, bijvoorbeeld naam@example.com.',
  invalidDate: 'Vul een datum in.',
  tooLong: (max: number) => `Gebruik maximaal ${max} tekens.`,
  requiredMissing: 'Dit veld is verplicht.',
  imageChoose: 'Afbeelding kiezen',
  imageTooLarge:
    'Deze afbeelding is te groot. Gebruik een afbeelding kleiner dan 2 MB en maximaal 8000 pixels per zijde.',
  imageUnreadable: 'Dit bestand kon niet als afbeelding worden gelezen.',
  imagePreviewAlt: 'Gekozen afbeelding',
  stampFromFile: 'Een stempel is een afbeelding van uw bedrijfsstempel. Kies het afbeeldingsbestand.',

  signatureHow: 'Hoe wilt u ondertekenen?',
  signatureDraw: 'Tekenen',
  signatureType: 'Typen',
  drawAreaLabel: (m: Mark) => `Tekenvlak voor ${uw[m]}. Teken met een muis, een pen of uw vinger.`,
  drawHint: 'Teken binnen het kader. Geen muis of touchscreen? Kies dan Typen.',
  drawEmpty: 'Teken eerst uw handtekening, of kies Typen.',
  typeLabel: (m: Mark) => `Typ ${uw[m]}`,
  typePreviewAlt: (m: Mark) => `Voorbeeld van ${uw[m]}, getypt`,
  typeEmpty: 'Typ eerst uw naam.',
  adoptSignature: (m: Mark) =>
    m === 'initials'
      ? 'Deze initialen gebruiken'
      : m === 'stamp'
        ? 'Deze stempel gebruiken'
        : 'Deze handtekening gebruiken',
  signaturePreviewAlt: (m: Mark) => uw[m].replace(/^u/, 'U'),
  changeSignature: 'Wijzigen',
  signingPasswordMissing: 'Vul uw ondertekeningswachtwoord in.',
  signingPasswordCreateLabel: 'Maak een ondertekeningswachtwoord',
  signingPasswordCreateHint: (min: number) =>
    `Dit is uw eerste handtekening met een persoonlijk ondertekeningscertificaat. Het wachtwoord maakt uw ondertekeningssleutel aan en beschermt die: niemand kan er zonder dit wachtwoord mee ondertekenen, ook de dienst niet. Gebruik minstens ${min} tekens en bewaar het goed; u hebt het nodig voor elke volgende handtekening.`,
  signingPasswordConfirmLabel: 'Bevestig het ondertekeningswachtwoord',
  signingPasswordEnterLabel: 'Vul uw ondertekeningswachtwoord in',
  signingPasswordEnterHint:
    'Het wachtwoord dat u koos toen u voor het eerst met uw ondertekeningscertificaat ondertekende. Het ontgrendelt uw ondertekeningssleutel voor deze handtekening.',
  signingPasswordTooShort: (min: number) => `Gebruik minstens ${min} tekens.`,
  signingPasswordMismatch: 'De twee wachtwoorden zijn niet gelijk.',
  signingPasswordWrong: (attemptsLeft: number | null) =>
    attemptsLeft === null
      ? 'Het ondertekeningswachtwoord is onjuist.'
      : `Het ondertekeningswachtwoord is onjuist. ${attempts(attemptsLeft)}`,
  signingPasswordLocked:
    'Te veel onjuiste ondertekeningswachtwoorden. Probeer het over 15 minuten opnieuw, of maak hieronder een nieuwe ondertekeningssleutel.',
  signingKeyNotCertifiable:
    'Uw adres moet bevestigd zijn voordat er een ondertekeningscertificaat voor kan worden gemaakt. Open de bevestigingslink die we u mailden toen u uw account aanmaakte, of onderteken via de link in de e-mail met het ondertekenverzoek.',
  signingKeyForgot: 'Ondertekeningswachtwoord vergeten?',
  signingKeyResetIntro:
    'We mailen een code naar uw adres. Daarmee kiest u een nieuw ondertekeningswachtwoord; dat maakt een nieuwe ondertekeningssleutel en een nieuw certificaat aan. Uw eerdere handtekeningen blijven geldig.',
  signingKeyResetSend: 'Code mailen',
  signingKeyResetSending: 'Versturen…',
  signingKeyResetSent: 'We hebben u een code gemaild. Die is 10 minuten geldig.',
  signingKeyResetCode: 'Code uit de e-mail',
  signingKeyResetPassword: 'Nieuw ondertekeningswachtwoord',
  signingKeyResetConfirm: 'Bevestig het nieuwe ondertekeningswachtwoord',
  signingKeyResetSubmit: 'Nieuwe ondertekeningssleutel maken',
  signingKeyResetDone: 'Uw nieuwe ondertekeningssleutel is klaar. Vul hierboven het wachtwoord in om te ondertekenen.',
  signingKeyResetCodeInvalid: 'Vul de 6 cijfers uit de e-mail in.',
  signedWithCertificate: 'Ondertekend met uw persoonlijke ondertekeningscertificaat.',
  libraryHeading: (m: Mark) =>
    m === 'initials'
      ? 'Uw opgeslagen initialen'
      : m === 'stamp'
        ? 'Uw opgeslagen stempels'
        : 'Uw opgeslagen handtekeningen',
  libraryUse: (name: string) => `‘${name}’ gebruiken`,
  libraryImageAlt: (name: string) => `Opgeslagen: ${name}`,
  librarySignIn: 'Hebt u een account? Log in om uw opgeslagen handtekeningen te gebruiken',

  actionsRegion: 'Invullen en ondertekenen',
  finishHeading: 'Afronden',
  finishSign: 'Afronden en ondertekenen',
  finishApprove: 'Goedkeuren',
  approveCommentLabel: 'Opmerking voor de afzender (optioneel)',
  finishBlocked: (count: number) =>
    count === 1 ? 'Vul eerst nog 1 verplicht veld in.' : `Vul eerst nog ${count} verplichte velden in.`,
  moreActions: 'Andere opties',
  decline: 'Weigeren',
  declineHeading: 'Ondertekenen weigeren',
  declineReasonLabel: 'Reden (de afzender leest die)',
  declineConfirm: 'Weigeren',
  declineReasonMissing: 'Laat de afzender weten waarom u weigert.',
  delegate: 'Aan iemand anders vragen',
  delegateHeading: 'Deze taak aan iemand anders overdragen',
  delegateIntro: 'Die persoon krijgt een eigen e-mail met een link, en uw link werkt dan niet meer.',
  delegateName: 'Naam van die persoon',
  delegateEmail: 'E-mailadres van die persoon',
  delegateConfirm: 'Overdragen',
  delegateNameInvalid:
    'Vul de naam in: 2 tot 50 tekens, letters (een koppelteken of apostrof tussen twee letters), één spatie tussen woorden.',
  delegateEmailInvalid: 'Vul het e-mailadres van die persoon in.',
  cancel: 'Annuleren',
  close: 'Sluiten',

  doneSignedTitle: 'Dank u, u hebt ondertekend',
  doneApprovedTitle: 'Dank u, u hebt goedgekeurd',
  doneWaiting:
    'De anderen moeten nog aan de beurt komen. Als iedereen klaar is, ontvangt u het voltooide document per e-mail.',
  doneCompleted:
    'Iedereen is klaar. Het document wordt verzegeld; de download verschijnt hier zo meteen, en u ontvangt het ook per e-mail.',
  doneSealed: 'Iedereen is klaar. Het document is verzegeld en klaar.',
  declinedTitle: 'U hebt geweigerd',
  declinedText: 'De afzender is op de hoogte gebracht, met uw reden. Niemand kan dit document nog ondertekenen.',
  delegatedTitle: 'Taak overgedragen',
  delegatedText: (name: string, email: string) =>
    `${name} (${email}) krijgt een e-mail met een eigen link. Uw link werkt niet meer.`,
  voidTitle: 'Dit document is geannuleerd',
  voidText: 'Iemand heeft geweigerd of de afzender heeft het geannuleerd. Er kan niets meer worden ondertekend.',
  notYourTurnTitle: 'U bent nog niet aan de beurt',
  notYourTurnText:
    'Anderen zijn eerst aan de beurt. We mailen u zodra het uw beurt is; tot die tijd kunt u het document lezen.',
  ccTitle: 'U ontvangt een kopie',
  ccText: 'U hoeft niets te doen. U kunt het document hier lezen.',
  alreadyFinished: 'U bent al klaar. U kunt het document hier lezen.',
  downloadsHeading: 'Downloaden',
  downloadDocument: (name: string) => `${name} downloaden (verzegelde pdf)`,
  downloadCertificate: 'Het voltooiingscertificaat downloaden',
  downloadFailed: 'Het downloaden is mislukt. Probeer het zo meteen opnieuw.',

  commentsHeading: 'Opmerkingen',
  commentsEmpty: 'Nog geen opmerkingen.',
  commentLabel: 'Opmerking toevoegen',
  commentOnField: (label: string) => `Over het veld ‘${label}’`,
  commentAboutField: (label: string) => `over ‘${label}’`,
  commentSend: 'Opmerking plaatsen',
  commentEmpty: 'Schrijf eerst een opmerking.',
  commentBy: (name: string, time: string) => `${name}, ${time}`,

  cscReturning: 'Terug naar uw document…',
  ssoTitle: 'Inloggen',
  ssoHandedBack: 'U bent ingelogd. Dit venster sluit vanzelf; blijft het open, sluit het dan zelf.',
  ssoReturnToApp: 'Inloggen voltooid. Ga terug naar de app die u vroeg in te loggen.',
  ssoFailed: (reason: string) =>
    `Het inloggen is niet voltooid (${reason}). Ga terug naar de app en probeer het opnieuw.`,
  cscNoSession:
    'Deze pagina rondt een handtekening op afstand af. Ga terug naar het document dat u aan het ondertekenen was.',

  cscHeading: 'Ondertekenen op afstand',
  cscIntro:
    'Uw ondertekendienst ondertekent met uw eigen certificaat: u bevestigt de handtekening op de pagina van die dienst en komt daarna hier terug.',
  cscLoading: 'Uw certificaten worden opgezocht bij uw ondertekendienst…',
  cscCredentialLabel: 'Certificaat',
  cscCredentialOption: (name: string, kind: string) => `${name}, ${kind}`,
  cscQualifier: {
    SES: 'gewone elektronische handtekening',
    AES: 'geavanceerde elektronische handtekening',
    QES: 'gekwalificeerde elektronische handtekening',
  },
  cscSignButton: 'Ondertekenen bij uw aanbieder voor ondertekenen op afstand',
  cscRedirecting: 'U gaat naar uw ondertekendienst…',
  cscNoCredentials:
    'Uw ondertekendienst heeft geen certificaat voor een soort handtekening die dit document accepteert.',
  cscUnavailable: 'Uw ondertekendienst is nu niet bereikbaar. Probeer het zo meteen opnieuw.',
  cscCompleting: 'Uw handtekening op afstand wordt afgerond…',
  cscRefused:
    'Uw ondertekendienst heeft de handtekening niet toegestaan. Er is niets ondertekend; u kunt het opnieuw proberen.',
  cscFailed: (reason: string) =>
    `De handtekening op afstand kon niet worden afgerond: ${reason} Er is niets ondertekend; u kunt het opnieuw proberen.`,
  cscSigned: 'Uw handtekening op afstand is aan het document toegevoegd.',

  notFoundTitle: 'Pagina niet gevonden',
  notFoundText: 'Open de ondertekenlink uit uw e-mail.',
};
