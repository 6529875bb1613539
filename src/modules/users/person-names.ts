/**
 * The one rule for the names of people (RUNTIME.md "Names"), used by sign-up, invitations and member names, recipients,
 * template dispatch names and delegation: words of letters of any script, each letter with its combining marks; a
 * hyphen or an apostrophe (' or ’) between two letters is part of a word (Jean-Luc, O'Brien, Núñez-García); words are
 * separated by single spaces. Lengths stay each rule's own (SPEC.md). Each repetition consumes a letter and letters and
 * marks are disjoint classes, so matching is linear. `\-` keeps the class valid under the `v` flag too, with which
 * browsers compile an input's `pattern` attribute. The web app holds the same pattern (web/src/shared/person-name.ts;
 * test/conformance/person-names.test.ts keeps the two equal).
 */
const WORD = "\\p{L}\\p{M}*(?:[\\-'’]?\\p{L}\\p{M}*)*";
export const PERSON_NAME_PATTERN = `^${WORD}(?: ${WORD})*$`;
const PERSON_NAME = new RegExp(PERSON_NAME_PATTERN, 'u');

/** Says what PERSON_NAME_PATTERN allows, for error messages and schema descriptions. */
export const PERSON_NAME_RULE =
  'letters of any script, a hyphen or apostrophe between two letters, single spaces between words';

export function isPersonName(name: string): boolean {
  return PERSON_NAME.test(name);
}
