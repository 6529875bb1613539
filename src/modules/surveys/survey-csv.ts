/**
 * CSV (RFC 4180) for the survey export. Recipients type the values, and the file is opened in spreadsheets, so a
 * cell starting with =, +, -, @, a tab or a carriage return (which a spreadsheet would run as a formula) is
 * prefixed with a single quote (OWASP "CSV injection"); every cell is quoted, inner quotes doubled.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** One record, CRLF-terminated. */
export function csvLine(values: string[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
