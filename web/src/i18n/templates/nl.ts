import { FIELD_TYPE_NAMES } from '../field-types.ts';
import { plural } from '../plural.ts';
import type { Messages } from './en.ts';

const count = (n: number, one: string, other: string) =>
  plural('nl', n, { one: `${n} ${one}`, other: `${n} ${other}` });
const decimal = (n: number) => n.toLocaleString('nl-NL', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** An envelope's status in the list of envelopes to copy. */
const status: Record<string, string> = {
  DRAFT: 'concept',
  SENT: 'verzonden',
  COMPLETED: 'voltooid',
  VOID: 'geannuleerd',
  APPROVED: 'goedgekeurd',
};
/** A field without a label is named by its type. */
const fieldType: Record<string, string> = FIELD_TYPE_NAMES.nl;

/** Het Nederlands van de sjablonen (u-vorm). */
export const nl: Messages = {
  templatesText: {
    title: 'Sjablonen',
    loading: 'Laden…',
    saving: 'Opslaan…',
    actions: 'Acties',
    name: 'Naam',
    description: 'Beschrijving',
    updated: 'Gewijzigd',
    delete: 'Verwijderen',
    rename: 'Naam wijzigen',
    search: 'Zoeken',
    searchTemplates: 'Sjablonen zoeken op naam',

    foldersTitle: 'Mappen',
    foldersNav: 'Sjabloonmappen',
    allTemplates: 'Alle sjablonen',
    rootFolder: 'Niet in een map',
    newFolder: 'Nieuwe map',
    newSubfolder: 'Nieuwe submap',
    folderName: 'Mapnaam',
    folderNameRule: '1 tot 50 tekens.',
    createFolder: 'Map maken',
    newFolderTitle: (parent: string | null) => (parent ? `Nieuwe map in ${parent}` : 'Nieuwe map'),
    folderCreated: (name: string) => `Map ${name} gemaakt.`,
    renameFolderTitle: (name: string) => `Naam van map ${name} wijzigen`,
    folderRenamed: (name: string) => `Map hernoemd naar ${name}.`,
    deleteFolderTitle: (name: string) => `Map ${name} verwijderen?`,
    deleteFolderText:
      'Alleen een lege map kan worden verwijderd: verplaats of verwijder eerst de sjablonen en submappen erin.',
    folderDeleted: (name: string) => `Map ${name} verwijderd.`,
    folderActions: (name: string) => `Map ${name}`,
    renameFolderOf: (name: string) => `Naam van map ${name} wijzigen`,
    deleteFolderOf: (name: string) => `Map ${name} verwijderen`,
    accessOf: (name: string) => `Toegang tot map ${name}`,
    access: 'Toegang',
    accessTitle: (name: string) => `Wie de map ${name} ziet`,
    accessText:
      'Standaard ziet iedereen met het recht Sjablonen een map. U kunt dit beperken tot bepaalde rollen: de eigenaar ziet de map altijd, en de beperking geldt ook voor de submappen.',
    restrict: 'Alleen leden met de rollen die hieronder zijn gekozen, zien deze map',
    rolesLegend: 'Rollen die de map zien',
    noRolesYet: 'Uw organisatie heeft nog geen actieve rollen.',
    saveAccess: 'Toegang opslaan',
    accessSaved: (name: string) => `Toegang tot ${name} opgeslagen.`,

    newTemplate: 'Nieuw sjabloon',
    newFromEnvelope: 'Nieuw sjabloon van een envelop',
    templatesCaption: (n: number, where: string) => `${count(n, 'sjabloon', 'sjablonen')} (${where})`,
    templatesPages: 'Pagina’s met sjablonen',
    noTemplates: 'Hier zijn nog geen sjablonen. Maak er een van een envelop die u hebt voorbereid.',
    noTemplatesMatch: 'Geen sjabloon komt overeen met deze zoekopdracht.',
    placeholders: 'Plaatshouders',
    noPlaceholders: 'Geen',
    use: 'Gebruiken',
    useOf: (name: string) => `${name} gebruiken: een conceptenvelop maken`,
    send: 'Verzenden',
    sendOf: (name: string) => `${name} verzenden`,
    analytics: 'Statistieken',
    analyticsOf: (name: string) => `Statistieken van ${name}`,
    renameOf: (name: string) => `Naam van ${name} wijzigen`,
    move: 'Verplaatsen',
    moveOf: (name: string) => `${name} verplaatsen`,
    copy: 'Kopiëren',
    copyOf: (name: string) => `${name} kopiëren`,
    deleteOf: (name: string) => `${name} verwijderen`,
    more: 'Meer',
    moreFor: (name: string) => ` acties voor ${name}`,
    using: 'Envelop wordt gemaakt…',
    useFailed: 'Van dit sjabloon kon geen envelop worden gemaakt.',
    renameTitle: (name: string) => `Naam van ${name} wijzigen`,
    templateName: 'Naam van het sjabloon',
    templateNameRule: '1 tot 50 tekens; uniek binnen de map.',
    renamed: (name: string) => `Sjabloon hernoemd naar ${name}.`,
    moveTitle: (name: string) => `${name} verplaatsen`,
    moveTo: 'Map',
    moved: (name: string, folder: string) => `${name} verplaatst naar ${folder}.`,
    copied: (name: string) => `Kopie gemaakt: ${name}.`,
    deleteTitle: (name: string) => `Sjabloon ${name} verwijderen?`,
    deleteText: 'Enveloppen die er al van zijn gemaakt, blijven zoals ze zijn.',
    deleted: (name: string) => `Sjabloon ${name} verwijderd.`,

    createTitle: 'Nieuw sjabloon van een envelop',
    createText:
      'Het sjabloon neemt de documenten, ontvangers en velden van de envelop over. Latere wijzigingen in de envelop veranderen het sjabloon niet.',
    source: 'Envelop om te kopiëren',
    sourceSearch: 'Een envelop zoeken op naam',
    sourceHint:
      'Uw eigen enveloppen met documenten en ontvangers (geen enveloppen die u alleen zelf ondertekent, geen Power Survey).',
    sourceNone: 'Kies een envelop',
    sourceRequired: 'Kies de envelop die u wilt kopiëren.',
    noSources:
      'Nog geen van uw enveloppen kan een sjabloon worden: bereid er eerst een voor met documenten en ontvangers.',
    sourceOption: (name: string, state: string, recipients: number) =>
      `${name} (${status[state] ?? state.toLowerCase()}, ${count(recipients, 'ontvanger', 'ontvangers')})`,
    slotsLegend: 'Ontvangers: welke zijn plaatshouders?',
    slotsHint:
      'Geef een ontvanger een label (bijvoorbeeld ‘Klant’) om er een plaatshouder van te maken: wie het sjabloon verstuurt, vult de naam en het e-mailadres in. Zonder label blijft de ontvanger zoals hij is.',
    slotLabel: (order: number, name: string, role: string) => `Label voor ontvanger ${order}: ${name} (${role})`,
    folder: 'Map',
    reminders: 'Ontvangers herinneren die nog niets hebben gedaan',
    reminderDays: 'Om de hoeveel dagen',
    reminderDaysRule: '1 tot 30 dagen.',
    nameRequired: 'Geef het sjabloon een naam.',
    create: 'Sjabloon maken',
    created: (name: string) => `Sjabloon ${name} gemaakt.`,

    roles: { SIGNER: 'ondertekenaar', APPROVER: 'goedkeurder', CC: 'ontvangt een kopie' },

    dispatchTitle: (name: string) => `${name} verzenden`,
    backToTemplates: 'Terug naar de sjablonen',
    dispatchIntro:
      'Vul in wie de envelop ontvangt. Plaatshouders moeten worden ingevuld; de andere ontvangers kunt u wijzigen of laten staan.',
    recipientLegend: (order: number, role: string, label: string | null) =>
      `Ontvanger ${order}: ${role}${label ? ` (${label})` : ''}`,
    placeholder: 'Plaatshouder: invullen',
    recipientName: 'Naam',
    recipientNameRule: '3 tot 50 tekens: letters, koppeltekens of apostrofs tussen letters, en spaties.',
    recipientEmail: 'E-mail',
    nameRuleError:
      'Vul een naam van 3 tot 50 tekens in: letters, koppeltekens of apostrofs tussen letters, en spaties.',
    emailRuleError: 'Vul een geldig e-mailadres in.',
    sendNow: 'Nu verzenden',
    sending: 'Verzenden…',
    makeDraft: 'Eerst een concept maken om te bewerken',
    sendingDisabled: 'Vul eerst de gemarkeerde velden in.',

    analyticsTitle: (name: string) => `Statistieken van ${name}`,
    completionTitle: 'Voltooiing',
    completionRate: (rate: string) => `${rate} van de enveloppen die van dit sjabloon zijn gemaakt, is voltooid.`,
    completionSummary: (total: number) =>
      plural('nl', total, {
        one: '1 envelop gemaakt van dit sjabloon.',
        other: `${total} enveloppen gemaakt van dit sjabloon.`,
      }),
    countLabels: {
      completed: 'Voltooid',
      inProgress: 'Bezig',
      draft: 'Concept',
      void: 'Geannuleerd',
      other: 'Overig',
    },
    completionChart: 'Enveloppen per status',
    timeTitle: 'Tijd tot ondertekening',
    timeSummary: (n: number, avg: string, median: string, p90: string) =>
      `Over ${count(n, 'voltooide envelop', 'voltooide enveloppen')}: gemiddeld ${avg}, mediaan ${median}, 90% binnen ${p90}.`,
    timeNone: 'Nog geen envelop van dit sjabloon is voltooid.',
    timeChart: 'Voltooide enveloppen naar tijd tussen verzenden en voltooien',
    buckets: {
      under1h: 'Minder dan 1 uur',
      under1d: '1 tot 24 uur',
      under3d: '1 tot 3 dagen',
      under7d: '3 tot 7 dagen',
      over7d: '7 dagen of meer',
    },
    hours: (h: number) =>
      h < 1 ? `${Math.round(h * 60)} min` : h < 48 ? `${decimal(h)} uur` : `${decimal(h / 24)} dagen`,
    dropOffTitle: 'Afhaken per veld',
    dropOffSummary: (sessions: number, since: string) =>
      `${count(sessions, 'ondertekensessie', 'ondertekensessies')} sinds ${since}. Het aandeel ondertekenaars dat een veld bereikte maar het leeg liet.`,
    dropOffNone: 'Nog geen ondertekensessies.',
    dropOffChart: 'Afhaakpercentage per veld',
    lowSample: 'minder dan 20 sessies: nog niet betekenisvol',
    fieldLabel: (label: string | null, type: string, page: number) =>
      `${label || fieldType[type] || type} (pagina ${page})`,
    numbered: (label: string, n: number) => label.replace(/ \(pagina/, ` ${n} (pagina`),
    showTable: 'De cijfers als tabel tonen',
    status: 'Status',
    envelopes: 'Enveloppen',
    share: 'Aandeel',
    time: 'Tijd tot voltooiing',
    field: 'Veld',
    reached: 'Bereikt',
    filled: 'Ingevuld',
    dropOff: 'Afgehaakt',
    recoveries: 'Later toch ingevuld',
    percent: (value: number) => `${Math.round(value * 100)}%`,
    chartValue: (label: string, value: string) => `${label}: ${value}`,
  },
};
