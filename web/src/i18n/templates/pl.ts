import { FIELD_TYPE_NAMES } from '../field-types.ts';
import { plural } from '../plural.ts';
import type { Messages } from './en.ts';

/** `n` with the noun in the form Polish uses for it: 1 szablon, 2 szablony, 5 szablonów. */
const count = (n: number, one: string, few: string, many: string) =>
  `${n} ${plural('pl', n, { one, few, many, other: few })}`;
const decimal = (n: number) => n.toLocaleString('pl-PL', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** An envelope's status in the list of envelopes to copy (koperta is feminine). */
const status: Record<string, string> = {
  DRAFT: 'wersja robocza',
  SENT: 'wysłana',
  COMPLETED: 'ukończona',
  VOID: 'anulowana',
  APPROVED: 'zatwierdzona',
};
/** A field without a label is named by its type. */
const fieldType: Record<string, string> = FIELD_TYPE_NAMES.pl;

/** Polski szablonów: tryb rozkazujący i formy bezosobowe; nazwy w mianowniku, po dwukropku. */
export const pl: Messages = {
  templatesText: {
    title: 'Szablony',
    loading: 'Wczytywanie…',
    saving: 'Zapisywanie…',
    actions: 'Akcje',
    name: 'Nazwa',
    description: 'Opis',
    updated: 'Zmieniono',
    delete: 'Usuń',
    rename: 'Zmień nazwę',
    search: 'Szukaj',
    searchTemplates: 'Szukaj szablonów po nazwie',

    foldersTitle: 'Foldery',
    foldersNav: 'Foldery szablonów',
    allTemplates: 'Wszystkie szablony',
    rootFolder: 'Poza folderami',
    newFolder: 'Nowy folder',
    newSubfolder: 'Nowy podfolder',
    folderName: 'Nazwa folderu',
    folderNameRule: 'Od 1 do 50 znaków.',
    createFolder: 'Utwórz folder',
    newFolderTitle: (parent: string | null) => (parent ? `Nowy folder w folderze ${parent}` : 'Nowy folder'),
    folderCreated: (name: string) => `Utworzono folder ${name}.`,
    renameFolderTitle: (name: string) => `Zmień nazwę folderu ${name}`,
    folderRenamed: (name: string) => `Nowa nazwa folderu: ${name}.`,
    deleteFolderTitle: (name: string) => `Usunąć folder ${name}?`,
    deleteFolderText: 'Usunąć można tylko pusty folder: najpierw przenieś lub usuń jego szablony i podfoldery.',
    folderDeleted: (name: string) => `Usunięto folder ${name}.`,
    folderActions: (name: string) => `Folder ${name}`,
    renameFolderOf: (name: string) => `Zmień nazwę folderu ${name}`,
    deleteFolderOf: (name: string) => `Usuń folder ${name}`,
    accessOf: (name: string) => `Dostęp do folderu ${name}`,
    access: 'Dostęp',
    accessTitle: (name: string) => `Kto widzi folder ${name}`,
    accessText:
      'Domyślnie folder widzi każdy, kto ma uprawnienie Szablony. Możesz ograniczyć go do wybranych ról: właściciel widzi go zawsze, a ograniczenie obejmuje też podfoldery.',
    restrict: 'Ten folder widzą tylko członkowie z rolami wybranymi poniżej',
    rolesLegend: 'Role, które go widzą',
    noRolesYet: 'Twoja organizacja nie ma jeszcze aktywnych ról.',
    saveAccess: 'Zapisz dostęp',
    accessSaved: (name: string) => `Zapisano dostęp do: ${name}.`,

    newTemplate: 'Nowy szablon',
    newFromEnvelope: 'Nowy szablon z koperty',
    templatesCaption: (n: number, where: string) => `${count(n, 'szablon', 'szablony', 'szablonów')} (${where})`,
    templatesPages: 'Strony listy szablonów',
    noTemplates: 'Nie ma tu jeszcze szablonów. Utwórz szablon z przygotowanej koperty.',
    noTemplatesMatch: 'Żaden szablon nie pasuje do wyszukiwania.',
    placeholders: 'Do uzupełnienia',
    noPlaceholders: 'Brak',
    use: 'Użyj',
    useOf: (name: string) => `Użyj szablonu ${name}: utwórz wersję roboczą koperty`,
    send: 'Wyślij',
    sendOf: (name: string) => `Wyślij: ${name}`,
    analytics: 'Statystyki',
    analyticsOf: (name: string) => `Statystyki: ${name}`,
    renameOf: (name: string) => `Zmień nazwę: ${name}`,
    move: 'Przenieś',
    moveOf: (name: string) => `Przenieś: ${name}`,
    copy: 'Kopiuj',
    copyOf: (name: string) => `Kopiuj: ${name}`,
    deleteOf: (name: string) => `Usuń: ${name}`,
    more: 'Więcej',
    moreFor: (name: string) => ` opcji dla szablonu ${name}`,
    using: 'Tworzenie koperty…',
    useFailed: 'Nie udało się utworzyć koperty z tego szablonu.',
    renameTitle: (name: string) => `Zmień nazwę: ${name}`,
    templateName: 'Nazwa szablonu',
    templateNameRule: 'Od 1 do 50 znaków; nie może się powtarzać w folderze.',
    renamed: (name: string) => `Nowa nazwa szablonu: ${name}.`,
    moveTitle: (name: string) => `Przenieś: ${name}`,
    moveTo: 'Folder',
    moved: (name: string, folder: string) => `Przeniesiono ${name} do folderu ${folder}.`,
    copied: (name: string) => `Utworzono kopię: ${name}.`,
    deleteTitle: (name: string) => `Usunąć szablon ${name}?`,
    deleteText: 'Koperty już z niego utworzone pozostaną bez zmian.',
    deleted: (name: string) => `Usunięto szablon ${name}.`,

    createTitle: 'Nowy szablon z koperty',
    createText:
      'Szablon kopiuje dokumenty, odbiorców i pola koperty. Późniejsze zmiany w kopercie nie zmieniają szablonu.',
    source: 'Koperta do skopiowania',
    sourceSearch: 'Znajdź kopertę po nazwie',
    sourceHint:
      'Twoje własne koperty z dokumentami i odbiorcami (bez podpisywanych tylko przez Ciebie i Power Survey).',
    sourceNone: 'Wybierz kopertę',
    sourceRequired: 'Wybierz kopertę do skopiowania.',
    noSources:
      'Żadna z Twoich kopert nie może jeszcze stać się szablonem: najpierw przygotuj kopertę z dokumentami i odbiorcami.',
    sourceOption: (name: string, state: string, recipients: number) =>
      `${name} (${status[state] ?? state.toLowerCase()}, ${count(recipients, 'odbiorca', 'odbiorcy', 'odbiorców')})`,
    slotsLegend: 'Odbiorcy: których uzupełnia osoba wysyłająca?',
    slotsHint:
      'Nadaj odbiorcy etykietę (np. „Klient”), aby był do uzupełnienia: osoba wysyłająca szablon wpisze jego imię i nazwisko oraz adres e-mail. Odbiorca bez etykiety pozostaje bez zmian.',
    slotLabel: (order: number, name: string, role: string) => `Etykieta odbiorcy ${order}: ${name} (${role})`,
    folder: 'Folder',
    reminders: 'Przypominaj odbiorcom, którzy jeszcze nie zareagowali',
    reminderDays: 'Co ile dni',
    reminderDaysRule: 'Od 1 do 30 dni.',
    nameRequired: 'Nadaj szablonowi nazwę.',
    create: 'Utwórz szablon',
    created: (name: string) => `Utworzono szablon ${name}.`,

    roles: { SIGNER: 'podpisuje', APPROVER: 'zatwierdza', CC: 'otrzymuje kopię' },

    dispatchTitle: (name: string) => `Wyślij: ${name}`,
    backToTemplates: 'Wróć do szablonów',
    dispatchIntro:
      'Wpisz, kto otrzyma kopertę. Odbiorców do uzupełnienia trzeba wypełnić; pozostałych można zmienić lub zostawić.',
    recipientLegend: (order: number, role: string, label: string | null) =>
      `Odbiorca ${order}: ${role}${label ? ` (${label})` : ''}`,
    placeholder: 'Do uzupełnienia',
    recipientName: 'Imię i nazwisko',
    recipientNameRule: 'Od 3 do 50 znaków: litery, łączniki lub apostrofy między literami oraz spacje.',
    recipientEmail: 'E-mail',
    nameRuleError:
      'Wpisz imię i nazwisko o długości od 3 do 50 znaków: litery, łączniki lub apostrofy między literami oraz spacje.',
    emailRuleError: 'Wpisz prawidłowy adres e-mail.',
    sendNow: 'Wyślij teraz',
    sending: 'Wysyłanie…',
    makeDraft: 'Najpierw utwórz wersję roboczą do edycji',
    sendingDisabled: 'Najpierw wypełnij zaznaczone pola.',

    analyticsTitle: (name: string) => `Statystyki: ${name}`,
    completionTitle: 'Ukończenie',
    completionRate: (rate: string) => `Ukończono ${rate} kopert utworzonych z tego szablonu.`,
    completionSummary: (total: number) =>
      plural('pl', total, {
        one: '1 koperta utworzona z tego szablonu.',
        few: `${total} koperty utworzone z tego szablonu.`,
        many: `${total} kopert utworzonych z tego szablonu.`,
        other: `${total} koperty utworzonej z tego szablonu.`,
      }),
    countLabels: {
      completed: 'Ukończone',
      inProgress: 'W toku',
      draft: 'Wersje robocze',
      void: 'Anulowane',
      other: 'Inne',
    },
    completionChart: 'Koperty według statusu',
    timeTitle: 'Czas do podpisania',
    timeSummary: (n: number, avg: string, median: string, p90: string) =>
      `Ukończone koperty: ${n}. Średnio ${avg}, mediana ${median}, 90% w czasie do ${p90}.`,
    timeNone: 'Żadna koperta utworzona z tego szablonu nie jest jeszcze ukończona.',
    timeChart: 'Ukończone koperty według czasu od wysłania do ukończenia',
    buckets: {
      under1h: 'Poniżej 1 godziny',
      under1d: 'Od 1 do 24 godzin',
      under3d: 'Od 1 do 3 dni',
      under7d: 'Od 3 do 7 dni',
      over7d: '7 dni lub więcej',
    },
    hours: (h: number) =>
      h < 1 ? `${Math.round(h * 60)} min` : h < 48 ? `${decimal(h)} godz.` : `${decimal(h / 24)} dnia`,
    dropOffTitle: 'Porzucanie pól',
    dropOffSummary: (sessions: number, since: string) =>
      `Sesje podpisywania od ${since}: ${sessions}. Odsetek osób podpisujących, które dotarły do pola, ale zostawiły je puste.`,
    dropOffNone: 'Nie ma jeszcze sesji podpisywania.',
    dropOffChart: 'Odsetek porzuceń według pola',
    lowSample: 'mniej niż 20 sesji: to jeszcze nie jest miarodajne',
    fieldLabel: (label: string | null, type: string, page: number) =>
      `${label || fieldType[type] || type} (strona ${page})`,
    numbered: (label: string, n: number) => label.replace(/ \(strona/, ` ${n} (strona`),
    showTable: 'Pokaż liczby w tabeli',
    status: 'Status',
    envelopes: 'Koperty',
    share: 'Udział',
    time: 'Czas do ukończenia',
    field: 'Pole',
    reached: 'Dotarło',
    filled: 'Wypełniło',
    dropOff: 'Porzucenia',
    recoveries: 'Wróciło, by wypełnić',
    percent: (value: number) => `${Math.round(value * 100)}%`,
    chartValue: (label: string, value: string) => `${label}: ${value}`,
  },
};
