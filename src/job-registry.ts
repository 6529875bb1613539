import type { TSchema } from 'typebox';
import type { Job } from './platform/jobs/queue.ts';
import type { Platform } from './platform/platform.ts';
import { mailDeliveryJob } from './platform/mail/outbox.ts';
import { sealJob, sealWatchdogJob, type SealJobDeps } from './modules/signing/seal-job.ts';
import { reminderSweepJob } from './modules/reminders/reminders.jobs.ts';
import { preparationSweepJob } from './modules/remote-signing/preparation-sweep.ts';
import { attemptPruneJob } from './platform/limits/attempts-prune.ts';
import type { ReminderService } from './modules/reminders/reminders.service.ts';
import { webhookDeliveryJob, webhookDispatchJob } from './modules/webhooks/webhooks.jobs.ts';
import { surveyDispatchJob, surveyOutcomeJob, type SurveyDispatchDeps } from './modules/surveys/survey-dispatch.ts';

/** What the modules' job handlers call into; the platform's adapters come from `platform`. */
export type JobModules = { sealing: SealJobDeps; reminders: ReminderService; surveys: SurveyDispatchDeps };

/**
 * Every durable job the service runs, each with its payload schema, retry policy and handler. A name here is
 * stored in pg-boss's tables: renaming one strands the jobs already queued under the old name.
 */
export function jobDefinitions(platform: Platform, modules: JobModules): Job<TSchema>[] {
  return [
    mailDeliveryJob({
      db: platform.db,
      blobs: platform.blobs,
      resolveTransport: platform.mailRouting.resolve,
      onOutcome: (outcome) => platform.metrics.mails.labels(outcome).inc(),
    }),
    sealJob(modules.sealing),
    sealWatchdogJob(modules.sealing),
    reminderSweepJob(modules.reminders),
    preparationSweepJob(platform.db),
    attemptPruneJob(platform.db),
    surveyDispatchJob(modules.surveys),
    surveyOutcomeJob(modules.surveys),
    webhookDeliveryJob({
      db: platform.db,
      outbound: platform.outbound,
      secrets: platform.secrets,
      outbox: platform.outbox,
      publicUrl: platform.config.publicUrl,
    }),
    webhookDispatchJob({
      db: platform.db,
      jobs: platform.jobs,
      pollMs: platform.config.jobPollSeconds * 1000,
      log: platform.log,
    }),
  ];
}

/** Registers every job with the queue; before `platform.jobs.start()`. */
export function defineJobs(platform: Platform, modules: JobModules): void {
  for (const definition of jobDefinitions(platform, modules)) platform.jobs.define(definition);
}
