/** Shapes of the service's answers the envelope editor reads (see docs/openapi.json). */
import type { Field as SigningField, Recipient as SigningRecipient } from '../signing/types.ts';

export const SEQUENCES = ['SELF', 'UNORDERED', 'ORDERED'] as const;
export type Sequence = (typeof SEQUENCES)[number] | 'SURVEY';

export const ROLES = ['SIGNER', 'APPROVER', 'CC'] as const;
export type Role = (typeof ROLES)[number];

/** One document of the workflow (GET /document/v1/docs-detail/{workflowId}): the workflow's list item plus the document. */
export type EnvelopeDocument = {
  id: number;
  workflowId: number;
  /** the workflow's name */
  name: string;
  documentName: string;
  status: string;
  sequence: Sequence;
  position: number;
  pages: number;
  size: number;
};

export type Recipient = SigningRecipient;

export const FIELD_TYPES = [
  'SIGNATURE',
  'INITIALS',
  'NAME',
  'EMAIL',
  'DATE',
  'TEXT',
  'TEXTAREA',
  'NUMBER',
  'CHECKBOX',
  'DROPDOWN',
  'IMAGE',
  'STAMP',
  'NOTE',
  'DIGITAL_SIGNATURE',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Every styling member the service stores (fields.schemas.ts STYLING_KEYS). */
export type Styling = {
  textColor?: string;
  fontFamily?: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strikethrough?: boolean;
  textAlign?: 'left' | 'center' | 'right';
  backgroundColor?: string;
  fontSize?: number;
  placeholder?: string;
  dateLang?: string;
  useAsLabel?: boolean;
};

export type Box = { x: number; y: number; width: number; height: number };

export type Field = Omit<SigningField, 'styling'> & { styling: Styling | null };

/** PUT /workflow/v1/{id}/reminder and the settings answers. */
export type Reminder = { enabled: boolean; intervalDays: number | null; offsetMinutes: number | null };

export type WorkflowSettings = {
  workflowId: number;
  name: string;
  sequence: Sequence;
  signType: string;
  status: string;
  reminder: Reminder;
};

/** The page size in points, as displayed (origin top-left): what field boxes are measured in. */
export type PageSize = { width: number; height: number };
