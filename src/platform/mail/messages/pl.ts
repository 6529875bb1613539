import type { MailMessages } from './en.ts';
import { languageTools } from './format.ts';

/**
 * Polish, formal. Polish inflects names (the vocative of a greeting, the genitive after "od") and past-tense verbs by
 * the person's gender, neither of which the service knows: so the greeting is the usual "Dzień dobry," without the
 * name, names stand in the nominative (as a subject in the present tense, or after a colon), and the reader is
 * addressed through impersonal forms ("należy", "można") rather than a gendered Pan or Pani.
 */
const { locale, categories, number, plural } = languageTools('pl-PL', ['one', 'few', 'many', 'other']);
const q = (text: string) => `„${text}”`;
/** "przez 1 minutę", "przez 3 minuty", "przez 10 minut", "przez 1,5 minuty". */
const minutes = (count: number) =>
  `${number(count)} ${plural(count, { one: 'minutę', few: 'minuty', many: 'minut', other: 'minuty' })}`;

export const pl: MailMessages = {
  locale,
  pluralCategories: categories,

  layout: {
    greeting: () => 'Dzień dobry,',
    messageFrom: (p) => `Wiadomość od nadawcy (${p.by}):`,
    link: (p) => `${p.label}: ${p.url}`,
  },

  theSender: 'Nadawca',
  openDocument: 'Otwórz dokument',
  ignoreIfNotAsked: 'Jeśli ten kod nie był zamawiany, wystarczy zignorować tę wiadomość.',

  commence: {
    sent: (p) =>
      `${p.sender} przesyła dokument ${q(p.document)} ${p.approve ? 'do sprawdzenia i zatwierdzenia' : 'do podpisu'}.`,
    delegated: (p) =>
      `${p.delegatedBy} prosi o ${p.approve ? 'sprawdzenie i zatwierdzenie' : 'podpisanie'} dokumentu ${q(p.document)} w zastępstwie. Nadawca dokumentu: ${p.sender}.`,
    personalLink: (p) =>
      `Ten link jest osobisty – prosimy nie przekazywać go dalej. Można z niego korzystać do ${p.date}.`,
  },

  copy: {
    subject: (p) => `Kopia: ${p.title}`,
    sent: (p) =>
      `Dokument ${q(p.document)} został wysłany do podpisu, a ta wiadomość jest kopią do wiadomości. Nadawca: ${p.sender}. Nie trzeba nic robić.`,
    viewDocument: 'Wyświetl dokument',
    linkValid: (p) => `Link jest ważny do ${p.date}.`,
  },

  otp: {
    subject: (p) => `Kod weryfikacyjny do dokumentu ${q(p.title)}`,
    code: (p) => `Kod weryfikacyjny: ${p.code}`,
    enterIt: (p) =>
      `Kod należy wpisać, aby potwierdzić tożsamość przed ${p.approve ? 'sprawdzeniem i zatwierdzeniem' : 'podpisaniem'} dokumentu ${q(p.document)}. Kod jest ważny przez ${minutes(p.minutes)}.`,
  },

  declined: {
    subject: (p) => `Odrzucono: ${p.title}`,
    body: (p) =>
      `Dokument ${q(p.document)} został odrzucony przez odbiorcę: ${p.name} (${p.email}). Koperta została unieważniona.`,
    reasonGiven: 'Podany powód:',
  },

  voided: {
    subject: (p) => `Unieważniono: ${p.title}`,
    byDecline: (p) => `Dokument ${q(p.document)} został odrzucony przez odbiorcę: ${p.name}.`,
    byOwner: (p) => `Dokument ${q(p.document)} został unieważniony przez nadawcę: ${p.name}. Powód: ${p.reason}`,
    nothingMore: 'Koperta została unieważniona. Nie trzeba nic więcej robić.',
  },

  reminder: {
    subject: (p) => `Przypomnienie: ${p.title}`,
    waiting: (p) =>
      `${p.sender} nadal czeka na ${p.approve ? 'zatwierdzenie' : 'podpisanie'} dokumentu ${q(p.document)}.`,
    alreadyDone: 'Jeśli zostało to już zrobione, prosimy zignorować tę wiadomość.',
  },

  completed: {
    subject: (p) => `Zakończono: ${p.title}`,
    finished: (p) =>
      `Obieg dokumentu ${q(p.document)} został zakończony. ${plural(p.count, {
        one: 'Podpisany dokument został opatrzony',
        few: 'Podpisane dokumenty zostały opatrzone',
        many: 'Podpisane dokumenty zostały opatrzone',
        other: 'Podpisane dokumenty zostały opatrzone',
      })} elektroniczną pieczęcią platformy:`,
    attached: (p) =>
      plural(p.count, {
        one: 'Zapieczętowany plik PDF jest załączony do tej wiadomości.',
        few: 'Zapieczętowane pliki PDF są załączone do tej wiadomości.',
        many: 'Zapieczętowane pliki PDF są załączone do tej wiadomości.',
        other: 'Zapieczętowane pliki PDF są załączone do tej wiadomości.',
      }),
    tooLarge: (p) => `Zapieczętowane pliki są większe niż ${number(p.megabytes)} MB, dlatego nie zostały załączone.`,
    download: 'Pobierz pliki',
  },

  sealFailed: {
    subject: (p) => `Nie udało się zapieczętować: ${p.title}`,
    body: (p) =>
      `Obieg dokumentu ${q(p.document)} został zakończony, ale mimo kilku prób nie udało się zapieczętować podpisanego dokumentu.`,
    reason: (p) => `Powód: ${p.reason}`,
    kept: 'Podpisy i dziennik zdarzeń zostały zachowane. Prosimy o kontakt z administratorem.',
  },

  signingKeyReset: {
    subject: 'Kod do utworzenia nowego klucza podpisu',
    code: (p) => `Kod do utworzenia nowego klucza podpisu: ${p.code}`,
    lines: (p) => [
      `Kod należy wpisać na stronie podpisywania razem z nowym hasłem podpisu. Jest ważny przez ${minutes(p.minutes)}.`,
      'Złożone wcześniej podpisy pozostają ważne; dotychczasowe hasło podpisu przestaje działać.',
      'Jeśli ten kod nie był zamawiany, wystarczy zignorować tę wiadomość – klucz pozostanie bez zmian.',
    ],
  },
};
