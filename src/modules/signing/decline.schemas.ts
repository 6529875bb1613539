import { Type, type Static } from 'typebox';
import { IdParam } from '../../http/schemas.ts';
import type { RecipientRow } from '../workflows/workflow-access.ts';

export const WorkflowIdParams = Type.Object({ workflowId: IdParam });

/** A reason is kept to what a person writes in a sentence or two, and is quoted in mails and history. */
export const DECLINE_REASON_MAX = 1000;

export const DeclineBody = Type.Object({
  reason: Type.String({
    maxLength: 4 * DECLINE_REASON_MAX,
    description: `why the recipient declines: 1-${DECLINE_REASON_MAX} characters after trimming (else 400 INVALID_REQUEST_BODY); stored trimmed`,
  }),
});
export type DeclineBody = Static<typeof DeclineBody>;

export const DeclineResponse = Type.Object({
  workflowId: Type.Integer(),
  status: Type.Literal('VOID'),
  recipientId: Type.Integer({ description: 'the recipient row that declined' }),
  reason: Type.String(),
  rejectedAt: Type.String({ format: 'date-time' }),
});

export const RejectionDetail = Type.Object({
  recipientId: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  role: Type.String({ description: 'SIGNER or APPROVER' }),
  reason: Type.String(),
  rejectedAt: Type.String({ format: 'date-time', description: 'ISO 8601 with offset (UTC)' }),
});

export const RejectionDetails = Type.Array(RejectionDetail, {
  description: 'oldest first; an ordinary workflow has at most one',
});

export function toRejectionDetail(row: RecipientRow): Static<typeof RejectionDetail> {
  return {
    recipientId: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    reason: row.declineReason ?? '',
    rejectedAt: (row.actedAt ?? row.createdAt).toISOString(),
  };
}
