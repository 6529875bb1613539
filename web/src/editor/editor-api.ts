/**
 * The envelope editor's calls to the service, over the web session (workspace/session-api.ts). Each is one
 * endpoint of SPEC.md's Documents, Workflow settings, Recipients, Fields and Sending sections.
 */
import { api, ApiError } from '../workspace/session-api.ts';
import type { CeremonyResult, Disclosure, SigningKeyStatus } from '../signing/types.ts';
import type {
  Box,
  EnvelopeDocument,
  Field,
  FieldType,
  Recipient,
  Reminder,
  Role,
  Sequence,
  Styling,
  WorkflowSettings,
} from './types.ts';

export type UploadAnswer = { id: number; workflowId: number; thumbnailBase64: string };

/** The workflow's documents, in their order. */
export async function loadDocuments(workflowId: number): Promise<EnvelopeDocument[]> {
  const list = await api.get<EnvelopeDocument[]>(`/document/v1/docs-detail/${workflowId}`);
  return list.slice().sort((a, b) => a.position - b.position);
}

/**
 * POST /document/v1: a new DRAFT workflow (no workflowId; `sequence` decides SELF or not) or one more document
 * appended to a draft. The browser's time zone names the workflow's (history times).
 */
export function uploadDocument(
  file: File,
  target: { workflowId?: number; sequence?: Sequence },
  onProgress: (fraction: number) => void,
): Promise<UploadAnswer> {
  const query = new URLSearchParams();
  if (target.workflowId !== undefined) query.set('workflowId', String(target.workflowId));
  else if (target.sequence) query.set('sequence', target.sequence);
  const form = new FormData();
  const zone = browserTimeZone();
  if (zone && target.workflowId === undefined) form.append('timeZone', zone);
  form.append('file', file, file.name);
  const search = query.toString();
  return api.upload<UploadAnswer>(`/document/v1${search ? `?${search}` : ''}`, form, onProgress);
}

