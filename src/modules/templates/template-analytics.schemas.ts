import { Type, type Static } from 'typebox';
import { IdParam, Nullable } from '../../http/schemas.ts';

export const FIELD_EVENT_TYPES = [
  'SESSION_START',
  'FIELD_VIEWED',
  'FIELD_FOCUSED',
  'FIELD_GLANCED',
  'FIELD_FILLED',
  'SUBMITTED',
] as const;
export type FieldEventType = (typeof FIELD_EVENT_TYPES)[number];
/** Events past the first 1,000 of a request are skipped, not refused (RUNTIME.md "Limits and status codes"). */
export const MAX_EVENTS_PER_CALL = 1000;

const Counts = Type.Object({
  total: Type.Integer(),
  completed: Type.Integer({ description: 'COMPLETED and APPROVED' }),
  void: Type.Integer(),
  inProgress: Type.Integer({ description: 'SENT' }),
  draft: Type.Integer(),
  other: Type.Integer({ description: 'any other status' }),
});

export const CompletionResponse = Type.Object(
  {
    templateId: Type.Integer(),
    templateName: Type.String(),
    completionRate: Type.Number({ minimum: 0, maximum: 1, description: 'completed / total; 0 when total is 0' }),
    counts: Counts,
  },
  { description: 'Over the workflows made from the template (use, apply, dispatch) that are not deleted' },
);
export type CompletionResponse = Static<typeof CompletionResponse>;

const Hours = Nullable(Type.Number(), { description: 'hours, 2 decimals; null when sampleSize is 0' });
export const TimeToSignResponse = Type.Object(
  {
    templateId: Type.Integer(),
    templateName: Type.String(),
    sampleSize: Type.Integer({ description: 'finished (COMPLETED or APPROVED) workflows made from the template' }),
    avgHours: Hours,
    medianHours: Hours,
    p90Hours: Hours,
    distribution: Type.Object({
      under1h: Type.Integer(),
      under1d: Type.Integer({ description: '1 h to under 24 h' }),
      under3d: Type.Integer({ description: '1 d to under 3 d' }),
      under7d: Type.Integer({ description: '3 d to under 7 d' }),
      over7d: Type.Integer({ description: '7 d or more' }),
    }),
  },
  { description: 'The interval of a workflow is from when it was sent to when it was completed' },
);
export type TimeToSignResponse = Static<typeof TimeToSignResponse>;

export const FullAnalyticsResponse = Type.Object({ ...CompletionResponse.properties, timeToSign: TimeToSignResponse });

export const DropOffResponse = Type.Object({
  templateId: Type.Integer(),
  templateName: Type.String(),
  fields: Type.Array(
    Type.Object({
      placeholderKey: Type.String({ description: 'the template field (stable for one snapshot)' }),
      fieldType: Type.String(),
      pageNo: Type.Integer(),
      label: Nullable(Type.String()),
      reached: Type.Integer({ description: 'sessions in which the signer viewed, focused or filled the field' }),
      completed: Type.Integer({ description: 'sessions in which the signer filled it' }),
      dropOffRate: Type.Number({ description: '(reached - completed) / reached; 0 when reached is 0' }),
      lowSample: Type.Boolean({ description: 'reached is under 20 sessions: the rate is not yet meaningful' }),
      confusionRecoveries: Type.Integer({
        description: 'sessions in which the signer passed over the field (a glance) and filled it later',
      }),
    }),
    { description: "the fields of the template's current snapshot, in document, page and creation order" },
  ),
  totalSessions: Type.Integer({
    description: 'signing sessions (session id and recipient row) with any event since collectingSince',
  }),
  collectingSince: Type.String({
    format: 'date-time',
    description: 'when the current snapshot was taken (creation, or an update with overwrite)',
  }),
});
export type DropOffResponse = Static<typeof DropOffResponse>;

export const FieldEventsBody = Type.Object(
  {
    sessionId: Type.String({ minLength: 1, maxLength: 100, description: "the signing page's session (one page load)" }),
    workflowId: IdParam,
    documentId: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: 2147483647 }), Type.Null()], {
        description: 'the document the events are about; a field event naming a field of another document is skipped',
      }),
    ),
    events: Type.Array(
      Type.Unknown({
        description:
          '{fieldId, type, at}: fieldId the field (not needed for SESSION_START and SUBMITTED, ignored when sent), type one of SESSION_START, FIELD_VIEWED, FIELD_FOCUSED, FIELD_GLANCED, FIELD_FILLED, SUBMITTED, at an ISO 8601 UTC timestamp',
      }),
      { description: `the first ${MAX_EVENTS_PER_CALL} are considered; the rest count as skipped` },
    ),
  },
  {
    description: 'A body that is not this object is not refused: it ingests nothing (202, its events, if any, skipped)',
  },
);
export type FieldEventsBody = Static<typeof FieldEventsBody>;

export const FieldEventsResponse = Type.Object({
  ingested: Type.Integer({ description: 'well-formed events accepted (a repeat within a session is stored once)' }),
  skipped: Type.Integer({ description: 'malformed events, and events the caller may not report' }),
});

export const TemplateIdParams = Type.Object({ templateId: IdParam });
