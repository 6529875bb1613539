import { plural } from '../plural.ts';
import type { Messages } from './en.ts';

const kinds = { SIGNATURE: 'Podpisy', INITIALS: 'Inicjały', STAMP: 'Pieczątki' };
const kindOne = { SIGNATURE: 'Podpis', INITIALS: 'Inicjały', STAMP: 'Pieczątka' };
type Kind = keyof typeof kindOne;
/** The screens pass a kind's name (`kinds[kind]` or `kindOne[kind]`); the cases need the kind itself. */
const kindOf = (names: Record<Kind, string>, name: string): Kind =>
  (Object.keys(names) as Kind[]).find((kind) => names[kind] === name) ?? 'SIGNATURE';
/** The kind in the genitive ("pole do rysowania podpisu", "nie zapisano żadnych podpisów"). */
const genitive: Record<Kind, string> = { SIGNATURE: 'podpisu', INITIALS: 'inicjałów', STAMP: 'pieczątki' };
const genitivePlural: Record<Kind, string> = { SIGNATURE: 'podpisów', INITIALS: 'inicjałów', STAMP: 'pieczątek' };

/** Polski profilu: tryb rozkazujący, jak w polskich interfejsach, i formy bezosobowe zamiast rodzaju. */
export const pl: Messages = {
  profileText: {
    title: 'Profil',
    loading: 'Wczytywanie…',
    sectionsNav: 'Sekcje profilu',
    sectionTitles: { account: 'Konto', security: 'Logowanie i bezpieczeństwo', signatures: 'Podpisy' },
    unknownSection: 'W Twoim profilu nie ma takiej sekcji.',
    saving: 'Zapisywanie…',
    cancel: 'Anuluj',
    delete: 'Usuń',

    accountTitle: 'Twoje konto',
    name: 'Imię i nazwisko',
    email: 'E-mail',
    accountReadOnly:
      'Imię i nazwisko oraz adres e-mail pochodzą z Twojego konta; usługa nie pozwala jeszcze zmienić ich tutaj.',
    passwordNote: 'Usługa nie pozwala jeszcze zmienić hasła.',
    languageTitle: 'Język',
    locale: 'Preferowany język',
    localeHint:
      'W tym języku są pisane e-maile, które odbiorcy dostają w sprawie wysyłanych przez Ciebie kopert (jeśli e-maili nie ma w tym języku, jak w przypadku Svenska, obowiązuje ustawienie właściciela Twojej organizacji, a w razie jego braku angielski). Same strony, zarówno obszar roboczy, jak i strony podpisywania i logowania, są wyświetlane w języku wybranym w menu Język.',
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
    saveLocale: 'Zapisz język',
    localeSaved: (name: string) => `Zapisano preferowany język: ${name}.`,
    notificationsTitle: 'Powiadomienia e-mail',
    notificationsLegend: 'Wyślij mi e-mail, gdy',
    notificationsHint:
      'Prośby o podpis, kody jednorazowe oraz wiadomości o bezpieczeństwie i zaproszenia są wysyłane zawsze.',
    notifications: {
      workflowCompleted: 'wysłana przeze mnie koperta zostanie ukończona',
      workflowDeclined: 'odbiorca odrzuci wysłaną przeze mnie kopertę',
      workflowDelegated: 'odbiorca przekaże swoje zadanie innej osobie',
      workflowVoided: 'koperta, w której uczestniczę, zostanie anulowana',
      commentAdded: 'ktoś skomentuje kopertę, w której uczestniczę',
      documentOpened: 'odbiorca otworzy wysłaną przeze mnie kopertę',
    },
    saveNotifications: 'Zapisz powiadomienia',
    notificationsSaved: 'Zapisano ustawienia powiadomień.',

    twoFactorTitle: 'Logowanie dwuskładnikowe',
    twoFactorOn: 'Włączone: przy logowaniu hasłem potrzebny jest też kod z aplikacji uwierzytelniającej.',
    twoFactorOff: 'Wyłączone: do zalogowania wystarczy hasło.',
    twoFactorStart: 'Skonfiguruj logowanie dwuskładnikowe',
    twoFactorStarting: 'Przygotowywanie…',
    twoFactorScan:
      'Zeskanuj ten kod QR aplikacją uwierzytelniającą (np. Google Authenticator, Microsoft Authenticator, 1Password).',
    qrAlt: 'Kod QR dla aplikacji uwierzytelniającej',
    manualKey: 'Albo wpisz ten klucz w aplikacji',
    code: 'Kod z aplikacji',
    codeHint: '6 cyfr; nowy kod co 30 sekund.',
    codeRule: 'Wpisz 6 cyfr widocznych w aplikacji.',
    twoFactorConfirm: 'Włącz logowanie dwuskładnikowe',
    twoFactorCancel: 'Anuluj konfigurację',
    twoFactorEnabled:
      'Logowanie dwuskładnikowe jest włączone. Przy następnym logowaniu miej pod ręką aplikację uwierzytelniającą.',
    twoFactorDisableTitle: 'Wyłącz logowanie dwuskładnikowe',
    twoFactorDisableText: 'Wpisz hasło i aktualny kod z aplikacji.',
    password: 'Hasło',
    passwordRequired: 'Wpisz hasło.',
    twoFactorDisable: 'Wyłącz logowanie dwuskładnikowe',
    twoFactorDisabled: 'Logowanie dwuskładnikowe jest wyłączone.',

    passkeysTitle: 'Klucze dostępu',
    passkeysIntro:
      'Klucz dostępu pozwala logować się blokadą ekranu tego urządzenia lub kluczem bezpieczeństwa, bez hasła.',
    passkeysUnsupported: 'Ta przeglądarka nie może tworzyć kluczy dostępu.',
    passkeyName: 'Nazwa nowego klucza dostępu',
    passkeyNameHint: 'Na przykład „Laptop służbowy”, aby odróżnić od siebie klucze dostępu.',
    addPasskey: 'Dodaj klucz dostępu',
    addingPasskey: 'Oczekiwanie na urządzenie…',
    passkeyAdded: (name: string) => `Dodano klucz dostępu „${name}”.`,
    passkeyCancelled: 'Nie utworzono klucza dostępu: żądanie zostało anulowane lub wygasło.',
    passkeyFailed: 'To urządzenie nie mogło utworzyć klucza dostępu.',
    passkeysCaption: (n: number) =>
      plural('pl', n, {
        one: '1 klucz dostępu',
        few: `${n} klucze dostępu`,
        many: `${n} kluczy dostępu`,
        other: `${n} klucza dostępu`,
      }),
    noPasskeys: 'Nie ma jeszcze kluczy dostępu.',
    added: 'Dodano',
    lastUsed: 'Ostatnie użycie',
    never: 'Nigdy',
    synced: 'Synchronizacja',
    syncedYes: 'Tak, z kopią zapasową',
    syncedNo: 'Nie, tylko na tym urządzeniu',
    actions: 'Akcje',
    deletePasskeyOf: (name: string) => `Usuń klucz dostępu ${name}`,
    deletePasskeyTitle: (name: string) => `Usunąć klucz dostępu „${name}”?`,
    deletePasskeyText:
      'Nie będzie już można się nim zalogować. Klucz może pozostać na urządzeniu; usuń go również tam.',
    passkeyDeleted: (name: string) => `Usunięto klucz dostępu „${name}”.`,

    libraryTitle: 'Biblioteka podpisów',
    libraryIntro:
      'Zapisane podpisy, inicjały i pieczątki, których możesz użyć przy podpisywaniu. Domyślny element każdego rodzaju jest proponowany jako pierwszy.',
    kinds,
    kindOne,
    noEntries: (kind: string) => `Nie zapisano jeszcze żadnych ${genitivePlural[kindOf(kinds, kind)]}.`,
    defaultBadge: 'Domyślne',
    entryAlt: (kind: string, name: string) => `${kind} „${name}”`,
    captureModes: { DRAW: 'Narysowano', TYPE: 'Wpisano', UPLOAD: 'Przesłano' },
    makeDefault: 'Ustaw jako domyślne',
    makeDefaultOf: (name: string) => `Ustaw „${name}” jako domyślne`,
    deleteEntryOf: (name: string) => `Usuń „${name}”`,
    deleteEntryTitle: (name: string) => `Usunąć „${name}”?`,
    deleteEntryText: 'Dokumenty już nim podpisane pozostaną bez zmian.',
    entryDeleted: (name: string) => `Usunięto „${name}”.`,
    defaultSet: (name: string) => `Ustawiono „${name}” jako domyślne.`,
    addTitle: 'Dodaj do biblioteki',
    kind: 'Rodzaj',
    entryName: 'Nazwa',
    entryNameHint: 'Jak go nazywasz. Przy wpisywaniu to także tekst, który zostanie napisany.',
    entryNameRequired: 'Nadaj nazwę.',
    typedTooLong: 'Wpisany podpis może mieć najwyżej 50 znaków.',
    how: 'Sposób',
    draw: 'Narysuj',
    type: 'Wpisz',
    upload: 'Prześlij obraz',
    drawLabel: (kind: string) =>
      `Pole do rysowania ${genitive[kindOf(kindOne, kind)]}: rysuj myszą, rysikiem lub palcem`,
    drawHint: 'Rysuj myszą, rysikiem lub palcem. Nie możesz rysować? Wybierz Wpisz.',
    clear: 'Wyczyść rysunek',
    drawEmpty: 'Najpierw coś narysuj albo wybierz Wpisz.',
    font: 'Czcionka',
    fonts: {
      DANCING_SCRIPT: 'Odręczna (Dancing Script)',
      LIBERATION_SANS: 'Prosta (Liberation Sans)',
      LIBERATION_SANS_ITALIC: 'Kursywa (Liberation Sans)',
    },
    typedPreview: 'Podgląd',
    image: 'Plik obrazu',
    imageHint: 'PNG lub JPEG, najwyżej 1 MB.',
    imageRequired: 'Wybierz obraz.',
    imageType: 'Wybierz obraz PNG lub JPEG.',
    imageSize: 'Obraz jest większy niż 1 MB.',
    imageUnreadable: 'Nie udało się odczytać tego obrazu.',
    imagePreviewAlt: 'Wybrany obraz',
    uploadStampOnly: 'Przesłać obraz można tylko jako pieczątkę.',
    save: 'Zapisz w bibliotece',
    entryAdded: (kind: string, name: string) => `Zapisano: ${kind.toLowerCase()} „${name}”.`,
  },
};