/** PUT /document/v1/{docId} multipart: the document's PDF replaced (DRAFT, PDF only); name, position and fields stay. */
export function replaceDocument(
  documentId: number,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<unknown> {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.upload(`/document/v1/${documentId}`, form, onProgress, 'PUT');
}

/** DELETE /document/v1 {ids}: the document and its fields; a draft left without documents is deleted with it. */
export function removeDocument(
  documentId: number,
): Promise<{ deletedDocumentIds: number[]; deletedWorkflowIds: number[] }> {
  return api.delete(`/document/v1`, { ids: [documentId] });
}

/** PUT /document/v1/{workflowId}/change-sequence: every document named once, in the new order. */
export async function reorderDocuments(workflowId: number, documentIds: number[]): Promise<EnvelopeDocument[]> {
  const list = await api.put<EnvelopeDocument[]>(
    `/document/v1/${workflowId}/change-sequence`,
    documentIds.map((documentId, order) => ({ documentId, order })),
  );
  return list.slice().sort((a, b) => a.position - b.position);
}

/**
 * The workflow's settings (sequence, status, reminder). The API has no read of the reminder configuration: a
 * sequence change to the sequence it already has changes nothing and answers the settings (workflows.service.ts
 * changeSequence returns early), so that is the read. DRAFT only, which is all the editor edits.
 */
export function loadSettings(workflowId: number, sequence: Sequence): Promise<WorkflowSettings> {
  return api.put<WorkflowSettings>(`/workflow/v1/${workflowId}`, { sequence });
}

export function changeSequence(workflowId: number, sequence: Sequence): Promise<WorkflowSettings> {
  return api.put<WorkflowSettings>(`/workflow/v1/${workflowId}`, { sequence });
}

export function renameWorkflow(workflowId: number, name: string): Promise<WorkflowSettings> {
  return api.put<WorkflowSettings>(`/workflow/v1/rename/${workflowId}`, { name });
}

export function configureReminder(
  workflowId: number,
  reminder: { enabled: boolean; intervalDays?: number | null; offsetMinutes?: number | null },
): Promise<Reminder> {
  return api.put<Reminder>(`/workflow/v1/${workflowId}/reminder`, reminder);
}

export function loadRecipients(workflowId: number): Promise<Recipient[]> {
  return api.get<Recipient[]>(`/workflow/v1/${workflowId}/recipients`);
}

/** What the editor sends for a recipient; `recipientPassword` undefined keeps the stored one on update, '' removes it. */
export type RecipientInput = {
  name: string;
  emailAddress: string;
  recipientRole: Role;
  recipientColor: string;
  recipientOrder?: number | null;
  useDigitalCert: boolean;
  enforceIdentity: boolean;
  recipientPassword?: string;
};

export function addRecipients(workflowId: number, entries: RecipientInput[]): Promise<Recipient[]> {
  return api.post<Recipient[]>(`/workflow/v1/${workflowId}/recipients`, entries);
}

export function updateRecipients(
  workflowId: number,
  entries: (RecipientInput & { id: number })[],
): Promise<Recipient[]> {
  return api.put<Recipient[]>(`/workflow/v1/${workflowId}/recipients`, entries);
}

export function removeRecipient(workflowId: number, recipientId: number): Promise<void> {
  return api.delete(`/workflow/v1/${workflowId}/recipients/${recipientId}`);
}

export function loadFields(workflowId: number): Promise<Field[]> {
  return api.get<Field[]>(`/workflow/v1/${workflowId}/all-fields`);
}

/** What a create or update sends: everything the editor sets, so an update is a plain replacement. */
export type FieldInput = {
  recipientId: number | null;
  pageNo: number;
  box: Box;
  fieldType: FieldType;
  fieldRequired: boolean;
  label: string | null;
  styling: Styling | null;
  options: string[] | null;
};

export function fieldInput(field: Field): FieldInput {
  return {
    recipientId: field.recipientId,
    pageNo: field.pageNo,
    box: field.box,
    fieldType: field.fieldType as FieldType,
    fieldRequired: field.fieldRequired,
    label: field.label,
    styling: field.styling && Object.keys(field.styling).length > 0 ? field.styling : null,
    options: field.fieldType === 'DROPDOWN' ? field.options : null,
  };
}

export function createField(documentId: number, input: FieldInput): Promise<Field> {
  return api.post<Field>(`/workflow/v1/${documentId}/fields`, input);
}

export function updateField(documentId: number, fieldId: number, input: FieldInput): Promise<Field> {
  return api.put<Field>(`/workflow/v1/${documentId}/fields/${fieldId}`, input);
}

export function deleteField(workflowId: number, fieldId: number): Promise<void> {
  return api.delete(`/workflow/v1/${workflowId}/fields/${fieldId}`);
}

export type CommenceAnswer = { workflowId: number; status: string; dispatchedRecipientIds: number[] };

export function commence(workflowId: number, body: { title: string; message: string }): Promise<CommenceAnswer> {
  return api.post<CommenceAnswer>(`/workflow/v1/${workflowId}/commence`, body);
}

/** The owner's own values on a SELF workflow (the signing ceremony, with the session). */
export function saveValues(documentId: number, entries: Record<string, unknown>[]): Promise<CeremonyResult> {
  return api.post<CeremonyResult>(`/workflow/v1/${documentId}/fields/save`, entries);
}

/** Whether the caller's row signs DIGITAL_SIGNATURE fields with a personal certificate, and whether its key exists. */
export function loadSigningKey(workflowId: number): Promise<SigningKeyStatus> {
  return api.get<SigningKeyStatus>(`/workflow/v1/${workflowId}/signing-key`);
}

export function loadDisclosure(): Promise<Disclosure> {
  return api.get<Disclosure>('/workflow/v1/signing/disclosure');
}

function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/**
 * Where a rejected request's problem sits: the service names it in `responseBody` as `{index, field}` (its
 * own rules) or as a list of schema issues `[{path: "/0/emailAddress"}]` (body validation).
 */
export type ErrorPlace = { index: number | null; field: string | null; path: string[] };

export function errorPlace(error: unknown): ErrorPlace {
  const none: ErrorPlace = { index: null, field: null, path: [] };
  if (!(error instanceof ApiError)) return none;
  const body = error.responseBody as unknown;
  if (Array.isArray(body)) {
    const issue = body.find(
      (item) => item && typeof item === 'object' && typeof (item as { path?: unknown }).path === 'string',
    ) as { path: string } | undefined;
    if (!issue) return none;
    const segments = issue.path.split('/').filter(Boolean);
    const index = segments.length > 0 && /^\d+$/.test(segments[0]) ? Number(segments.shift()) : null;
    return { index, field: segments[0] ?? null, path: segments };
  }
  if (body && typeof body === 'object') {
    const place = body as { index?: unknown; field?: unknown };
    const field = typeof place.field === 'string' ? place.field : null;
    return { index: typeof place.index === 'number' ? place.index : null, field, path: field ? [field] : [] };
  }
  return none;
}

/** The human sentence of a failed call (the service's errorDescription, with its detail when it has one). */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const detail = (error.responseBody as { detail?: unknown } | null | undefined)?.detail;
    return typeof detail === 'string' && detail !== error.message ? `${error.message}: ${detail}` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

export function errorCode(error: unknown): string | null {
  return error instanceof ApiError ? error.code : null;
}
