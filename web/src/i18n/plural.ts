/** The plural forms a language distinguishes (CLDR categories); Polish uses one, few and many. */
export type PluralForms = { one: string; few?: string; many?: string; other: string };

const rules = new Map<string, Intl.PluralRules>();

/** The form of `forms` that `language` uses for `count` (Intl.PluralRules), falling back to `other`. */
export function plural(language: string, count: number, forms: PluralForms): string {
  let rule = rules.get(language);
  if (!rule) rules.set(language, (rule = new Intl.PluralRules(language)));
  return forms[rule.select(count) as keyof PluralForms] ?? forms.other;
}
