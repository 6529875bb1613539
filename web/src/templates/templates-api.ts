/** The templates screens' calls and the shapes the service answers. */
import { query, type NumberedPage } from '../organization/org-api.ts';
import { api } from '../workspace/session-api.ts';

export type Template = {
  id: number;
  name: string;
  description: string;
  workflowId: number | null;
  folderId: number | null;
  recipientLabels: { order: number; label: string }[];
  reminderEnabled: boolean;
  reminderIntervalDays: number | null;
  createdAt: string;
  updatedAt: string;
};
export type TemplateBody = {
  name: string;
  description?: string;
  workflowId: number;
  folderId: number | null;
  recipientLabels: { order: number; label: string }[];
  reminderEnabled: boolean;
  reminderIntervalDays: number | null;
};
export type Folder = { id: number; name: string; parentFolderId: number | null; createdAt: string; children: Folder[] };
export type FolderAccess = { roleIds: number[]; overrideEnabled: boolean };
export type Slot = {
  id: number;
  name: string;
  emailAddress: string;
  role: string;
  order: number;
  label: string | null;
};
export type Override = { recipientIndex: number; name?: string; emailAddress?: string };

/** A workflow of the document list (the picker of a template's source). */
export type WorkflowItem = {
  workflowId: number;
  name: string;
  status: string;
  sequence: string;
  ownerUserId: number;
  recipientCount: number;
  documentCount: number;
  isPowerSurvey: boolean;
  isPowerSurveyChild: boolean;
  dateCreated: string;
};
export type WorkflowRecipient = {
  id: number;
  name: string;
  emailAddress: string;
  recipientRole: string;
  recipientOrder: number | null;
};

export type Completion = {
  templateId: number;
  templateName: string;
  completionRate: number;
  counts: { total: number; completed: number; void: number; inProgress: number; draft: number; other: number };
};
export type TimeToSign = {
  templateId: number;
  templateName: string;
  sampleSize: number;
  avgHours: number | null;
  medianHours: number | null;
  p90Hours: number | null;
  distribution: { under1h: number; under1d: number; under3d: number; under7d: number; over7d: number };
};
export type FullAnalytics = Completion & { timeToSign: TimeToSign };
export type DropOff = {
  templateId: number;
  templateName: string;
  totalSessions: number;
  collectingSince: string;
  fields: {
    placeholderKey: string;
    fieldType: string;
    pageNo: number;
    label: string | null;
    reached: number;
    completed: number;
    dropOffRate: number;
    lowSample: boolean;
    confusionRecoveries: number;
  }[];
};

export const templatesApi = {
  list: (q: { page: number; size: number; folderId?: number; searchValue?: string }) =>
    api.get<NumberedPage<Template>>(`/organization/v1/templates${query(q)}`),
  get: (id: number) => api.get<Template>(`/organization/v1/templates/${id}`),
  create: (body: TemplateBody) => api.post<Template>('/organization/v1/templates', body),
  rename: (id: number, name: string) => api.put<Template>('/organization/v1/rename/templates', { id, name }),
  move: (ids: number[], folderId: number | null) =>
    api.put<Template[]>('/organization/v1/templates/move', { ids, folderId }),
  clone: (id: number) => api.post<Template>(`/organization/v1/templates/${id}/clone`, {}),
  remove: (ids: number[]) => api.delete<void>(`/organization/v1/templates${query({ ids })}`),
  /** A DRAFT envelope made from the template; answers its id. */
  use: (id: number) => api.get<{ id: number }>(`/organization/v1/templates/${id}/use`),
  slots: (id: number) => api.get<Slot[]>(`/workflow/v1/templates/${id}/recipients`),
  dispatch: (id: number, overrides: Override[]) =>
    api.post<{ id: number }>(`/workflow/v1/templates/${id}/dispatch`, overrides),
  apply: (id: number, overrides: Override[]) =>
    api.post<{ id: number }>(`/workflow/v1/templates/${id}/apply`, overrides),

  tree: () => api.get<Folder[]>('/organization/v1/template-folders/tree'),
  createFolder: (name: string, parentFolderId: number | null) =>
    api.post<Folder>('/organization/v1/template-folders', { name, parentFolderId }),
  renameFolder: (id: number, name: string) => api.put<Folder>('/organization/v1/rename/template-folders', { id, name }),
  deleteFolder: (id: number) => api.delete<void>(`/organization/v1/template-folders${query({ ids: [id] })}`),
  folderAccess: (id: number) => api.get<FolderAccess>(`/organization/v1/template-folders/${id}/access`),
  setFolderAccess: (id: number, body: FolderAccess) =>
    api.put<FolderAccess>(`/organization/v1/template-folders/${id}/access`, body),

  analytics: (id: number) => api.get<FullAnalytics>(`/organization/v1/templates/${id}/analytics/full`),
  dropOff: (id: number) => api.get<DropOff>(`/workflow/v1/templates/${id}/field-drop-off`),

  workflows: (searchValue: string) =>
    api.get<{ content: WorkflowItem[]; totalElements: number }>(
      `/document/v1${query({ page: 0, size: 100, searchValue })}`,
    ),
  workflowRecipients: (workflowId: number) => api.get<WorkflowRecipient[]>(`/workflow/v1/${workflowId}/recipients`),
};

/**
 * A workflow's recipients in the order the service numbers a template's slots (recipientLabels[].order): by
 * recipientOrder, then by id; a delegated row is not a slot.
 */
export function slotOrder<R extends { id: number; recipientOrder: number | string | null; status?: string }>(
  recipients: R[],
): R[] {
  const order = (r: R) => (r.recipientOrder === null ? Number.MAX_SAFE_INTEGER : Number(r.recipientOrder));
  return recipients.filter((r) => r.status !== 'DELEGATED').sort((a, b) => order(a) - order(b) || a.id - b.id);
}
