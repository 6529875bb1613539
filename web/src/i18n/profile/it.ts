import { plural } from '../plural.ts';
import type { Messages } from './en.ts';

const kinds = { SIGNATURE: 'Firme', INITIALS: 'Iniziali', STAMP: 'Timbri' };
const kindOne = { SIGNATURE: 'Firma', INITIALS: 'Iniziali', STAMP: 'Timbro' };
type Kind = keyof typeof kindOne;
/** The screens pass a kind's name (`kinds[kind]` or `kindOne[kind]`); agreement needs the kind itself. */
const kindOf = (names: Record<Kind, string>, name: string): Kind =>
  (Object.keys(names) as Kind[]).find((kind) => names[kind] === name) ?? 'SIGNATURE';
const none: Record<Kind, string> = {
  SIGNATURE: 'Ancora nessuna firma salvata.',
  INITIALS: 'Ancora nessuna iniziale salvata.',
  STAMP: 'Ancora nessun timbro salvato.',
};
const sua: Record<Kind, string> = { SIGNATURE: 'la Sua firma', INITIALS: 'le Sue iniziali', STAMP: 'il Suo timbro' };
const saved: Record<Kind, string> = { SIGNATURE: 'salvata', INITIALS: 'salvate', STAMP: 'salvato' };

/** L’italiano del profilo (forma di cortesia, Lei). */
export const it: Messages = {
  profileText: {
    title: 'Profilo',
    loading: 'Caricamento…',
    sectionsNav: 'Sezioni del profilo',
    sectionTitles: { account: 'Account', security: 'Accesso e sicurezza', signatures: 'Firme' },
    unknownSection: 'Il Suo profilo non ha questa sezione.',
    saving: 'Salvataggio…',
    cancel: 'Annulla',
    delete: 'Elimina',

    accountTitle: 'Il Suo account',
    name: 'Nome',
    email: 'E-mail',
    accountReadOnly: 'Nome ed e-mail sono quelli del Suo account; il servizio non consente ancora di modificarli qui.',
    passwordNote: 'Il servizio non consente ancora di cambiare la password.',
    languageTitle: 'Lingua',
    locale: 'Lingua preferita',
    localeHint:
      'Le e-mail che i destinatari ricevono per le buste che Lei invia sono scritte in questa lingua (se le e-mail non esistono in questa lingua, come per Svenska, vale l’impostazione del proprietario della Sua organizzazione, altrimenti l’inglese). Le pagine stesse, l’area di lavoro come le pagine di firma e di accesso, seguono la lingua scelta nel menu Lingua.',
    locales: {
      en: 'English',
      'en-GB': 'English (United Kingdom)',
      de: 'Deutsch',
      fr: 'Français',
      es: 'Español',
      it: 'Italiano',
      nl: 'Nederlands',
      'pt-BR': 'Português (Brasil)',
      pl: 'Polski',
      sv: 'Svenska',
    },
    saveLocale: 'Salva la lingua',
    localeSaved: (name: string) => `Lingua preferita salvata: ${name}.`,
    notificationsTitle: 'Notifiche via e-mail',
    notificationsLegend: 'Inviami un’e-mail quando',
    notificationsHint:
      'Le richieste di firma, i codici monouso e le e-mail di sicurezza e di invito vengono sempre inviati.',
    notifications: {
      workflowCompleted: 'una busta che ho inviato è completata',
      workflowDeclined: 'un destinatario rifiuta una busta che ho inviato',
      workflowDelegated: 'un destinatario affida il proprio compito a un’altra persona',
      workflowVoided: 'una busta a cui partecipo viene annullata',
      commentAdded: 'qualcuno commenta una busta a cui partecipo',
      documentOpened: 'un destinatario apre una busta che ho inviato',
    },
    saveNotifications: 'Salva le notifiche',
    notificationsSaved: 'Impostazioni delle notifiche salvate.',

    twoFactorTitle: 'Accesso a due fattori',
    twoFactorOn:
      'Attivo: quando accede con la password, Le viene chiesto anche un codice della Sua app di autenticazione.',
    twoFactorOff: 'Disattivato: per accedere basta la password.',
    twoFactorStart: 'Configura l’accesso a due fattori',
    twoFactorStarting: 'Preparazione…',
    twoFactorScan:
      'Scansioni questo codice QR con la Sua app di autenticazione (ad esempio Google Authenticator, Microsoft Authenticator, 1Password).',
    qrAlt: 'Codice QR per la Sua app di autenticazione',
    manualKey: 'Oppure inserisca questa chiave nell’app',
    code: 'Codice dell’app',
    codeHint: '6 cifre; uno nuovo ogni 30 secondi.',
    codeRule: 'Inserisca le 6 cifre mostrate dall’app.',
    twoFactorConfirm: 'Attiva l’accesso a due fattori',
    twoFactorCancel: 'Annulla la configurazione',
    twoFactorEnabled:
      'L’accesso a due fattori è attivo. Al prossimo accesso tenga a portata di mano la Sua app di autenticazione.',
    twoFactorDisableTitle: 'Disattiva l’accesso a due fattori',
    twoFactorDisableText: 'Inserisca la password e un codice attuale dell’app.',
    password: 'Password',
    passwordRequired: 'Inserisca la password.',
    twoFactorDisable: 'Disattiva l’accesso a due fattori',
    twoFactorDisabled: 'L’accesso a due fattori è disattivato.',

    passkeysTitle: 'Passkey',
    passkeysIntro:
      'Una passkey Le permette di accedere con il blocco schermo di questo dispositivo o con una chiave di sicurezza, senza password.',
    passkeysUnsupported: 'Questo browser non può creare passkey.',
    passkeyName: 'Nome della nuova passkey',
    passkeyNameHint: 'Ad esempio «Portatile dell’ufficio», per distinguere le Sue passkey.',
    addPasskey: 'Aggiungi una passkey',
    addingPasskey: 'In attesa del dispositivo…',
    passkeyAdded: (name: string) => `Passkey «${name}» aggiunta.`,
    passkeyCancelled: 'La passkey non è stata creata: la richiesta è stata annullata o è scaduta.',
    passkeyFailed: 'Questo dispositivo non è riuscito a creare una passkey.',
    passkeysCaption: (n: number) => plural('it', n, { one: '1 passkey', other: `${n} passkey` }),
    noPasskeys: 'Ancora nessuna passkey.',
    added: 'Aggiunta',
    lastUsed: 'Ultimo utilizzo',
    never: 'Mai',
    synced: 'Sincronizzata',
    syncedYes: 'Sì, con backup',
    syncedNo: 'No, solo su questo dispositivo',
    actions: 'Azioni',
    deletePasskeyOf: (name: string) => `Elimina la passkey ${name}`,
    deletePasskeyTitle: (name: string) => `Eliminare la passkey «${name}»?`,
    deletePasskeyText:
      'Non potrà più usarla per accedere. La passkey potrebbe restare sul dispositivo; la rimuova anche da lì.',
    passkeyDeleted: (name: string) => `Passkey «${name}» eliminata.`,

    libraryTitle: 'Raccolta di firme',
    libraryIntro:
      'Firme, iniziali e timbri salvati da applicare quando firma. Per ogni tipo viene proposto per primo quello predefinito.',
    kinds,
    kindOne,
    noEntries: (kind: string) => none[kindOf(kinds, kind)],
    defaultBadge: 'Predefinito',
    entryAlt: (kind: string, name: string) => `${kind} «${name}»`,
    captureModes: { DRAW: 'Disegnato', TYPE: 'Digitato', UPLOAD: 'Caricato' },
    makeDefault: 'Imposta come predefinito',
    makeDefaultOf: (name: string) => `Imposta «${name}» come predefinito`,
    deleteEntryOf: (name: string) => `Elimina «${name}»`,
    deleteEntryTitle: (name: string) => `Eliminare «${name}»?`,
    deleteEntryText: 'I documenti che ha già firmato con questo elemento restano invariati.',
    entryDeleted: (name: string) => `«${name}» eliminato.`,
    defaultSet: (name: string) => `«${name}» è ora quello predefinito.`,
    addTitle: 'Aggiungi alla raccolta',
    kind: 'Tipo',
    entryName: 'Nome',
    entryNameHint: 'Come lo chiama Lei. Se lo digita, è anche il testo scritto.',
    entryNameRequired: 'Gli dia un nome.',
    typedTooLong: 'Una firma digitata ha al massimo 50 caratteri.',
    how: 'Come',
    draw: 'Disegna',
    type: 'Digita',
    upload: 'Carica un’immagine',
    drawLabel: (kind: string) =>
      `Area di disegno per ${sua[kindOf(kindOne, kind)]}: disegni con il mouse, una penna o il dito`,
    drawHint: 'Disegni con il mouse, una penna o il dito. Non riesce a disegnare? Scelga Digita.',
    clear: 'Cancella il disegno',
    drawEmpty: 'Disegni prima qualcosa, oppure scelga Digita.',
    font: 'Carattere',
    fonts: {
      DANCING_SCRIPT: 'Corsivo a mano (Dancing Script)',
      LIBERATION_SANS: 'Semplice (Liberation Sans)',
      LIBERATION_SANS_ITALIC: 'Corsivo (Liberation Sans)',
    },
    typedPreview: 'Anteprima',
    image: 'File immagine',
    imageHint: 'PNG o JPEG, al massimo 1 MB.',
    imageRequired: 'Scelga un’immagine.',
    imageType: 'Scelga un’immagine PNG o JPEG.',
    imageSize: 'L’immagine supera 1 MB.',
    imageUnreadable: 'Non è stato possibile leggere questa immagine.',
    imagePreviewAlt: 'L’immagine scelta',
    uploadStampOnly: 'Il caricamento di un’immagine è riservato ai timbri.',
    save: 'Salva nella raccolta',
    entryAdded: (kind: string, name: string) => `${kind} «${name}» ${saved[kindOf(kindOne, kind)]}.`,
  },
};
