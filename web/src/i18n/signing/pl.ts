import { PRODUCT_NAME } from '../../shared/product.ts';
import { plural } from '../plural.ts';
import type { Mark, Messages } from './en.ts';

/**
 * Polski strony podpisywania: tryb rozkazujący, jak w polskich interfejsach ("Wpisz kod"), i formy bezosobowe
 * tam, gdzie czas przeszły zdradzałby płeć ("Dokument został podpisany" zamiast "Podpisałeś").
 */
const attempts = (n: number) =>
  plural('pl', n, {
    one: 'Pozostała 1 próba.',
    few: `Pozostały ${n} próby.`,
    many: `Pozostało ${n} prób.`,
    other: `Pozostało ${n} próby.`,
  });
const fields = (n: number) =>
  plural('pl', n, {
    one: '1 pole obowiązkowe',
    few: `${n} pola obowiązkowe`,
    many: `${n} pól obowiązkowych`,
    other: `${n} pola obowiązkowego`,
  });
/** The mark in the genitive ("pole do podpisu"), in the accusative ("wpisz swój podpis"). */
const genitive: Record<Mark, string> = { signature: 'podpisu', initials: 'inicjałów', stamp: 'pieczątki' };
const accusative: Record<Mark, string> = {
  signature: 'swój podpis',
  initials: 'swoje inicjały',
  stamp: 'swoją pieczątkę',
};

