/** Shapes of the API answers the workspace reads (the service's OpenAPI document is the reference). */

export type ListItem = {
  workflowId: number;
  documentCount: number;
  recipientCount: number;
  name: string;
  ownerName: string;
  ownerUserId: number;
  status: string;
  sequence: string;
  anyDigitalSignature: boolean;
  isPowerSurvey: boolean;
  isPowerSurveyChild: boolean;
  recipientId: number | null;
  recipientRole: string | null;
  enforceIdentity: boolean | null;
  folderId: number | null;
  dateCreated: string;
  dateSent: string | null;
};

export type ListPage = { content: ListItem[]; totalElements: number };

export type StatusCounts = {
  draftDocCount: number;
  pendingDocCount: number;
  sentDocCount: number;
  signedDocCount: number;
  completedDocCount: number;
  voidDocCount: number;
};

export type Folder = { id: number; folderName: string; documentsCount: number };

export type DocumentDetail = ListItem & {
  id: number;
  documentName: string;
  position: number;
  size: number;
  pages: number;
  isViewed: boolean;
};

export type Recipient = {
  id: number;
  name: string;
  emailAddress: string;
  recipientRole: string;
  recipientOrder: number | string | null;
  recipientColor: string;
  useDigitalCert: boolean;
  enforceIdentity: boolean;
  status: string;
};

export type History = {
  metadata: {
    workFlowName: string;
    workflowId: string;
    dateCreated: string;
    dateSent: string;
    statusDate: string;
    timeZone: string;
    documentName: string[];
    status: string;
    holder: string;
    flowType: string;
  };
  activities: {
    time: string;
    userName: string;
    ipAddress: string;
    accessChannel: string;
    action: string;
    activity: string;
    status: string;
    consent: unknown;
  }[];
};

export type Comment = {
  id: number;
  workflowId: number;
  fieldId: number | null;
  authorUserId: number;
  authorName: string;
  body: string;
  createdAt: string;
};

export type RejectionDetail = {
  recipientId: number;
  name: string;
  email: string;
  role: string;
  reason: string;
  rejectedAt: string;
};

export type SurveyChildren = {
  content: { workflowId: number; recipientName: string; recipientEmail: string; status: string }[];
  totalElements: number;
  completedCount: number;
  respondedCount: number;
  dispatchedCount: number;
};

export type DispatchProgress = { dispatchedCount: number; totalRecipients: number };
