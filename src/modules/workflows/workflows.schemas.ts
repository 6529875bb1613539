import { Type, type Static } from 'typebox';
import { IdParam } from '../../http/schemas.ts';
import type { WorkflowRow } from './workflow-access.ts';

export const SEQUENCES = ['SELF', 'ORDERED', 'UNORDERED', 'SURVEY'] as const;
export type Sequence = (typeof SEQUENCES)[number];

export const WorkflowIdParams = Type.Object({ workflowId: IdParam });

export const RenameWorkflowBody = Type.Object({
  name: Type.String({
    minLength: 1,
    maxLength: 50,
    description: '1-50 characters; stored trimmed; whitespace-only is 400 INVALID_REQUEST_BODY',
  }),
});

const SequenceValue = Type.Enum(SEQUENCES, { description: 'SELF, ORDERED, UNORDERED or SURVEY' });

export const SequenceBody = Type.Object({ sequence: SequenceValue });

export const ReminderBody = Type.Object({
  enabled: Type.Boolean({ description: 'false turns reminders off and clears intervalDays and offsetMinutes' }),
  intervalDays: Type.Optional(
    Type.Union([Type.Number(), Type.Null()], { description: "whole days after a recipient's turn begins, 1-30" }),
  ),
  offsetMinutes: Type.Optional(
    Type.Union([Type.Number(), Type.Null()], {
      description: 'minutes after the recipient receives the document, 1-1439; when valid it wins over intervalDays',
    }),
  ),
});
export type ReminderBody = Static<typeof ReminderBody>;

export const ReminderResponse = Type.Object(
  {
    enabled: Type.Boolean(),
    intervalDays: Type.Union([Type.Integer(), Type.Null()]),
    offsetMinutes: Type.Union([Type.Integer(), Type.Null()]),
  },
  { description: 'The reminder configuration as stored' },
);

export const WorkflowSettingsResponse = Type.Object({
  workflowId: Type.Integer(),
  name: Type.String(),
  sequence: Type.String({ description: 'SELF, ORDERED, UNORDERED or SURVEY' }),
  signType: Type.String({ description: 'SELFSIGN, COUNTERSIGN or POWERSURVEY' }),
  status: Type.String(),
  reminder: ReminderResponse,
});

export function toReminderResponse(row: WorkflowRow): Static<typeof ReminderResponse> {
  return {
    enabled: row.reminderEnabled,
    intervalDays: row.reminderIntervalDays,
    offsetMinutes: row.reminderOffsetMinutes,
  };
}

export function toWorkflowSettingsResponse(row: WorkflowRow): Static<typeof WorkflowSettingsResponse> {
  return {
    workflowId: row.id,
    name: row.name,
    sequence: row.sequence,
    signType: row.signType,
    status: row.status,
    reminder: toReminderResponse(row),
  };
}
