import { Type } from 'typebox';
import { IdParam } from '../../http/schemas.ts';
import { historyTimeline, holderOf, visibleRecipients, type EnvelopeRecord } from './envelope-record.ts';
import { formatHistoryTime } from './history-time.ts';

export const WorkflowIdParams = Type.Object({ workflowId: IdParam });

export const HistoryQuery = Type.Object({
  locale: Type.Optional(
    Type.String({ maxLength: 35, description: 'Accepted and ignored: sentences are always English' }),
  ),
});

const TIME = 'YYYY-MM-DD HH:MM:SS in metadata.timeZone';

const Consent = Type.Object(
  {
    recipientName: Type.Optional(Type.String()),
    recipientEmail: Type.Optional(Type.String()),
    ipAddress: Type.Optional(
      Type.String({ description: "Omitted for a reader other than the owner unless the consent is the reader's own" }),
    ),
    accessChannel: Type.Optional(Type.String()),
    source: Type.Optional(Type.String()),
    evidence: Type.Optional(Type.String()),
    textHash: Type.Optional(Type.String({ description: 'SHA-256 of text' })),
    text: Type.Optional(Type.String({ description: 'The disclosure exactly as shown to the signer' })),
    userAgent: Type.Optional(
      Type.String({ description: "Omitted for a reader other than the owner unless the consent is the reader's own" }),
    ),
  },
  { additionalProperties: true, description: 'The electronic-signature disclosure acceptance' },
);

export const HistoryResponse = Type.Object({
  metadata: Type.Object({
    workFlowName: Type.String(),
    workflowId: Type.String({ description: 'The workflow id, as a string' }),
    dateCreated: Type.String({ description: TIME }),
    dateSent: Type.String({ description: `${TIME}; empty while DRAFT (and for a SELF workflow, which is never sent)` }),
    statusDate: Type.String({ description: `${TIME}: when the workflow last changed status` }),
    timeZone: Type.String({
      description: 'IANA time zone of every time in this response (UTC when the stored zone is unknown)',
    }),
    documentName: Type.Array(Type.String(), { description: 'Document names in workflow order' }),
    documentRecipients: Type.Array(
      Type.Object({
        documentName: Type.String(),
        recipients: Type.Array(Type.Object({ name: Type.String(), email: Type.String(), status: Type.String() }), {
          description: "The workflow's recipients (hidden assistant rows excluded)",
        }),
      }),
    ),
    status: Type.String(),
    holder: Type.String({
      description:
        'Whose turn it is: while SENT the dispatched action-required recipients who have not finished (comma-separated); while DRAFT the owner; otherwise empty',
    }),
    flowType: Type.String({ description: 'SELF, ORDERED, UNORDERED or SURVEY' }),
  }),
  activities: Type.Array(
    Type.Object({
      time: Type.String({ description: TIME }),
      userName: Type.String(),
      ipAddress: Type.String({
        description:
          "Address the action came from; empty when not recorded. The owner sees every row's; any other reader (a recipient, user or " +
          "signing-link token) only its own rows' (its recipient rows' actions, or its user's), and the empty string elsewhere",
      }),
      accessChannel: Type.String({ description: 'web, mobile or api' }),
      action: Type.String({
        description: 'Created, Sent, Opened, Signed, Approved, Declined, Delegated, Comment added, Completed, ...',
      }),
      activity: Type.String({ description: 'Readable English sentence' }),
      status: Type.String(),
      consent: Type.Union([Consent, Type.Null()], { description: 'Null except on the disclosure acceptance row' }),
    }),
    { description: 'Oldest first; one Created row (the first upload); assistant routing rows omitted' },
  ),
});

export function toHistoryResponse(record: EnvelopeRecord) {
  const { workflow, timeZone } = record;
  const recipients = visibleRecipients(record).map((r) => ({ name: r.name, email: r.email, status: r.status }));
  return {
    metadata: {
      workFlowName: workflow.name,
      workflowId: String(workflow.id),
      dateCreated: formatHistoryTime(workflow.createdAt, timeZone),
      dateSent: workflow.status === 'DRAFT' ? '' : formatHistoryTime(workflow.sentAt, timeZone),
      statusDate: formatHistoryTime(workflow.statusAt, timeZone),
      timeZone,
      documentName: record.documents.map((d) => d.name),
      documentRecipients: record.documents.map((d) => ({ documentName: d.name, recipients })),
      status: workflow.status,
      holder: holderOf(record),
      flowType: workflow.sequence,
    },
    activities: historyTimeline(record).map((a) => ({
      time: formatHistoryTime(a.createdAt, timeZone),
      userName: a.userName,
      ipAddress: a.ipAddress,
      accessChannel: a.accessChannel,
      action: a.action,
      activity: a.sentence,
      status: a.status,
      consent: (a.consent as Record<string, unknown> | null) ?? null,
    })),
  };
}
