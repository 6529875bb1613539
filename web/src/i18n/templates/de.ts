import { FIELD_TYPE_NAMES } from '../field-types.ts';
import { plural } from '../plural.ts';
import type { Messages } from './en.ts';

const count = (n: number, one: string, other: string) =>
  plural('de', n, { one: `${n} ${one}`, other: `${n} ${other}` });
const decimal = (n: number) => n.toLocaleString('de-DE', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** An envelope's status in the list of envelopes to copy. */
const status: Record<string, string> = {
  DRAFT: 'Entwurf',
  SENT: 'versendet',
  COMPLETED: 'abgeschlossen',
  VOID: 'storniert',
  APPROVED: 'genehmigt',
};
/** A field without a label is named by its type. */
const fieldType: Record<string, string> = FIELD_TYPE_NAMES.de;

/** Das Deutsch der Vorlagen (Anrede „Sie“). */
export const de: Messages = {
  templatesText: {
    title: 'Vorlagen',
    loading: 'Wird geladen …',
    saving: 'Wird gespeichert …',
    actions: 'Aktionen',
    name: 'Name',
    description: 'Beschreibung',
    updated: 'Geändert',
    delete: 'Löschen',
    rename: 'Umbenennen',
    search: 'Suchen',
    searchTemplates: 'Vorlagen nach Namen suchen',

    foldersTitle: 'Ordner',
    foldersNav: 'Vorlagenordner',
    allTemplates: 'Alle Vorlagen',
    rootFolder: 'Ohne Ordner',
    newFolder: 'Neuer Ordner',
    newSubfolder: 'Neuer Unterordner',
    folderName: 'Ordnername',
    folderNameRule: '1 bis 50 Zeichen.',
    createFolder: 'Ordner erstellen',
    newFolderTitle: (parent: string | null) => (parent ? `Neuer Ordner in ${parent}` : 'Neuer Ordner'),
    folderCreated: (name: string) => `Ordner ${name} erstellt.`,
    renameFolderTitle: (name: string) => `Ordner ${name} umbenennen`,
    folderRenamed: (name: string) => `Ordner umbenannt in ${name}.`,
    deleteFolderTitle: (name: string) => `Ordner ${name} löschen?`,
    deleteFolderText:
      'Nur ein leerer Ordner kann gelöscht werden: Verschieben oder löschen Sie zuerst seine Vorlagen und Unterordner.',
    folderDeleted: (name: string) => `Ordner ${name} gelöscht.`,
    folderActions: (name: string) => `Ordner ${name}`,
    renameFolderOf: (name: string) => `Ordner ${name} umbenennen`,
    deleteFolderOf: (name: string) => `Ordner ${name} löschen`,
    accessOf: (name: string) => `Zugriff auf Ordner ${name}`,
    access: 'Zugriff',
    accessTitle: (name: string) => `Wer den Ordner ${name} sieht`,
    accessText:
      'Standardmäßig sieht jeder mit der Berechtigung „Vorlagen“ einen Ordner. Sie können ihn auf bestimmte Rollen beschränken: Der Eigentümer sieht ihn immer, und die Beschränkung gilt auch für seine Unterordner.',
    restrict: 'Nur Mitglieder mit den unten gewählten Rollen sehen diesen Ordner',
    rolesLegend: 'Rollen, die ihn sehen',
    noRolesYet: 'Ihre Organisation hat noch keine aktiven Rollen.',
    saveAccess: 'Zugriff speichern',
    accessSaved: (name: string) => `Zugriff auf ${name} gespeichert.`,

    newTemplate: 'Neue Vorlage',
    newFromEnvelope: 'Neue Vorlage aus einem Umschlag',
    templatesCaption: (n: number, where: string) => `${count(n, 'Vorlage', 'Vorlagen')} (${where})`,
    templatesPages: 'Seiten der Vorlagenliste',
    noTemplates: 'Hier gibt es noch keine Vorlagen. Erstellen Sie eine aus einem vorbereiteten Umschlag.',
    noTemplatesMatch: 'Keine Vorlage entspricht dieser Suche.',
    placeholders: 'Platzhalter',
    noPlaceholders: 'Keine',
    use: 'Verwenden',
    useOf: (name: string) => `${name} verwenden: einen Umschlagentwurf erstellen`,
    send: 'Senden',
    sendOf: (name: string) => `${name} senden`,
    analytics: 'Auswertung',
    analyticsOf: (name: string) => `Auswertung von ${name}`,
    renameOf: (name: string) => `${name} umbenennen`,
    move: 'Verschieben',
    moveOf: (name: string) => `${name} verschieben`,
    copy: 'Kopieren',
    copyOf: (name: string) => `${name} kopieren`,
    deleteOf: (name: string) => `${name} löschen`,
    more: 'Mehr',
    moreFor: (name: string) => ` Aktionen für ${name}`,
    using: 'Umschlag wird erstellt …',
    useFailed: 'Aus dieser Vorlage konnte kein Umschlag erstellt werden.',
    renameTitle: (name: string) => `${name} umbenennen`,
    templateName: 'Name der Vorlage',
    templateNameRule: '1 bis 50 Zeichen; darf im Ordner nur einmal vorkommen.',
    renamed: (name: string) => `Vorlage umbenannt in ${name}.`,
    moveTitle: (name: string) => `${name} verschieben`,
    moveTo: 'Ordner',
    moved: (name: string, folder: string) => `${name} nach ${folder} verschoben.`,
    copied: (name: string) => `Kopie erstellt: ${name}.`,
    deleteTitle: (name: string) => `Vorlage ${name} löschen?`,
    deleteText: 'Umschläge, die bereits daraus erstellt wurden, bleiben unverändert.',
    deleted: (name: string) => `Vorlage ${name} gelöscht.`,

    createTitle: 'Neue Vorlage aus einem Umschlag',
    createText:
      'Die Vorlage übernimmt Dokumente, Empfänger und Felder des Umschlags. Spätere Änderungen am Umschlag ändern die Vorlage nicht.',
    source: 'Zu kopierender Umschlag',
    sourceSearch: 'Umschlag nach Namen suchen',
    sourceHint:
      'Ihre eigenen Umschläge mit Dokumenten und Empfängern (keine selbst unterschriebenen, kein Power Survey).',
    sourceNone: 'Umschlag auswählen',
    sourceRequired: 'Wählen Sie den Umschlag aus, der kopiert werden soll.',
    noSources:
      'Noch keiner Ihrer Umschläge kann zur Vorlage werden: Bereiten Sie zuerst einen mit Dokumenten und Empfängern vor.',
    sourceOption: (name: string, state: string, recipients: number) =>
      `${name} (${status[state] ?? state.toLowerCase()}, ${count(recipients, 'Empfänger', 'Empfänger')})`,
    slotsLegend: 'Empfänger: Welche sind Platzhalter?',
    slotsHint:
      'Geben Sie einem Empfänger eine Bezeichnung (zum Beispiel „Kunde“), um ihn zum Platzhalter zu machen: Wer die Vorlage versendet, trägt Name und E-Mail-Adresse ein. Ohne Bezeichnung bleibt der Empfänger, wie er ist.',
    slotLabel: (order: number, name: string, role: string) => `Bezeichnung für Empfänger ${order}: ${name} (${role})`,
    folder: 'Ordner',
    reminders: 'Empfänger erinnern, die noch nicht gehandelt haben',
    reminderDays: 'Alle wie viele Tage',
    reminderDaysRule: '1 bis 30 Tage.',
    nameRequired: 'Geben Sie der Vorlage einen Namen.',
    create: 'Vorlage erstellen',
    created: (name: string) => `Vorlage ${name} erstellt.`,

    roles: { SIGNER: 'Unterzeichner', APPROVER: 'Genehmiger', CC: 'erhält eine Kopie' },

    dispatchTitle: (name: string) => `${name} senden`,
    backToTemplates: 'Zurück zu den Vorlagen',
    dispatchIntro:
      'Geben Sie an, wer den Umschlag erhält. Platzhalter müssen ausgefüllt werden; die übrigen Empfänger können Sie ändern oder übernehmen.',
    recipientLegend: (order: number, role: string, label: string | null) =>
      `Empfänger ${order}: ${role}${label ? ` (${label})` : ''}`,
    placeholder: 'Platzhalter: bitte ausfüllen',
    recipientName: 'Name',
    recipientNameRule:
      '3 bis 50 Zeichen: Buchstaben, Bindestriche oder Apostrophe zwischen Buchstaben und Leerzeichen.',
    recipientEmail: 'E-Mail',
    nameRuleError:
      'Geben Sie einen Namen mit 3 bis 50 Zeichen ein: Buchstaben, Bindestriche oder Apostrophe zwischen Buchstaben und Leerzeichen.',
    emailRuleError: 'Geben Sie eine gültige E-Mail-Adresse ein.',
    sendNow: 'Jetzt senden',
    sending: 'Wird gesendet …',
    makeDraft: 'Erst einen Entwurf zum Bearbeiten erstellen',
    sendingDisabled: 'Füllen Sie zuerst die markierten Felder aus.',

    analyticsTitle: (name: string) => `Auswertung von ${name}`,
    completionTitle: 'Abschluss',
    completionRate: (rate: string) => `${rate} der aus dieser Vorlage erstellten Umschläge sind abgeschlossen.`,
    completionSummary: (total: number) => `${count(total, 'Umschlag', 'Umschläge')} aus dieser Vorlage erstellt.`,
    countLabels: {
      completed: 'Abgeschlossen',
      inProgress: 'In Bearbeitung',
      draft: 'Entwurf',
      void: 'Storniert',
      other: 'Sonstige',
    },
    completionChart: 'Umschläge nach Status',
    timeTitle: 'Dauer bis zur Unterschrift',
    timeSummary: (n: number, avg: string, median: string, p90: string) =>
      `Bei ${count(n, 'abgeschlossenen Umschlag', 'abgeschlossenen Umschlägen')}: Durchschnitt ${avg}, Median ${median}, 90 % innerhalb von ${p90}.`,
    timeNone: 'Noch ist kein aus dieser Vorlage erstellter Umschlag abgeschlossen.',
    timeChart: 'Abgeschlossene Umschläge nach Dauer vom Versand bis zum Abschluss',
    buckets: {
      under1h: 'Unter 1 Stunde',
      under1d: '1 bis 24 Stunden',
      under3d: '1 bis 3 Tage',
      under7d: '3 bis 7 Tage',
      over7d: '7 Tage oder mehr',
    },
    hours: (h: number) =>
      h < 1 ? `${Math.round(h * 60)} Min.` : h < 48 ? `${decimal(h)} Std.` : `${decimal(h / 24)} Tage`,
    dropOffTitle: 'Abbrüche je Feld',
    dropOffSummary: (sessions: number, since: string) =>
      `${count(sessions, 'Signatursitzung', 'Signatursitzungen')} seit ${since}. Der Anteil der Unterzeichner, die ein Feld erreicht, aber leer gelassen haben.`,
    dropOffNone: 'Noch keine Signatursitzungen.',
    dropOffChart: 'Abbruchquote je Feld',
    lowSample: 'weniger als 20 Sitzungen: noch nicht aussagekräftig',
    fieldLabel: (label: string | null, type: string, page: number) =>
      `${label || fieldType[type] || type} (Seite ${page})`,
    numbered: (label: string, n: number) => label.replace(/ \(Seite/, ` ${n} (Seite`),
    showTable: 'Zahlen als Tabelle anzeigen',
    status: 'Status',
    envelopes: 'Umschläge',
    share: 'Anteil',
    time: 'Dauer bis zum Abschluss',
    field: 'Feld',
    reached: 'Erreicht',
    filled: 'Ausgefüllt',
    dropOff: 'Abbruch',
    recoveries: 'Später ausgefüllt',
    percent: (value: number) => `${Math.round(value * 100)} %`,
    chartValue: (label: string, value: string) => `${label}: ${value}`,
  },
};
