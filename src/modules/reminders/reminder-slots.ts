/**
 * When reminders fire (SPEC.md reminder rules 2 and 3):
 * - offsetMinutes (wins when set): once, that many minutes after the recipient received the document;
 * - intervalDays: that many days after the recipient's turn began, then again every intervalDays, at most
 *   MAX_INTERVAL_REMINDERS times per recipient turn.
 * Both clocks start at the recipient's dispatch time (under ORDERED that is when its turn began).
 * Slots are numbered from 1; after downtime only the latest due slot is sent, never a burst of old ones.
 */
export const MAX_INTERVAL_REMINDERS = 10;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export type ReminderSchedule = { offsetMinutes: number | null; intervalDays: number | null };

/** The slot due at `now`, or null when nothing is due yet (or the configuration is unusable). */
export function dueSlot(schedule: ReminderSchedule, dispatchedAt: Date, now: Date): number | null {
  const elapsed = now.getTime() - dispatchedAt.getTime();
  if (schedule.offsetMinutes !== null) {
    if (schedule.offsetMinutes < 1) return null;
    return elapsed >= schedule.offsetMinutes * MINUTE ? 1 : null;
  }
  if (schedule.intervalDays === null || schedule.intervalDays < 1) return null;
  const slot = Math.floor(elapsed / (schedule.intervalDays * DAY));
  return slot >= 1 ? Math.min(slot, MAX_INTERVAL_REMINDERS) : null;
}
