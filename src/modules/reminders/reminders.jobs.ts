import { NoPayload, type JobDefinition } from '../../platform/jobs/queue.ts';
import type { ReminderService } from './reminders.service.ts';

export const REMINDER_SWEEP_JOB = 'reminders.sweep';

/**
 * The reminder scheduler: pg-boss's cron makes one sweep job per minute across all instances. A sweep is
 * idempotent, so a failed one is not retried: the next minute's sweep picks up whatever it missed.
 */
export function reminderSweepJob(reminders: ReminderService): JobDefinition<typeof NoPayload> {
  return {
    name: REMINDER_SWEEP_JOB,
    payload: NoPayload,
    cron: '* * * * *',
    retryLimit: 0,
    expireInSeconds: 300,
    async handler() {
      await reminders.runReminderSweep(new Date());
    },
  };
}
