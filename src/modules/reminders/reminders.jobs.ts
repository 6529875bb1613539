import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { ReminderService } from './reminders.service.ts';

export const REMINDER_SWEEP_JOB = 'reminders.sweep';

/**
 * The reminder scheduler: pg-boss's cron makes one sweep job per minute across all instances. A sweep is
 * idempotent, so a failed one is not retried: the next minute's sweep picks up whatever it missed.
 */
export function defineReminderJobs(jobs: JobQueue, reminders: ReminderService): void {
  jobs.define<Record<string, never>>({
    name: REMINDER_SWEEP_JOB,
    cron: '* * * * *',
    retryLimit: 0,
    expireInSeconds: 300,
    async handler() {
      await reminders.runReminderSweep(new Date());
    },
  });
}
