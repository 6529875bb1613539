import type { UserCaller } from '../../http/authenticate.ts';
import type { Db } from '../../platform/db/client.ts';
import type { NotifiedCache } from '../../platform/db/notified-cache.ts';
import { countByStatus, countSessions, dropOffCounts, timeToSign as timeToSignRow } from './template-analytics.repo.ts';
import type { CompletionResponse, DropOffResponse, TimeToSignResponse } from './template-analytics.schemas.ts';
import { findSnapshotFields } from './templates.repo.ts';
import { placeholderKey } from './template-instances.ts';
import { readVisibleTemplate } from './templates.service.ts';
import type { TemplateRow } from './templates.repo.ts';

/** A field whose rate rests on fewer reaching sessions than this is flagged lowSample. */
export const LOW_SAMPLE_SESSIONS = 20;

const round = (value: number | null, places = 2) =>
  value === null ? null : Math.round(value * 10 ** places) / 10 ** places;

/**
 * Template analytics (SPEC.md "Template analytics"), each one aggregate query over an index, kept per template
 * (`answers`) until the database announces a change to what they read: a workflow made from the template changing
 * status, times or deletion, or field events of it (migration 0025). Visibility as templates, checked on every call
 * (through the template service's cache, `lists`, which a change of a template or folder empties).
 */
export function createTemplateAnalyticsService({
  db,
  lists,
  answers,
}: {
  db: Db;
  lists: NotifiedCache;
  answers: NotifiedCache;
}) {
  // The snapshot workflow and when it was taken: an update with overwrite replaces both, so a new key.
  const keyOf = (kind: string, template: TemplateRow) =>
    `${kind}:${template.workflowId}:${template.snapshotAt.getTime()}`;
  return { completion, timeToSign, full, dropOff };

  async function completion(caller: UserCaller, templateId: number): Promise<CompletionResponse> {
    const template = await readVisibleTemplate(lists, db, caller, templateId);
    return completionOf(
      template,
      await answers.read(template.id, keyOf('completion', template), () => countByStatus(db, template.id)),
    );
  }

  async function timeToSign(caller: UserCaller, templateId: number): Promise<TimeToSignResponse> {
    const template = await readVisibleTemplate(lists, db, caller, templateId);
    return timeToSignOf(
      template,
      await answers.read(template.id, keyOf('time-to-sign', template), () => timeToSignRow(db, template.id)),
    );
  }

  /** Both aggregates as one answer. */
  async function full(caller: UserCaller, templateId: number) {
    const template = await readVisibleTemplate(lists, db, caller, templateId);
    const [counts, row] = await answers.read(template.id, keyOf('full', template), () =>
      Promise.all([countByStatus(db, template.id), timeToSignRow(db, template.id)]),
    );
    return { ...completionOf(template, counts), timeToSign: timeToSignOf(template, row) };
  }

  async function dropOff(caller: UserCaller, templateId: number): Promise<DropOffResponse> {
    const template = await readVisibleTemplate(lists, db, caller, templateId);
    // Weighs its rows, like a list page: a template's fields across thousands of templates count as what they hold.
    const [fields, counts, totalSessions] = await answers.read(
      template.id,
      keyOf('drop-off', template),
      () =>
        Promise.all([
          findSnapshotFields(db, template.workflowId),
          dropOffCounts(db, template.id, template.snapshotAt),
          countSessions(db, template.id, template.snapshotAt),
        ]),
      ([fields, counts]) => fields.length + counts.length,
    );
    const byKey = new Map(counts.map((row) => [row.placeholder_key, row]));
    return {
      templateId: template.id,
      templateName: template.name,
      totalSessions,
      collectingSince: template.snapshotAt.toISOString(),
      fields: fields.map((field) => {
        const key = placeholderKey(field.id);
        const stats = byKey.get(key);
        const reached = stats?.reached ?? 0;
        const completed = stats?.completed ?? 0;
        return {
          placeholderKey: key,
          fieldType: field.fieldType,
          pageNo: field.pageNo,
          label: field.label,
          reached,
          completed,
          dropOffRate: reached === 0 ? 0 : round((reached - completed) / reached, 4)!,
          lowSample: reached < LOW_SAMPLE_SESSIONS,
          confusionRecoveries: stats?.recoveries ?? 0,
        };
      }),
    };
  }
}

export type TemplateAnalyticsService = ReturnType<typeof createTemplateAnalyticsService>;

function completionOf(template: TemplateRow, counts: Awaited<ReturnType<typeof countByStatus>>): CompletionResponse {
  const other = counts.total - counts.completed - counts.void - counts.inProgress - counts.draft;
  return {
    templateId: template.id,
    templateName: template.name,
    completionRate: counts.total === 0 ? 0 : round(counts.completed / counts.total, 4)!,
    counts: { ...counts, other },
  };
}

function timeToSignOf(template: TemplateRow, row: Awaited<ReturnType<typeof timeToSignRow>>): TimeToSignResponse {
  return {
    templateId: template.id,
    templateName: template.name,
    sampleSize: row.n,
    avgHours: round(row.avg),
    medianHours: round(row.median),
    p90Hours: round(row.p90),
    distribution: {
      under1h: row.under1h,
      under1d: row.under1d,
      under3d: row.under3d,
      under7d: row.under7d,
      over7d: row.over7d,
    },
  };
}
