import { defineJob, NoPayload, type Job } from '../../platform/jobs/queue.ts';
import type { ReminderService } from './reminders.service.ts';

/**
 * The reminder scheduler: pg-boss's cron makes one sweep job per minute across all instances. A sweep is
 * idempotent, so a failed one is not retried: the next minute's sweep picks up whatever it missed.
 */
export const REMINDER_SWEEP_JOB = defineJob({
  name: 'reminders.sweep',
  payload: NoPayload,
  cron: '* * * * *',
  retryLimit: 0,
  expireInSeconds: 300,
});

export function reminderSweepJob(reminders: ReminderService): Job<typeof NoPayload> {
  return {
    ...REMINDER_SWEEP_JOB,
    async handler() {
      await reminders.runReminderSweep(new Date());
    },
  };
}
