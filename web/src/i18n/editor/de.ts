import { FIELD_TYPE_NAMES } from '../field-types.ts';
import { plural } from '../plural.ts';
import type { Messages } from './en.ts';

/** An envelope's status after "Er ist bereits …" (the editor is only for drafts). */
const state: Record<string, string> = {
  SENT: 'versendet',
  COMPLETED: 'abgeschlossen',
  VOID: 'storniert',
  APPROVED: 'genehmigt',
};
/** A role in the middle of a sentence: only the first letter drops to lower case (German nouns keep theirs). */
const inSentence = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
const fields = (n: number) => plural('de', n, { one: '1 Feld', other: `${n} Felder` });

/** Das Deutsch des Umschlag-Editors (Anrede „Sie“). */
export const de: Messages = {
  editorText: {
    newTitle: 'Neuer Umschlag',
    newIntro:
      'Beginnen Sie mit den Dokumenten, die unterschrieben werden sollen. Danach fügen Sie die Beteiligten hinzu und platzieren die Felder.',
    newTemplateTitle: 'Neue Vorlage',
    newTemplateIntro:
      'Beginnen Sie mit den Dokumenten. Danach fügen Sie die Empfänger hinzu (eine Bezeichnung wie „Kunde“ macht einen Empfänger zum Platzhalter, den ausfüllt, wer die Vorlage versendet), platzieren die Felder und speichern alles als Vorlage.',
    editTemplateTitle: 'Vorlage vorbereiten',
    templateHeading: 'Die Vorlage',
    templateIntro:
      'Beim Speichern werden Dokumente, Empfänger und Felder in eine neue Vorlage kopiert; dieser Entwurf wird anschließend gelöscht. Jeder Umschlag, der aus der Vorlage entsteht, beginnt als Kopie.',
    templateName: 'Name der Vorlage',
    templateNameHint: '1 bis 50 Zeichen; darf unter Ihren Vorlagen nur einmal vorkommen.',
    templateNameRequired: 'Geben Sie der Vorlage einen Namen.',
    templateDescription: 'Beschreibung (optional)',
    placeholdersLegend: 'Empfänger: Welche sind Platzhalter?',
    placeholdersHint:
      'Geben Sie einem Empfänger eine Bezeichnung (zum Beispiel „Kunde“), um ihn zum Platzhalter zu machen: Wer die Vorlage versendet, trägt Name und E-Mail-Adresse ein. Ohne Bezeichnung bleibt der Empfänger, wie er ist.',
    placeholderLabel: (order: number, name: string, role: string) =>
      `Bezeichnung für Empfänger ${order}: ${name} (${role})`,
    templateNeedsRecipient: 'Eine Vorlage braucht mindestens einen Empfänger.',
    saveTemplate: 'Als Vorlage speichern',
    savingTemplate: 'Wird gespeichert …',
    whoSigns: 'Wer unterschreibt?',
    whoOthers: 'Andere Personen (Sie können eine davon sein)',
    whoOthersHint: 'Sie versenden den Umschlag; jede Person erhält eine E-Mail mit einem Link zum Unterschreiben.',
    whoSelf: 'Nur ich',
    whoSelfHint:
      'Sie füllen das Dokument hier selbst aus, unterschreiben es und laden die unterschriebene Fassung herunter.',
    uploadedContinue: 'Mit den bereits hochgeladenen Dokumenten weitermachen',

    dropHeading: 'Dokumente',
    dropHint:
      'Legen Sie PDF- oder Word-Dateien (.pdf, .doc, .docx) mit jeweils bis zu 25 MB hier ab oder wählen Sie sie aus.',
    dropHintMore:
      'Legen Sie weitere PDF- oder Word-Dateien hier ab oder wählen Sie sie aus. Sie werden hinter den vorhandenen eingefügt.',
    dropActive: 'Zum Hochladen loslassen',
    chooseFiles: 'Dateien auswählen',
    chooseMoreFiles: 'Dokumente hinzufügen',
    uploading: (name: string, position: number, total: number) =>
      total > 1 ? `${name} wird hochgeladen (${position} von ${total})` : `${name} wird hochgeladen`,
    converting: (name: string) => `${name} wird vorbereitet …`,
    tooLarge: (name: string) => `${name} ist größer als 25 MB, die Höchstgröße für ein Dokument.`,
    uploadFailed: (name: string, reason: string) => `${name} wurde nicht hochgeladen: ${reason}`,

    editTitle: 'Umschlag vorbereiten',
    loadingEnvelope: 'Umschlag wird geladen …',
    notFoundTitle: 'Umschlag nicht gefunden',
    notFoundText: 'Unter dieser Adresse gibt es keinen Umschlagentwurf, oder er gehört nicht Ihnen.',
    backToDocuments: 'Zurück zu Ihren Dokumenten',
    notDraftTitle: 'Dieser Umschlag kann nicht mehr bearbeitet werden',
    notDraftText: (status: string) =>
      `Er ist bereits ${state[status] ?? status.toLowerCase()}: Sobald ein Umschlag versendet ist, stehen Empfänger, Felder und Dokumente fest.`,
    openEnvelope: 'Umschlag öffnen',
    loadFailed: 'Der Umschlag konnte nicht geladen werden.',
    reload: 'Neu laden',
    envelopeName: 'Name des Umschlags',
    envelopeNameHint: '1 bis 50 Zeichen. Die Empfänger sehen ihn.',
    envelopeNameShortened:
      'Dieser Name stammt aus einem Dateinamen mit mehr als 50 Zeichen und wurde an einer Wortgrenze gekürzt. Die Empfänger sehen ihn im Betreff ihrer E-Mail: Ändern Sie ihn hier, wenn Sie möchten.',
    envelopeNameInvalid: 'Geben Sie einen Namen mit 1 bis 50 Zeichen ein.',
    stepsNav: 'Schritte',
    steps: {
      prepare: 'Dokumente und Empfänger',
      fields: 'Felder',
      send: 'Prüfen und senden',
      sign: 'Ausfüllen und unterschreiben',
      template: 'Als Vorlage speichern',
    },
    stepLabel: (position: number, name: string) => `${position}. ${name}`,
    next: (name: string) => `Weiter: ${name}`,
    back: (name: string) => `Zurück: ${name}`,
    saveState: {
      saved: 'Alle Änderungen gespeichert',
      saving: 'Wird gespeichert …',
      failed: 'Einige Änderungen sind nicht gespeichert',
    },
    retrySave: 'Erneut versuchen',

    documentsHeading: 'Dokumente',
    documentPages: (pages: number) => plural('de', pages, { one: '1 Seite', other: `${pages} Seiten` }),
    documentMoveUp: (name: string) => `${name} nach oben verschieben`,
    documentMoveDown: (name: string) => `${name} nach unten verschieben`,
    documentReplace: (name: string) => `${name} ersetzen`,
    documentReplaceHint: 'Der Ersatz muss ein PDF sein, das die Seiten enthält, auf denen Felder liegen.',
    documentRemove: (name: string) => `${name} entfernen`,
    documentRemoveTitle: 'Dieses Dokument entfernen?',
    documentRemoveText: (name: string) => `${name} und die darauf platzierten Felder werden aus dem Umschlag entfernt.`,
    remove: 'Entfernen',
    cancel: 'Abbrechen',
    documentReplaced: (name: string) => `${name} wurde ersetzt.`,
    documentOrderSaved: 'Reihenfolge der Dokumente gespeichert.',

    recipientsHeading: 'Empfänger',
    sequenceLegend: 'Wer unterschreibt, und in welcher Reihenfolge',
    sequence: {
      SELF: 'Nur ich: Ich fülle selbst aus und unterschreibe',
      UNORDERED: 'Alle gleichzeitig',
      ORDERED: 'Nacheinander, in der Reihenfolge unten',
    },
    surveyNotEditable: 'Dieser Umschlag ist ein Power Survey; bearbeiten Sie ihn über die API.',
    selfOnly: (name: string, email: string) => `Nur Sie unterschreiben diesen Umschlag: ${name} (${email}).`,
    noRecipients:
      'Noch keine Empfänger. Fügen Sie die Personen hinzu, die unterschreiben, genehmigen oder eine Kopie erhalten.',
    recipientCard: (position: number, name: string) => `Empfänger ${position}: ${name}`,
    newRecipientHeading: 'Neuer Empfänger',
    name: 'Name',
    nameHint:
      'Buchstaben, Bindestriche und Apostrophe zwischen Buchstaben sowie einzelne Leerzeichen; 2 bis 50 Zeichen.',
    email: 'E-Mail',
    role: 'Rolle',
    roles: { SIGNER: 'Muss unterschreiben', APPROVER: 'Muss genehmigen', CC: 'Erhält eine Kopie' },
    colour: 'Farbe im Dokument',
    moreOptions: 'Identität, Zertifikat und Passwort',
    optionIdentity: 'Code per E-Mail',
    optionCertificate: 'digitales Zertifikat',
    optionPassword: 'Zugangspasswort',
    enforceIdentity: 'Identität mit einem per E-Mail gesendeten Code bestätigen',
    useDigitalCert: 'Unterschreibt mit einem digitalen Zertifikat (Signaturpasswort)',
    accessPassword: 'Zugangspasswort (optional)',
    accessPasswordHint:
      'Die Person muss es eingeben, bevor sie den Umschlag öffnet; teilen Sie es ihr auf einem anderen Weg als per E-Mail mit.',
    accessPasswordKeep: 'Leer lassen, um das bisherige zu behalten.',
    removeAccessPassword: 'Zugangspasswort entfernen',
    accessPasswordRemoved: 'Das Zugangspasswort ist entfernt.',
    accessPasswordSaved: 'Das Zugangspasswort ist festgelegt.',
    addRecipient: 'Empfänger hinzufügen',
    recipientAdded: (name: string) => `${name} wurde hinzugefügt.`,
    addAnother: 'Weiteren Empfänger hinzufügen',
    removeRecipient: (name: string) => `${name} entfernen`,
    removeRecipientTitle: 'Diesen Empfänger entfernen?',
    removeRecipientText: (name: string) => `${name} und die für diese Person platzierten Felder werden entfernt.`,
    moveUp: (name: string) => `${name} nach oben verschieben`,
    moveDown: (name: string) => `${name} nach unten verschieben`,
    dragToReorder: 'Ziehen, um die Reihenfolge zu ändern',
    orderNumber: (n: number) => `Unterschreibt als ${n}.`,
    orderSaved: (name: string, position: number) => `${name} ist jetzt an Position ${position}.`,
    nameRequired:
      'Geben Sie den Namen ein: Buchstaben (Bindestriche und Apostrophe zwischen Buchstaben) und einzelne Leerzeichen, 2 bis 50 Zeichen.',
    emailInvalid: 'Geben Sie eine gültige E-Mail-Adresse ein, zum Beispiel name@example.com.',
    duplicateEmail: 'Diese Person ist bereits Empfänger.',
    sameEmailWarning: (name: string, position: number, ordered: boolean) =>
      ordered
        ? `Empfänger ${position}, ${name}, hat bereits diese E-Mail-Adresse. Wenn die Empfänger nacheinander unterschreiben, darf jede E-Mail-Adresse nur einmal vorkommen.`
        : `Empfänger ${position}, ${name}, hat bereits diese E-Mail-Adresse. Dieselbe Person erhielte dann für jeden Eintrag eine eigene E-Mail und würde jeweils separat unterschreiben.`,
    sameEmailKept:
      'Um die Person trotzdem hinzuzufügen, klicken Sie erneut auf „Empfänger hinzufügen“ oder gehen Sie weiter; andernfalls ändern Sie die E-Mail-Adresse.',

    fieldsHeading: 'Felder',
    paletteHeading: 'Feld hinzufügen',
    paletteFor: 'Felder für',
    paletteHint:
      'Ziehen Sie ein Feld auf eine Seite oder klicken Sie darauf, um es auf der unter „Platzieren auf“ gewählten Seite einzufügen. Auf einem Touchscreen tippen Sie erst auf ein Feld und dann auf die Stelle der Seite, an die es gehört.',
    placingHint: (type: string, recipient: string) =>
      `Tippen Sie auf die Stelle der Seite, an die das Feld „${type}“ für ${recipient} gehört.`,
    placeAtTop: (document: string | null, page: number) =>
      document ? `Oben auf Seite ${page} von ${document} platzieren` : `Oben auf Seite ${page} platzieren`,
    placeOn: 'Platzieren auf',
    placeOnPage: (document: string | null, page: number) => (document ? `${document}, Seite ${page}` : `Seite ${page}`),
    noSigners:
      'Fügen Sie zuerst einen Empfänger hinzu, der unterschreibt oder genehmigt: Jedes Feld gehört zu einem Empfänger.',
    goToRecipients: 'Zu den Empfängern',
    fieldTypes: FIELD_TYPE_NAMES.de,
    fieldName: (type: string, recipient: string, label: string | null) =>
      `${label ? `${label} (${type})` : type} für ${recipient}`,
    fieldNameOnPage: (name: string, page: number, required: boolean) =>
      `${name}, Seite ${page}${required ? ', Pflichtfeld' : ''}`,
    unassigned: '(niemand)',
    keysHeading: 'Tastatur',
    keys: [
      'Mit der Tabulatortaste wählen Sie ein Feld auf der Seite aus.',
      'Die Pfeiltasten verschieben es um 1 pt, mit Umschalt um 10 pt.',
      'Alt oder Strg mit einer Pfeiltaste ändert seine Größe, mit Umschalt um 10 pt.',
      'Die Eingabetaste öffnet seine Eigenschaften, Entf löscht es.',
    ],
    moved: (name: string, x: number, y: number, width: number, height: number) =>
      `${name}: bei ${x}, ${y}; ${width} × ${height} pt`,
    fieldAdded: (name: string, page: number) => `${name} auf Seite ${page} hinzugefügt.`,
    fieldRemoved: (name: string) => `${name} entfernt.`,
    pageGroup: (document: string | null, page: number, pages: number) =>
      document ? `${document}, Seite ${page} von ${pages}` : `Seite ${page} von ${pages}`,
    pageLoading: 'Seite wird geladen …',
    pageFailed: 'Diese Seite kann nicht angezeigt werden.',
    documentHeading: (name: string, position: number, total: number) =>
      total > 1 ? `${name} (Dokument ${position} von ${total})` : name,
    noFieldSelected:
      'Wählen Sie ein Feld auf einer Seite aus oder fügen Sie eines hinzu, um seine Eigenschaften zu ändern.',
    propertiesHeading: 'Eigenschaften',
    propertiesOf: (name: string) => `Eigenschaften von ${name}`,
    fieldType: 'Typ',
    fieldRecipient: 'Ausgefüllt von',
    fieldRequired: 'Pflichtfeld',
    fieldRequiredAlways: 'Unterschriften und Initialen sind immer Pflichtfelder.',
    fieldLabel: 'Bezeichnung',
    fieldLabelHint: 'Wonach der Unterzeichner gefragt wird, z. B. „Firmenname“.',
    noteText: 'Hinweistext',
    noteHint: 'Wird dem Unterzeichner im Dokument angezeigt; niemand füllt ihn aus.',
    placeholder: 'Platzhaltertext',
    options: 'Auswahlmöglichkeiten, eine pro Zeile',
    optionsInvalid: 'Geben Sie 1 bis 100 Auswahlmöglichkeiten an, keine davon leer.',
    dateLang: 'Datumsformat',
    dateExample: (example: string) => `Wird angezeigt als: ${example}`,
    dateLanguages: {
      en: 'Englisch (March 14, 2026)',
      'en-GB': 'Englisch, Vereinigtes Königreich (14 March 2026)',
      de: 'Deutsch',
      fr: 'Französisch',
      es: 'Spanisch',
      it: 'Italienisch',
      nl: 'Niederländisch',
      pt: 'Portugiesisch',
      ja: 'Japanisch',
    },
    styleHeading: 'Textformat',
    fontFamily: 'Schriftart',
    fontFamilies: {
      Helvetica: 'Serifenlos (Helvetica)',
      'Times-Roman': 'Mit Serifen (Times)',
      Courier: 'Festbreite (Courier)',
    },
    fontSize: 'Schriftgröße (pt)',
    fontSizeInvalid: 'Geben Sie eine Größe von 4 bis 72 pt ein.',
    bold: 'Fett',
    italic: 'Kursiv',
    underline: 'Unterstrichen',
    strikethrough: 'Durchgestrichen',
    textAlign: 'Ausrichtung',
    aligns: { left: 'Links', center: 'Zentriert', right: 'Rechts' },
    textColor: 'Textfarbe',
    backgroundColor: 'Hintergrundfarbe',
    noBackground: 'Kein Hintergrund',
    useAsLabel: 'Bezeichnung im Feld anzeigen',
    positionHeading: 'Position und Größe (pt)',
    page: 'Seite',
    x: 'Von links',
    y: 'Von oben',
    width: 'Breite',
    height: 'Höhe',
    numberInvalid: 'Geben Sie eine Zahl ein, bei der das Feld auf der Seite bleibt.',
    deleteField: 'Feld löschen',
    notSaved: (reason: string) => `Nicht gespeichert: ${reason}`,

    remindersHeading: 'Erinnerungen',
    remindersEnabled: 'Empfänger, die noch nicht gehandelt haben, per E-Mail erinnern',
    reminderWhen: 'Wann',
    reminderDays: 'Alle paar Tage, sobald sie an der Reihe sind',
    reminderMinutes: 'Einige Minuten nach Erhalt des Umschlags',
    intervalDays: 'Tage (1 bis 30)',
    offsetMinutes: 'Minuten (1 bis 1439)',
    intervalInvalid: 'Geben Sie eine ganze Zahl von 1 bis 30 Tagen ein.',
    offsetInvalid: 'Geben Sie eine ganze Zahl von 1 bis 1439 Minuten ein.',

    summaryHeading: 'Wer ihn erhält',
    summaryLine: (name: string, email: string, role: string, count: number) =>
      `${name} (${email}), ${inSentence(role)}: ${fields(count)}`,
    orderedNote: 'Sie erhalten ihn nacheinander, in dieser Reihenfolge.',
    unorderedNote: 'Alle erhalten ihn gleichzeitig.',
    noSignatureField: (name: string) =>
      `${name} hat noch kein Unterschrifts- oder Initialenfeld: Die Person würde nur ihre Felder ausfüllen, ohne zu unterschreiben. Platzieren Sie eines im Schritt „Felder“.`,
    noActionRecipient: 'Fügen Sie mindestens einen Empfänger hinzu, der unterschreibt oder genehmigt.',
    mailHeading: 'Die E-Mail an die Empfänger',
    subject: 'Betreff der E-Mail',
    subjectHint: 'Höchstens 200 Zeichen. Leer: der Name des Umschlags.',
    message: 'Nachricht an die Empfänger (optional)',
    messageHint: 'Wird in der E-Mail zitiert und auf der Signaturseite angezeigt. Höchstens 5000 Zeichen.',
    send: 'Senden',
    sending: 'Wird gesendet …',
    sendFailed: 'Der Umschlag wurde nicht gesendet.',

    signIntro:
      'Füllen Sie Ihre Felder aus. Mit Ihrer Unterschrift wird das Dokument versiegelt und der Umschlag abgeschlossen.',
    noOwnFields: 'Platzieren Sie zuerst im Schritt „Felder“ mindestens ein Unterschriftsfeld für sich selbst.',
    disclosureHeading: 'Hinweis zur elektronischen Signatur',
    disclosureAgree:
      'Mit Ihrer Unterschrift stimmen Sie dem obigen Hinweis zu. Dies wird zusammen mit Ihrer Unterschrift gespeichert.',
    signAndComplete: 'Unterschreiben und abschließen',
    signing: 'Wird unterschrieben …',
    signFailed: 'Das Dokument wurde nicht unterschrieben.',
    fixFields: (count: number) =>
      plural('de', count, { one: 'Bitte prüfen Sie 1 Feld.', other: `Bitte prüfen Sie ${count} Felder.` }),
    yourFields: 'Ihre Felder',
  },
};
