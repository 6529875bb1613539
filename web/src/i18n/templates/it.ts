import { FIELD_TYPE_NAMES } from '../field-types.ts';
import { plural } from '../plural.ts';
import type { Messages } from './en.ts';

const count = (n: number, one: string, other: string) =>
  plural('it', n, { one: `${n} ${one}`, other: `${n} ${other}` });
const decimal = (n: number) => n.toLocaleString('it-IT', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** An envelope's status in the list of envelopes to copy (busta is feminine). */
const status: Record<string, string> = {
  DRAFT: 'bozza',
  SENT: 'inviata',
  COMPLETED: 'completata',
  VOID: 'annullata',
  APPROVED: 'approvata',
};
/** A field without a label is named by its type. */
const fieldType: Record<string, string> = FIELD_TYPE_NAMES.it;

/** L’italiano dei modelli (forma di cortesia, Lei). */
export const it: Messages = {
  templatesText: {
    title: 'Modelli',
    loading: 'Caricamento…',
    saving: 'Salvataggio…',
    actions: 'Azioni',
    name: 'Nome',
    description: 'Descrizione',
    updated: 'Modificato',
    delete: 'Elimina',
    rename: 'Rinomina',
    search: 'Cerca',
    searchTemplates: 'Cerca modelli per nome',

    foldersTitle: 'Cartelle',
    foldersNav: 'Cartelle dei modelli',
    allTemplates: 'Tutti i modelli',
    rootFolder: 'Senza cartella',
    newFolder: 'Nuova cartella',
    newSubfolder: 'Nuova sottocartella',
    folderName: 'Nome della cartella',
    folderNameRule: 'Da 1 a 50 caratteri.',
    createFolder: 'Crea cartella',
    newFolderTitle: (parent: string | null) => (parent ? `Nuova cartella in ${parent}` : 'Nuova cartella'),
    folderCreated: (name: string) => `Cartella ${name} creata.`,
    renameFolderTitle: (name: string) => `Rinomina la cartella ${name}`,
    folderRenamed: (name: string) => `Cartella rinominata in ${name}.`,
    deleteFolderTitle: (name: string) => `Eliminare la cartella ${name}?`,
    deleteFolderText:
      'Si può eliminare solo una cartella vuota: sposti o elimini prima i suoi modelli e le sue sottocartelle.',
    folderDeleted: (name: string) => `Cartella ${name} eliminata.`,
    folderActions: (name: string) => `Cartella ${name}`,
    renameFolderOf: (name: string) => `Rinomina la cartella ${name}`,
    deleteFolderOf: (name: string) => `Elimina la cartella ${name}`,
    accessOf: (name: string) => `Accesso alla cartella ${name}`,
    access: 'Accesso',
    accessTitle: (name: string) => `Chi vede la cartella ${name}`,
    accessText:
      'Per impostazione predefinita, una cartella è visibile a chiunque abbia l’autorizzazione Modelli. Può limitarla ad alcuni ruoli: il proprietario la vede sempre e la limitazione vale anche per le sottocartelle.',
    restrict: 'Solo i membri con i ruoli scelti qui sotto vedono questa cartella',
    rolesLegend: 'Ruoli che la vedono',
    noRolesYet: 'La Sua organizzazione non ha ancora ruoli attivi.',
    saveAccess: 'Salva l’accesso',
    accessSaved: (name: string) => `Accesso a ${name} salvato.`,

    newTemplate: 'Nuovo modello',
    newFromEnvelope: 'Nuovo modello da una busta',
    templatesCaption: (n: number, where: string) => `${count(n, 'modello', 'modelli')} (${where})`,
    templatesPages: 'Pagine dei modelli',
    noTemplates: 'Qui non ci sono ancora modelli. Ne crei uno da una busta che ha preparato.',
    noTemplatesMatch: 'Nessun modello corrisponde a questa ricerca.',
    placeholders: 'Segnaposto',
    noPlaceholders: 'Nessuno',
    use: 'Usa',
    useOf: (name: string) => `Usa ${name}: crea una bozza di busta`,
    send: 'Invia',
    sendOf: (name: string) => `Invia ${name}`,
    analytics: 'Statistiche',
    analyticsOf: (name: string) => `Statistiche di ${name}`,
    renameOf: (name: string) => `Rinomina ${name}`,
    move: 'Sposta',
    moveOf: (name: string) => `Sposta ${name}`,
    copy: 'Copia',
    copyOf: (name: string) => `Copia ${name}`,
    deleteOf: (name: string) => `Elimina ${name}`,
    more: 'Altro',
    moreFor: (name: string) => `: altre azioni per ${name}`,
    using: 'Creazione della busta…',
    useFailed: 'Non è stato possibile creare la busta da questo modello.',
    renameTitle: (name: string) => `Rinomina ${name}`,
    templateName: 'Nome del modello',
    templateNameRule: 'Da 1 a 50 caratteri; deve essere unico nella sua cartella.',
    renamed: (name: string) => `Modello rinominato in ${name}.`,
    moveTitle: (name: string) => `Sposta ${name}`,
    moveTo: 'Cartella',
    moved: (name: string, folder: string) => `${name} spostato in ${folder}.`,
    copied: (name: string) => `Copia creata: ${name}.`,
    deleteTitle: (name: string) => `Eliminare il modello ${name}?`,
    deleteText: 'Le buste già create da questo modello restano invariate.',
    deleted: (name: string) => `Modello ${name} eliminato.`,

    createTitle: 'Nuovo modello da una busta',
    createText:
      'Il modello copia documenti, destinatari e campi della busta. Le modifiche successive alla busta non cambiano il modello.',
    source: 'Busta da copiare',
    sourceSearch: 'Cerca una busta per nome',
    sourceHint: 'Le Sue buste con documenti e destinatari (non quelle firmate solo da Lei né i Power Survey).',
    sourceNone: 'Scelga una busta',
    sourceRequired: 'Scelga la busta da copiare.',
    noSources:
      'Nessuna delle Sue buste può ancora diventare un modello: ne prepari prima una con documenti e destinatari.',
    sourceOption: (name: string, state: string, recipients: number) =>
      `${name} (${status[state] ?? state.toLowerCase()}, ${count(recipients, 'destinatario', 'destinatari')})`,
    slotsLegend: 'Destinatari: quali sono segnaposto?',
    slotsHint:
      'Dia un’etichetta a un destinatario (ad esempio «Cliente») per renderlo un segnaposto: chi invia il modello ne inserisce nome ed e-mail. Senza etichetta il destinatario resta invariato.',
    slotLabel: (order: number, name: string, role: string) => `Etichetta del destinatario ${order}: ${name} (${role})`,
    folder: 'Cartella',
    reminders: 'Invia promemoria ai destinatari che non hanno ancora agito',
    reminderDays: 'Ogni quanti giorni',
    reminderDaysRule: 'Da 1 a 30 giorni.',
    nameRequired: 'Dia un nome al modello.',
    create: 'Crea modello',
    created: (name: string) => `Modello ${name} creato.`,

    roles: { SIGNER: 'firmatario', APPROVER: 'approvatore', CC: 'riceve una copia' },

    dispatchTitle: (name: string) => `Invia ${name}`,
    backToTemplates: 'Torna ai modelli',
    dispatchIntro:
      'Indichi chi riceve la busta. I segnaposto vanno compilati; gli altri destinatari si possono modificare o lasciare come sono.',
    recipientLegend: (order: number, role: string, label: string | null) =>
      `Destinatario ${order}: ${role}${label ? ` (${label})` : ''}`,
    placeholder: 'Segnaposto: da compilare',
    recipientName: 'Nome',
    recipientNameRule: 'Da 3 a 50 caratteri: lettere, trattini o apostrofi tra lettere, e spazi.',
    recipientEmail: 'E-mail',
    nameRuleError: 'Inserisca un nome da 3 a 50 caratteri: lettere, trattini o apostrofi tra lettere, e spazi.',
    emailRuleError: 'Inserisca un indirizzo e-mail valido.',
    sendNow: 'Invia ora',
    sending: 'Invio…',
    makeDraft: 'Crea prima una bozza da modificare',
    sendingDisabled: 'Compili prima i campi evidenziati.',

    analyticsTitle: (name: string) => `Statistiche di ${name}`,
    completionTitle: 'Completamento',
    completionRate: (rate: string) => `Il ${rate} delle buste create da questo modello è completato.`,
    completionSummary: (total: number) =>
      plural('it', total, {
        one: '1 busta creata da questo modello.',
        other: `${total} buste create da questo modello.`,
      }),
    countLabels: {
      completed: 'Completate',
      inProgress: 'In corso',
      draft: 'Bozze',
      void: 'Annullate',
      other: 'Altro',
    },
    completionChart: 'Buste per stato',
    timeTitle: 'Tempo di firma',
    timeSummary: (n: number, avg: string, median: string, p90: string) =>
      `Su ${count(n, 'busta completata', 'buste completate')}: media ${avg}, mediana ${median}, il 90% entro ${p90}.`,
    timeNone: 'Nessuna busta creata da questo modello è ancora completata.',
    timeChart: 'Buste completate per tempo dall’invio al completamento',
    buckets: {
      under1h: 'Meno di 1 ora',
      under1d: 'Da 1 a 24 ore',
      under3d: 'Da 1 a 3 giorni',
      under7d: 'Da 3 a 7 giorni',
      over7d: '7 giorni o più',
    },
    hours: (h: number) =>
      h < 1 ? `${Math.round(h * 60)} min` : h < 48 ? `${decimal(h)} h` : `${decimal(h / 24)} giorni`,
    dropOffTitle: 'Abbandono per campo',
    dropOffSummary: (sessions: number, since: string) =>
      `${count(sessions, 'sessione di firma', 'sessioni di firma')} dal ${since}. La quota di firmatari che hanno raggiunto un campo ma l’hanno lasciato vuoto.`,
    dropOffNone: 'Ancora nessuna sessione di firma.',
    dropOffChart: 'Tasso di abbandono per campo',
    lowSample: 'meno di 20 sessioni: non ancora significativo',
    fieldLabel: (label: string | null, type: string, page: number) =>
      `${label || fieldType[type] || type} (pagina ${page})`,
    numbered: (label: string, n: number) => label.replace(/ \(pagina/, ` ${n} (pagina`),
    showTable: 'Mostra i numeri in una tabella',
    status: 'Stato',
    envelopes: 'Buste',
    share: 'Quota',
    time: 'Tempo di completamento',
    field: 'Campo',
    reached: 'Raggiunto',
    filled: 'Compilato',
    dropOff: 'Abbandono',
    recoveries: 'Tornati a compilare',
    percent: (value: number) => `${Math.round(value * 100)}%`,
    chartValue: (label: string, value: string) => `${label}: ${value}`,
  },
};
