/** Shapes of the service's answers that the signing page reads (see docs/openapi.json). */

export type DocumentItem = {
  id: number;
  workflowId: number;
  documentName: string;
  name: string;
  ownerName: string;
  status: string;
  sequence: string;
  pages: number;
  position: number;
  recipientId: number | null;
  recipientRole: string | null;
  enforceIdentity: boolean | null;
};

export type Recipient = {
  id: number;
  name: string;
  emailAddress: string;
  recipientRole: 'SIGNER' | 'APPROVER' | 'CC';
  recipientOrder: string | null;
  recipientColor: string;
  useDigitalCert: boolean;
  enforceIdentity: boolean;
  status: string;
};

export type FieldStyling = {
  dateLang?: string;
  placeholder?: string;
  backgroundColor?: string;
  textColor?: string;
} | null;

export type Field = {
  id: number;
  documentId: number;
  workflowId: number;
  recipientId: number | null;
  pageNo: number;
  box: { x: number; y: number; width: number; height: number };
  fieldType: string;
  fieldRequired: boolean;
  label: string | null;
  value: string | null;
  signatureAssetId: number | null;
  styling: FieldStyling;
  options: string[] | null;
};

export type Comment = { id: number; fieldId: number | null; authorName: string; body: string; createdAt: string };

export type Overview = {
  workflowId: number;
  name: string;
  title: string | null;
  message: string | null;
  ownerName: string;
  status: string;
  sequence: string;
  sealStatus: string;
};

/** The electronic-signature disclosure in `lang`; its textHash goes with each act (X-Disclosure-SHA256, shared/api.ts). */
export type Disclosure = { lang: string; text: string; textHash: string };

export type CeremonyResult = {
  workflowId: number;
  recipientId: number;
  recipientStatus: string;
  workflowStatus: string;
  sealStatus: string;
  savedFieldIds: number[];
};

/** What the page holds for one of the signer's fields before it is saved: the value, and for DIGITAL_SIGNATURE the password. */
export type Draft = {
  value: string | boolean | null;
  password?: string;
  /** The repeated signing password, when it creates the signer's key (first use). */
  passwordConfirm?: string;
  /** The signed-in user's library entry the image came from (SIGNATURE, INITIALS, STAMP). */
  signatureAssetId?: number;
  /** a problem found on this device (an unreadable image) */
  error?: string;
};

/** GET /workflow/v1/{workflowId}/signing-key: whether this row signs with a personal certificate, and whether its key exists. */
export type SigningKeyStatus = {
  useDigitalCert: boolean;
  /** false: the platform may not certify this address for this signer yet (an unconfirmed account, a link it did not mail). */
  certifiable?: boolean;
  provisioned: boolean;
  minPasswordLength: number;
};

/** A new signing key through a code the platform mails (a locked or forgotten signing password). */
export type SigningKeyReset = {
  requestCode(): Promise<void>;
  reset(code: string, password: string): Promise<void>;
};

/** An entry of the signed-in user's signature library (GET /user/v1/settings/signatures/library, web session). */
export type LibraryEntry = {
  id: number;
  kind: 'SIGNATURE' | 'INITIALS' | 'STAMP';
  name: string;
  image: string;
  isDefault: boolean;
};

/** What the field rules need to know about the signer beyond the field itself. */
export type SignerContext = { signingKey: SigningKeyStatus | null; keyReset?: SigningKeyReset };
