/**
 * What every language file of the mail catalogue writes numbers and counted words with. A language names the plural
 * categories it writes forms for (English: one, other; Polish: one, few, many, other); mail-messages.test.ts checks
 * that they cover every category the language's plural rules give a count a mail can hold, so a missing Polish form
 * fails there.
 */
export type LanguageTools<C extends Intl.LDMLPluralRule> = {
  /** The BCP 47 tag whose conventions the mails of this language follow (dates, numbers, plural rules). */
  locale: string;
  categories: readonly C[];
  /** A count as the language writes it (1.234 in German, 1 234 in French and Polish). */
  number(value: number): string;
  /** The form of `forms` the language's plural rules choose for `count`. */
  plural(count: number, forms: Record<C, string>): string;
};

export function languageTools<C extends Intl.LDMLPluralRule>(
  locale: string,
  categories: readonly (C | 'other')[],
): LanguageTools<C | 'other'> {
  const rules = new Intl.PluralRules(locale);
  const numbers = new Intl.NumberFormat(locale);
  return {
    locale,
    categories,
    number: (value) => numbers.format(value),
    plural(count, forms) {
      const category = rules.select(count) as C | 'other';
      return forms[category] ?? forms.other;
    },
  };
}