export const pl: Messages = {
  appName: PRODUCT_NAME,
  loading: 'Wczytywanie…',
  opening: 'Otwieranie dokumentu…',
  skipToDocument: 'Przejdź do dokumentu',

  linkExpiredTitle: 'Ten link już nie działa',
  linkExpiredText:
    'Link do podpisania wygasł albo zadanie zostało przekazane innej osobie. Linków nie można przedłużać.',
  linkExpiredWhatToDo:
    'Poproś nadawcę o ponowne wysłanie dokumentu. Jeśli zadanie zostało przez Ciebie przekazane, druga osoba dostała własny link.',
  linkVoidedText:
    'Nadawca anulował tę kopertę, więc nie ma już nic do podpisania. Jego uzasadnienie otrzymasz w wiadomości e-mail.',
  genericErrorTitle: 'Coś poszło nie tak',
  genericErrorText: 'Nie udało się wczytać dokumentu. Sprawdź połączenie z internetem i odśwież stronę.',
  reload: 'Odśwież',
  requestReference: (id: string) => `Identyfikator dla pomocy technicznej: ${id}`,

  from: (name: string) => `Od: ${name}`,
  messageFromSender: 'Wiadomość od nadawcy',
  brandLogoAlt: (organization: string) => `Logo: ${organization}`,
  involvedHeading: 'Uczestnicy',
  involvedOrdered: 'Wszyscy działają w tej kolejności.',
  involvedUnordered: 'Wszyscy mogą działać jednocześnie.',
  you: 'Ty',
  role: { SIGNER: 'Podpisuje', APPROVER: 'Zatwierdza', CC: 'Otrzymuje kopię' },
  recipientStatus: {
    PENDING: 'Czeka na swoją kolej',
    SENT: 'Zaproszenie wysłane',
    VIEWED: 'Dokument otwarty',
    SIGNED: 'Podpisano',
    APPROVED: 'Zatwierdzono',
    DECLINED: 'Odmowa',
    SKIPPED: 'Kopia otrzymana',
    DELEGATED: 'Zadanie przekazane innej osobie',
  },

  consentHeading: 'Zanim zaczniesz',
  consentIntro: 'Przeczytaj tę informację. Zostanie zapisana razem z Twoim podpisem.',
  consentAgree: 'Zgadzam się, dalej',
  consentDecline: 'Nie zgadzam się (odmów)',

  passwordHeading: 'Ten dokument jest chroniony',
  passwordIntro: 'Nadawca zabezpieczył ten dokument hasłem. Powinien był przekazać je osobno.',
  passwordLabel: 'Hasło',
  passwordSubmit: 'Otwórz dokument',
  passwordWrong: 'Hasło jest nieprawidłowe. Sprawdź je i spróbuj ponownie.',
  passwordLocked: 'Zbyt wiele błędnych haseł. Odczekaj chwilę przed kolejną próbą.',

  otpHeading: 'Potwierdź swoją tożsamość',
  otpIntro: (email: string) =>
    `Nadawca poprosił nas o sprawdzenie Twojej tożsamości. Wyślemy 6-cyfrowy kod na adres ${email}.`,
  otpSend: 'Wyślij mi kod',
  otpSent: (time: string) => `Kod został wysłany e-mailem. Jest ważny do ${time}.`,
  otpLabel: 'Kod z wiadomości e-mail',
  otpHint: '6 cyfr',
  otpVerify: 'Potwierdź kod',
  otpResend: 'Wyślij nowy kod',
  otpResendIn: (seconds: number) => `Nowy kod możesz zamówić za ${seconds} s.`,
  otpWrong: (attemptsLeft: number) =>
    attemptsLeft > 0
      ? `Kod jest nieprawidłowy. ${attempts(attemptsLeft)}`
      : 'Ten kod jest już nieważny. Poproś o nowy kod.',
  otpFormat: 'Wpisz 6 cyfr z wiadomości e-mail.',
  otpTooSoon: (seconds: number) => `Odczekaj ${seconds} s, zanim poprosisz o nowy kod.`,
  otpVerified: 'Dziękujemy, tożsamość została potwierdzona.',

  documentsHeading: 'Dokument',
  documentOf: (name: string, index: number, total: number) =>
    total > 1 ? `${name} (dokument ${index} z ${total})` : name,
  pageOf: (page: number, total: number) => `Strona ${page} z ${total}`,
  zoomOut: 'Pomniejsz',
  zoomIn: 'Powiększ',
  zoomFit: 'Dopasuj do szerokości',
  zoomLevel: (percent: number) => `Powiększenie ${percent}%`,
  pageLoading: 'Wczytywanie strony…',
  pageFailed: 'Nie można wyświetlić tej strony.',

  fieldType: {
    SIGNATURE: 'Podpis',
    INITIALS: 'Inicjały',
    TEXT: 'Tekst',
    TEXTAREA: 'Tekst',
    NUMBER: 'Liczba',
    EMAIL: 'E-mail',
    DATE: 'Data',
    CHECKBOX: 'Pole wyboru',
    DROPDOWN: 'Wybór',
    NAME: 'Imię i nazwisko',
    NOTE: 'Uwaga',
    IMAGE: 'Obraz',
    STAMP: 'Pieczątka',
    DIGITAL_SIGNATURE: 'Podpis cyfrowy',
  },
  required: 'obowiązkowe',
  optional: 'opcjonalne',
  filled: 'wypełnione',
  empty: 'puste',
  fieldButton: (label: string, required: boolean, filled: boolean) =>
    `${label}, ${required ? 'obowiązkowe' : 'opcjonalne'}, ${filled ? 'wypełnione' : 'puste'}`,
  progress: (done: number, total: number) => `Wypełnione pola obowiązkowe: ${done} z ${total}`,
  nextField: 'Następne pole',
  previousField: 'Poprzednie pole',
  skipField: 'Pomiń to pole',
  startFilling: 'Przejdź do pierwszego pola',
  today: 'Dziś',
  reviewFields: 'Przejrzyj swoje pola',
  allRequiredDone: 'Wszystkie pola obowiązkowe są wypełnione.',
  fieldPanelHeading: (label: string, position: number, total: number) => `${label} (pole ${position} z ${total})`,
  closeField: 'Zamknij',
  noFieldsForYou: 'Nie masz nic do wypełnienia.',
  saved: 'Zapisano',
  saving: 'Zapisywanie…',
  savedLocally: 'Przechowywane na tym urządzeniu do zakończenia',
  saveFailed: 'Nie udało się zapisać. Wpis zostaje na tym urządzeniu i zostanie zapisany po zakończeniu.',
  applyValue: 'Zapisz i dalej',
  clearValue: 'Wyczyść',
  notePrefix: 'Uwaga od nadawcy',
  checkboxLabel: (label: string) => label,
  choosePlaceholder: 'Wybierz…',
  dateShownAs: (text: string) => `W dokumencie pojawi się jako: ${text}`,
  invalidNumber: 'Wpisz liczbę, na przykład 42 lub 3.5 (z kropką, nie przecinkiem).',
  invalidEmail: 'Wpisz adres e-mail, na przykład imie@example.com.',
  invalidDate: 'Wpisz datę.',
  tooLong: (max: number) => `Maksymalna liczba znaków: ${max}.`,
  requiredMissing: 'To pole jest obowiązkowe.',
  imageChoose: 'Wybierz obraz',
  imageTooLarge:
    'Obraz jest za duży. Użyj obrazu mniejszego niż 2 MB i nie większego niż 8000 pikseli z każdej strony.',
  imageUnreadable: 'Tego pliku nie udało się odczytać jako obrazu.',
  imagePreviewAlt: 'Wybrany obraz',
  stampFromFile: 'Pieczątka to obraz pieczątki Twojej firmy. Wybierz plik z obrazem.',

  signatureHow: 'Jak chcesz podpisać?',
  signatureDraw: 'Narysuj',
  signatureType: 'Wpisz',
  drawAreaLabel: (m: Mark) => `Pole do rysowania ${genitive[m]}. Rysuj myszą, rysikiem lub palcem.`,
  drawHint: 'Rysuj wewnątrz ramki. Nie masz myszy ani ekranu dotykowego? Wybierz Wpisz.',
  drawEmpty: 'Najpierw narysuj podpis albo wybierz Wpisz.',
  typeLabel: (m: Mark) => `Wpisz ${accusative[m]}`,
  typePreviewAlt: (m: Mark) =>
    m === 'initials'
      ? 'Podgląd wpisanych inicjałów'
      : m === 'stamp'
        ? 'Podgląd wpisanej pieczątki'
        : 'Podgląd wpisanego podpisu',
  typeEmpty: 'Najpierw wpisz swoje imię i nazwisko.',
  adoptSignature: (m: Mark) =>
    m === 'initials' ? 'Użyj tych inicjałów' : m === 'stamp' ? 'Użyj tej pieczątki' : 'Użyj tego podpisu',
  signaturePreviewAlt: (m: Mark) =>
    m === 'initials' ? 'Twoje inicjały' : m === 'stamp' ? 'Twoja pieczątka' : 'Twój podpis',
  changeSignature: 'Zmień',
  signingPasswordMissing: 'Wpisz hasło do podpisu.',
  signingPasswordCreateLabel: 'Utwórz hasło do podpisu',
  signingPasswordCreateHint: (min: number) =>
    `To Twój pierwszy podpis osobistym certyfikatem do podpisu. Hasło tworzy Twój klucz do podpisu i go chroni: bez tego hasła nikt nie może się nim podpisać, nawet serwis. Użyj co najmniej ${min} znaków i przechowuj je bezpiecznie; będzie potrzebne przy każdym kolejnym podpisie.`,
  signingPasswordConfirmLabel: 'Potwierdź hasło do podpisu',
  signingPasswordEnterLabel: 'Wpisz hasło do podpisu',
  signingPasswordEnterHint:
    'Hasło wybrane przy pierwszym podpisie certyfikatem. Odblokowuje Twój klucz do podpisu na potrzeby tego podpisu.',
  signingPasswordTooShort: (min: number) => `Użyj co najmniej ${min} znaków.`,
  signingPasswordMismatch: 'Hasła nie są takie same.',
  signingPasswordWrong: (attemptsLeft: number | null) =>
    attemptsLeft === null
      ? 'Hasło do podpisu jest nieprawidłowe.'
      : `Hasło do podpisu jest nieprawidłowe. ${attempts(attemptsLeft)}`,
  signingPasswordLocked:
    'Zbyt wiele błędnych haseł do podpisu. Spróbuj ponownie za 15 minut albo utwórz poniżej nowy klucz do podpisu.',
  signingKeyNotCertifiable:
    'Zanim będzie można wystawić certyfikat do podpisu, Twój adres musi zostać potwierdzony. Otwórz link potwierdzający z wiadomości wysłanej przy zakładaniu konta albo podpisz z linku w wiadomości z prośbą o podpis.',
  signingKeyForgot: 'Nie pamiętasz hasła do podpisu?',
  signingKeyResetIntro:
    'Wyślemy kod na Twój adres e-mail. Za jego pomocą ustawisz nowe hasło do podpisu, które utworzy nowy klucz i certyfikat. Wcześniejsze podpisy pozostają ważne.',
  signingKeyResetSend: 'Wyślij mi kod',
  signingKeyResetSending: 'Wysyłanie…',
  signingKeyResetSent: 'Kod został wysłany e-mailem. Jest ważny przez 10 minut.',
  signingKeyResetCode: 'Kod z wiadomości e-mail',
  signingKeyResetPassword: 'Nowe hasło do podpisu',
  signingKeyResetConfirm: 'Potwierdź nowe hasło do podpisu',
  signingKeyResetSubmit: 'Utwórz nowy klucz do podpisu',
  signingKeyResetDone: 'Nowy klucz do podpisu jest gotowy. Aby podpisać, wpisz powyżej jego hasło.',
  signingKeyResetCodeInvalid: 'Wpisz 6 cyfr z wiadomości e-mail.',
  signedWithCertificate: 'Podpisano osobistym certyfikatem do podpisu.',
  libraryHeading: (m: Mark) =>
    m === 'initials' ? 'Zapisane inicjały' : m === 'stamp' ? 'Zapisane pieczątki' : 'Zapisane podpisy',
  libraryUse: (name: string) => `Użyj „${name}”`,
  libraryImageAlt: (name: string) => `Zapisane: ${name}`,
  librarySignIn: 'Masz konto? Zaloguj się, aby użyć zapisanych podpisów',

  actionsRegion: 'Wypełnianie i podpisywanie',
  finishHeading: 'Zakończ',
  finishSign: 'Zakończ i podpisz',
  finishApprove: 'Zatwierdź',
  approveCommentLabel: 'Komentarz dla nadawcy (opcjonalnie)',
  finishBlocked: (count: number) => `Najpierw wypełnij jeszcze: ${fields(count)}.`,
  moreActions: 'Inne opcje',
  decline: 'Odmów',
  declineHeading: 'Odmowa podpisu',
  declineReasonLabel: 'Powód (przeczyta go nadawca)',
  declineConfirm: 'Odmów',
  declineReasonMissing: 'Napisz nadawcy, dlaczego odmawiasz.',
  delegate: 'Poproś inną osobę',
  delegateHeading: 'Przekaż to zadanie innej osobie',
  delegateIntro: 'Ta osoba dostanie własną wiadomość z linkiem, a Twój link przestanie działać.',
  delegateName: 'Imię i nazwisko tej osoby',
  delegateEmail: 'Adres e-mail tej osoby',
  delegateConfirm: 'Przekaż',
  delegateNameInvalid:
    'Wpisz imię i nazwisko: od 2 do 50 znaków, litery (łącznik lub apostrof tylko między literami), pojedyncze spacje między wyrazami.',
  delegateEmailInvalid: 'Wpisz adres e-mail tej osoby.',
  cancel: 'Anuluj',
  close: 'Zamknij',

  doneSignedTitle: 'Dziękujemy, dokument został podpisany',
  doneApprovedTitle: 'Dziękujemy, dokument został zatwierdzony',
  doneWaiting:
    'Pozostałe osoby muszą jeszcze wykonać swoje działania. Gdy wszyscy skończą, otrzymasz gotowy dokument e-mailem.',
  doneCompleted:
    'Wszyscy skończyli. Dokument jest pieczętowany; za chwilę pojawi się tu do pobrania, otrzymasz go też e-mailem.',
  doneSealed: 'Wszyscy skończyli. Dokument jest opieczętowany i gotowy.',
  declinedTitle: 'Odmowa została zapisana',
  declinedText: 'Nadawca został powiadomiony i zna powód. Nikt nie może już podpisać tego dokumentu.',
  delegatedTitle: 'Zadanie przekazane',
  delegatedText: (name: string, email: string) =>
    `${name} (${email}) otrzyma wiadomość z własnym linkiem. Twój link już nie działa.`,
  voidTitle: 'Ten dokument został anulowany',
  voidText: 'Ktoś odmówił albo nadawca go anulował. Nie można już niczego podpisać.',
  notYourTurnTitle: 'To jeszcze nie Twoja kolej',
  notYourTurnText:
    'Inne osoby działają przed Tobą. Powiadomimy Cię e-mailem, gdy przyjdzie Twoja kolej; do tego czasu możesz czytać dokument.',
  ccTitle: 'Otrzymujesz kopię',
  ccText: 'Nie musisz nic robić. Dokument możesz przeczytać tutaj.',
  alreadyFinished: 'Twoja część jest już zakończona. Dokument możesz przeczytać tutaj.',
  downloadsHeading: 'Pobieranie',
  downloadDocument: (name: string) => `Pobierz ${name} (opieczętowany PDF)`,
  downloadCertificate: 'Pobierz certyfikat ukończenia',
  downloadFailed: 'Pobieranie nie powiodło się. Spróbuj ponownie za chwilę.',

  commentsHeading: 'Komentarze',
  commentsEmpty: 'Brak komentarzy.',
  commentLabel: 'Dodaj komentarz',
  commentOnField: (label: string) => `Dotyczy pola „${label}”`,
  commentAboutField: (label: string) => `dotyczy „${label}”`,
  commentSend: 'Opublikuj komentarz',
  commentEmpty: 'Najpierw napisz komentarz.',
  commentBy: (name: string, time: string) => `${name}, ${time}`,

  cscReturning: 'Powrót do dokumentu…',
  ssoTitle: 'Logowanie',
  ssoHandedBack: 'Logowanie zakończone. To okno zamknie się samo; jeśli nie, zamknij je.',
  ssoReturnToApp: 'Logowanie zakończone. Wróć do aplikacji, która poprosiła o zalogowanie.',
  ssoFailed: (reason: string) => `Logowanie nie zostało dokończone (${reason}). Wróć do aplikacji i spróbuj ponownie.`,
  cscNoSession: 'Ta strona kończy podpis zdalny. Wróć do podpisywanego dokumentu.',

  cscHeading: 'Podpis zdalny',
  cscIntro:
    'Twój dostawca podpisu podpisuje Twoim własnym certyfikatem: potwierdzasz podpis na jego stronie, a potem wracasz tutaj.',
  cscLoading: 'Wyszukiwanie Twoich certyfikatów u dostawcy podpisu…',
  cscCredentialLabel: 'Certyfikat',
  cscCredentialOption: (name: string, kind: string) => `${name}, ${kind}`,
  cscQualifier: {
    SES: 'podpis elektroniczny',
    AES: 'zaawansowany podpis elektroniczny',
    QES: 'kwalifikowany podpis elektroniczny',
  },
  cscSignButton: 'Podpisz u dostawcy podpisu zdalnego',
  cscRedirecting: 'Przekierowanie do dostawcy podpisu…',
  cscNoCredentials:
    'Twój dostawca podpisu nie ma certyfikatu dla żadnego rodzaju podpisu akceptowanego przez ten dokument.',
  cscUnavailable: 'Dostawca podpisu jest teraz niedostępny. Spróbuj ponownie za chwilę.',
  cscCompleting: 'Kończenie podpisu zdalnego…',
  cscRefused: 'Dostawca podpisu nie zatwierdził podpisu. Nic nie zostało podpisane; możesz spróbować ponownie.',
  cscFailed: (reason: string) =>
    `Nie udało się dokończyć podpisu zdalnego: ${reason} Nic nie zostało podpisane; możesz spróbować ponownie.`,
  cscSigned: 'Podpis zdalny został dodany do dokumentu.',

  notFoundTitle: 'Nie znaleziono strony',
  notFoundText: 'Otwórz link do podpisania z wiadomości e-mail.',
};
