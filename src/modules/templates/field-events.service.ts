import { Value } from 'typebox/value';
import { AppError } from '../../errors.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { Db } from '../../platform/db/client.ts';
import { findWorkflowForCaller, type WorkflowAccess } from '../workflows/workflow-access.ts';
import {
  countEventsOfRecipient,
  findEventFields,
  insertFieldEvents,
  isDocumentOf,
  type EventField,
  type NewFieldEvent,
} from './template-analytics.repo.ts';
import {
  FIELD_EVENT_TYPES,
  FieldEventsBody,
  MAX_EVENTS_PER_CALL,
  type FieldEventType,
} from './template-analytics.schemas.ts';

/** Events stamped later than this past the server's clock are from the future (a little skew is tolerated). */
export const FUTURE_SKEW_MS = 60_000;
/** The most events kept per recipient row: telemetry must not let one signing link fill the database. */
export const MAX_EVENTS_PER_RECIPIENT = 5000;

// An ISO 8601 timestamp in UTC: Z or a zero offset.
const UTC_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]00:?00)$/;
const SESSION_TYPES: readonly FieldEventType[] = ['SESSION_START', 'SUBMITTED'];

type Candidate = { fieldId: number | null; type: FieldEventType; at: Date };

/** One event's own shape: an object with a known type, a UTC `at` not in the future, and a fieldId that fits the type. */
function parseEvent(raw: unknown, now: number): Candidate | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const { fieldId, type, at } = raw as Record<string, unknown>;
  if (typeof type !== 'string' || !(FIELD_EVENT_TYPES as readonly string[]).includes(type)) return null;
  if (typeof at !== 'string' || !UTC_TIMESTAMP.test(at)) return null;
  const time = new Date(at);
  if (Number.isNaN(time.getTime()) || time.getTime() > now + FUTURE_SKEW_MS) return null;
  // A session event is about no field: a fieldId sent with one is not needed and not kept (RUNTIME.md).
  if (SESSION_TYPES.includes(type as FieldEventType)) return { fieldId: null, type: type as FieldEventType, at: time };
  if (typeof fieldId !== 'number' || !Number.isInteger(fieldId) || fieldId < 1 || fieldId > 2147483647) return null;
  return { fieldId, type: type as FieldEventType, at: time };
}

/**
 * The workflow as the caller reaches it everywhere else (visibility, a business app's organization, the recipient
 * password), or null where any other call would be refused: telemetry answers the same for a workflow the caller
 * may not reach as for one that does not exist.
 */
async function reachedWorkflow(db: Db, caller: Caller, workflowId: number): Promise<WorkflowAccess | null> {
  return findWorkflowForCaller(db, caller, workflowId).catch((error: unknown) => {
    if (error instanceof AppError) return null;
    throw error;
  });
}

/**
 * POST /workflow/v1/field-events (SPEC.md "Events", 2): signing telemetry for template drop-off. Events count
 * against the caller's own recipient row of a workflow it may see (workflow-access.ts: a signing-link token's row, or
 * a user's own row; a business app's token holds none); each malformed or foreign event is skipped, never the call:
 * wrong shape or type, a timestamp that is not UTC or lies in the future or before the workflow existed, a field that
 * is not the workflow's, not on the named document, or assigned to another recipient. A workflow the caller cannot
 * reach, or holds no acting row of, skips every event, exactly as an unknown id does.
 */
export function createFieldEventService({ db }: { db: Db }) {
  return { ingest };

  /**
   * SPEC.md: always 202 {ingested, skipped}. The body is read here rather than refused by the route's schema: one that
   * is not the documented object ingests nothing, and events past the first MAX_EVENTS_PER_CALL count as skipped.
   */
  async function ingest(caller: Caller, raw: unknown): Promise<{ ingested: number; skipped: number }> {
    const sent =
      typeof raw === 'object' && raw !== null && Array.isArray((raw as { events?: unknown }).events)
        ? (raw as { events: unknown[] }).events
        : [];
    const all = { ingested: 0, skipped: sent.length };
    if (!Value.Check(FieldEventsBody, raw)) return all;
    const body = raw;
    const access = await reachedWorkflow(db, caller, body.workflowId);
    const recipient = access?.recipient;
    if (!access || !recipient || recipient.status === 'DELEGATED' || access.workflow.status === 'DRAFT') return all;
    const target = {
      workflowId: access.workflow.id,
      createdAt: access.workflow.createdAt,
      templateId: access.workflow.templateId,
      recipientId: recipient.id,
    };

    const now = Date.now();
    const parsed = body.events
      .slice(0, MAX_EVENTS_PER_CALL)
      .map((event) => parseEvent(event, now))
      .map((event) => (event && event.at.getTime() >= target.createdAt.getTime() - FUTURE_SKEW_MS ? event : null));
    const fieldIds = [...new Set(parsed.flatMap((event) => (event?.fieldId ? [event.fieldId] : [])))];
    const fields = new Map((await findEventFields(db, target.workflowId, fieldIds)).map((field) => [field.id, field]));
    const documentId =
      body.documentId && (await isDocumentOf(db, target.workflowId, body.documentId)) ? body.documentId : null;

    const fits = (field: EventField | undefined): field is EventField =>
      field !== undefined &&
      (field.recipientId === null || field.recipientId === target.recipientId) &&
      (!body.documentId || field.documentId === body.documentId);
    const rows: NewFieldEvent[] = [];
    for (const event of parsed) {
      if (!event) continue;
      const field = event.fieldId === null ? null : fields.get(event.fieldId);
      if (field !== null && !fits(field)) continue;
      rows.push({
        sessionId: body.sessionId,
        workflowId: target.workflowId,
        recipientId: target.recipientId,
        type: event.type,
        at: event.at,
        fieldId: field?.id ?? null,
        documentId: field?.documentId ?? documentId,
        templateId: target.templateId,
        placeholderKey: field?.placeholderKey ?? null,
      });
    }
    if (rows.length === 0) return all;
    if ((await countEventsOfRecipient(db, target.recipientId)) + rows.length > MAX_EVENTS_PER_RECIPIENT) return all;
    await insertFieldEvents(db, rows);
    return { ingested: rows.length, skipped: body.events.length - rows.length };
  }
}

export type FieldEventService = ReturnType<typeof createFieldEventService>;
