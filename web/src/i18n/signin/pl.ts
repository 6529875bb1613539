import { plural } from '../plural.ts';
import type { Messages } from './en.ts';

/** "za 5 minut": the accusative after "za" (one: minutę, few: minuty, many: minut). */
const minutes = (n: number) =>
  plural('pl', n, { one: '1 minutę', few: `${n} minuty`, many: `${n} minut`, other: `${n} minuty` });

/** Polski strony logowania (tryb rozkazujący, jak w polskich interfejsach). */
export const pl: Messages = {
  title: 'Logowanie',
  noAccount: 'Pierwszy raz tutaj?',
  signUp: 'Załóż konto',
  intro: 'Zaloguj się, aby wysyłać dokumenty i podpisywać te, które inni Ci wysłali.',
  email: 'E-mail',
  password: 'Hasło',
  rememberMe: 'Nie wylogowuj mnie na tym urządzeniu przez 30 dni',
  submit: 'Zaloguj się',
  submitting: 'Logowanie…',
  totpTitle: 'Uwierzytelnianie dwuskładnikowe',
  totpIntro: 'Wpisz 6-cyfrowy kod z aplikacji uwierzytelniającej.',
  totpLabel: 'Kod uwierzytelniający',
  totpSubmit: 'Sprawdź kod',
  back: 'Wstecz',
  otherWays: 'Inne sposoby logowania',
  wrongCredentials: 'Adres e-mail lub hasło są nieprawidłowe.',
  wrongCode: 'Kod jest nieprawidłowy albo został już użyty. Poczekaj na następny kod i spróbuj ponownie.',
  locked: (n: number) => `Zbyt wiele nieudanych prób. Spróbuj ponownie za ${minutes(n)}.`,
  expired: 'Ta strona logowania wygasła albo została otwarta w innej przeglądarce.',
  startAgain: 'Zacznij od nowa',
  failed: 'Logowanie nie powiodło się. Sprawdź połączenie i spróbuj ponownie.',
  missingFields: 'Wpisz adres e-mail i hasło.',
  missingCode: 'Wpisz 6-cyfrowy kod.',
  passkeyTitle: 'Zaloguj się kluczem dostępu',
  passkeyIntro:
    'Wpisz powyżej adres e-mail, a następnie użyj klucza dostępu zapisanego na tym urządzeniu lub klucza bezpieczeństwa.',
  passkeySubmit: 'Zaloguj się kluczem dostępu',
  passkeyWaiting: 'Oczekiwanie na klucz dostępu…',
  passkeyNeedsEmail: 'Najpierw wpisz powyżej adres e-mail, a potem wybierz Zaloguj się kluczem dostępu.',
  passkeyUnsupported: 'Ta przeglądarka nie obsługuje kluczy dostępu. Zaloguj się hasłem.',
  passkeyCancelled: 'Żądanie klucza dostępu zostało anulowane lub wygasło. Spróbuj ponownie, gdy będziesz gotowy.',
  passkeyRejected: 'Ten klucz dostępu nie został zaakceptowany dla tego konta.',
  cardTitle: 'Zaloguj się kartą inteligentną',
  cardIntro:
    'Przeglądarka nie może sama odczytać karty, dlatego podpisujesz krótki kod oprogramowaniem karty i wklejasz tutaj wynik.',
  cardCertificate: 'Certyfikat karty (PEM)',
  cardCertificateFile: 'Albo wybierz plik certyfikatu',
  cardGetHash: 'Pobierz skrót do podpisania',
  cardGettingHash: 'Przygotowywanie…',
  cardHashStep: 'Podpisz ten skrót swoją kartą',
  cardHash: 'Skrót do podpisania (base64)',
  cardCopy: 'Kopiuj skrót',
  cardCopied: 'Skrót został skopiowany.',
  cardCopyFailed: 'Kopiowanie nie powiodło się: zaznacz skrót i skopiuj go samodzielnie.',
  cardHowTo: 'Jak podpisać go narzędziem pkcs11-tool z OpenSC',
  cardHowToIntro:
    'W terminalu, z kartą w czytniku (podaj ścieżkę do opensc-pkcs11.so w swoim systemie; jeśli karta zawiera kilka kluczy, dodaj --id z identyfikatorem klucza; pkcs11-tool zapyta o PIN):',
  cardHowToRsa: 'Dla klucza RSA:',
  cardHowToEc: 'Dla klucza na krzywej eliptycznej (ECDSA):',
  cardHowToLast: 'Następnie wyświetl podpis, aby wkleić go poniżej:',
  cardSignature: 'Podpis (base64)',
  cardSubmit: 'Zaloguj się kartą',
  cardRestart: 'Użyj innego certyfikatu',
  cardHashExpires: 'Skrótu można użyć jeden raz, w ciągu 5 minut.',
  cardNeedsCertificate: 'Najpierw wklej lub wybierz certyfikat karty.',
  cardNeedsSignature: 'Wklej podpis w formacie base64.',
  cardUnreadable:
    'Ta strona nie potrafi odczytać tego certyfikatu. Wklej tekst PEM zaczynający się od -----BEGIN CERTIFICATE-----.',
  cardFileUnreadable: 'Nie udało się odczytać tego pliku.',
  cardOff: 'Logowanie kartą inteligentną nie jest włączone w tym serwisie.',
  cardExpiredChallenge: 'Skrót wygasł albo został już użyty. Pobierz nowy skrót i podpisz go ponownie.',
  cardRejected: (reason: string) => {
    switch (reason) {
      case 'SIGNATURE':
        return 'Podpis nie pasuje do skrótu i certyfikatu. Podpisz dokładnie wyświetlony skrót tą kartą.';
      case 'UNTRUSTED_ISSUER':
        return 'Certyfikat tej karty nie został wydany przez urząd akceptowany przez ten serwis.';
      case 'NOT_YET_VALID':
        return 'Certyfikat tej karty nie jest jeszcze ważny.';
      case 'EXPIRED':
        return 'Certyfikat tej karty wygasł.';
      case 'KEY_USAGE':
        return 'Certyfikatu tej karty nie można używać do logowania.';
      case 'REVOKED':
        return 'Certyfikat tej karty został unieważniony.';
      case 'REVOCATION_UNKNOWN':
        return 'Nie udało się sprawdzić, czy certyfikat tej karty został unieważniony. Spróbuj ponownie później.';
      case 'NO_EMAIL':
        return 'Certyfikat tej karty nie zawiera adresu e-mail.';
      case 'NO_ACCOUNT':
        return 'Żadne konto nie używa adresu e-mail z certyfikatu tej karty.';
      default:
        return 'Logowanie kartą nie zostało zaakceptowane.';
    }
  },
  tooManyChallenges: (n: number) => `Zbyt wiele prób logowania z tej sieci. Spróbuj ponownie za ${minutes(n)}.`,
};
