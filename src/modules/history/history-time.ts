/**
 * Times in history, the evidence report and the certificate of completion: `YYYY-MM-DD HH:MM:SS` in the
 * workflow's IANA time zone (SPEC.md "Workflow history").
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The IANA zone to show times in. The upload call may have stored "Europe/Paris GMT+01:00" (zone, space,
 * offset), so the first word is tried too; anything unknown falls back to UTC rather than failing a read.
 */
export function resolveTimeZone(stored: string | null | undefined): string {
  for (const candidate of [stored, stored?.split(' ')[0]]) {
    if (!candidate) continue;
    try {
      formatterFor(candidate);
      return candidate;
    } catch {
      // not a zone this runtime knows
    }
  }
  return 'UTC';
}

export function formatHistoryTime(date: Date | null | undefined, timeZone: string): string {
  if (!date) return '';
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(date)) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}
