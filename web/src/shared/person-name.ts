/**
 * The service's rule for the names of people (src/modules/users/person-names.ts, RUNTIME.md "Names"): letters of any
 * script with their combining marks, a hyphen or apostrophe (' or ’) between two letters, single spaces between words.
 * The same pattern, checked equal by test/conformance/person-names.test.ts; lengths are each form's own.
 */
const WORD = "\\p{L}\\p{M}*(?:[\\-'’]?\\p{L}\\p{M}*)*";
export const PERSON_NAME_PATTERN = `^${WORD}(?: ${WORD})*$`;
const PERSON_NAME = new RegExp(PERSON_NAME_PATTERN, 'u');

export function isPersonName(name: string): boolean {
  return PERSON_NAME.test(name);
}
