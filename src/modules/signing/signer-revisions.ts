/**
 * Signer revisions: each DIGITAL_SIGNATURE a signer makes becomes that signer's PAdES signature in its own
 * incremental update of the document ("working revision"); the seal job later starts from the newest one and
 * appends the platform seal last. Earlier bytes are never rewritten, so earlier signatures stay valid.
 *
 * A revision is made in two steps, both inside the caller's transaction (the workflow row is locked here too,
 * so revisions of one workflow never interleave):
 *
 * 1. `prepareSignerRevision(tx, deps, {workflowId, documentId, fieldId, recipient, signer, appearance?})`
 *    takes the working revision (or the uploaded PDF), draws onto it the saved values not drawn yet (the
 *    signer's own, those of recipients who have finished, and this field's `appearance`), lays out the
 *    signature update with the signer's certificate and answers `{revisionId, hash, pending}`: `hash` is the
 *    SHA-256 of the CMS signed attributes, what the key signs (CSC `signatures/signHash` gets it as
 *    `hashes`, with `signAlgo` ecdsa-with-SHA256 or sha256WithRSAEncryption as the certificate's key
 *    implies). The laid-out revision is stored (blob + a PENDING `signer_revisions` row holding `pending`,
 *    plain JSON), so the signature value may arrive in a later request, from any instance.
 * 2. `completeSignerRevision(tx, deps, {workflowId, revisionId, signatureValue})` checks the value against
 *    the prepared signed attributes and the certificate (a signature over another hash is refused with 422
 *    SIGNER_SIGNATURE_MISMATCH and nothing is appended), checks that nobody appended a revision to the document
 *    meanwhile (409 SIGNER_REVISION_STALE: prepare again), puts the CMS into the revision, stores it as the
 *    document's working revision and writes the drawn appearance into the field's value (filledAt now).
 *    Finishing the recipient (the ceremony's finish check) stays with the caller.
 *
 * Who may sign is the caller's decision (the acting recipient of the ceremony, its turn, identity, plan), made
 * before either step; these functions check only that the field is that recipient's DIGITAL_SIGNATURE on that
 * document, not yet signed, and that the document is not sealed.
 *
 * A remote (CSC) signer: in `POST .../sign/csc` call step 1 with `signer` = the credential's certificate and
 * chain (`credentials/info`), send `hash` (base64) to the provider, keep `revisionId` with the authorization
 * state; in `POST .../signature/csc` call step 2 with the value `signatures/signHash` returned (ECDSA as DER
 * Ecdsa-Sig-Value or raw r||s; RSA PKCS#1 v1.5). Several documents under one authorization: prepare each, and
 * complete them all in one transaction (all or none). A signer whose key is here (the local certificates of
 * `useDigitalCert` recipients) uses `appendLocalSignerRevision`, which does both steps in memory.
 */
import crypto from 'node:crypto';
import { displayedDate } from './field-dates.ts';
import type { webcrypto } from 'node:crypto';
import { AppError } from '../../errors.ts';
import type { DbOrTx, Tx } from '../../platform/db/client.ts';
import type { BlobStore } from '../../platform/storage/blob-store.ts';
import { appendSignatureTo, completeSignature, prepareSignature } from '../../platform/signing/append-signature.ts';
import { localKeySigner, remoteHashSigner } from '../../platform/signing/pdf-signer.ts';
import { IncrementalPdf } from '../../platform/pdf/incremental-update.ts';
import { stampFieldsInto, type StampField } from '../../platform/pdf/stamp-fields.ts';
import { certificateSerialHex, signatureValueForCms } from '../../platform/crypto/signer-certificate.ts';
import {
  findDocumentsInOrder,
  findFieldsOfWorkflow,
  findRecipientsById,
  lockWorkflowRow,
  setFieldValue,
  type FieldRow,
} from './signing.repo.ts';
import {
  deletePendingRevisions,
  deletePendingRevisionsOfField,
  findCompletedRevisions,
  hasCompletedRevisionOf,
  findRevision,
  findWorkingRevision,
  insertRevision,
  markRevisionCompleted,
  type SignerRevisionRow,
} from './signer-revisions.repo.ts';

export type SignerRevisionDeps = { blobs: BlobStore };

/** The signer's certificate and its issuers (nearest first), embedded in the CMS. */
export type SignerCertificate = { certificateDer: Uint8Array; chainDer: Uint8Array[] };

export type PrepareSignerRevisionInput = {
  workflowId: number;
  documentId: number;
  /** The DIGITAL_SIGNATURE field being signed; it must be on `documentId` and belong to `recipient`. */
  fieldId: number;
  recipient: { id: number; name: string; email: string };
  signer: SignerCertificate;
  /**
   * What the field shows: a data-URL PNG or text. Omitted: the field's stored value, else the text
   * "Digitally signed by <name>", the email and the date.
   */
  appearance?: string;
};

/** The JSON a PENDING revision keeps (also answered by prepareSignerRevision); the revision bytes are the blob. */
export type PendingSignerRevision = {
  revisionId: number;
  workflowId: number;
  documentId: number;
  fieldId: number;
  recipientId: number;
  baseRevisionId: number | null;
  revisionBlobKey: string;
  contentsAt: number;
  reserve: number;
  /** base64 DER of the CMS signed attributes, and base64 SHA-256 of them (what is signed). */
  signedAttributes: string;
  hashToSign: string;
  certificate: string;
  chain: string[];
  appearance: string;
  signerName: string;
  /** SHA-256 (hex) of each other value drawn, by field id: a value changed before completion makes the preparation stale. */
  drawnValues: Record<string, string>;
};

export type PreparedSignerRevision = { revisionId: number; hash: Uint8Array; pending: PendingSignerRevision };

export type CompletedSignerRevision = {
  revisionId: number;
  documentId: number;
  fieldId: number;
  blobKey: string;
  size: number;
  certificateSerial: string;
};

const FINISHED = new Set(['SIGNED', 'APPROVED']);
export const SIGNER_REASON = 'Signed with a personal signing certificate';

/** Step 1 (see the top of this file): lays the revision out and stores it as PENDING. */
export async function prepareSignerRevision(
  tx: Tx,
  deps: SignerRevisionDeps,
  input: PrepareSignerRevisionInput,
): Promise<PreparedSignerRevision> {
  const layout = await layOutRevision(tx, deps, input);
  const pending = await prepareSignature(
    layout.file,
    remoteHashSigner(input.signer, signatureDetails(input.recipient)),
  );
  await deletePendingRevisionsOfField(tx, input.fieldId);
  const stored = await deps.blobs.put(pending.revision);
  const certificate = b64(input.signer.certificateDer);
  const data = {
    workflowId: input.workflowId,
    documentId: input.documentId,
    fieldId: input.fieldId,
    recipientId: input.recipient.id,
    baseRevisionId: layout.baseRevisionId,
    revisionBlobKey: stored.key,
    contentsAt: pending.contentsAt,
    reserve: pending.reserve,
    signedAttributes: b64(pending.signedAttributes),
    hashToSign: b64(pending.hashToSign),
    certificate,
    chain: input.signer.chainDer.map(b64),
    appearance: layout.appearance,
    signerName: input.recipient.name,
    drawnValues: layout.drawnValues,
  };
  const row = await insertRevision(tx, {
    workflowId: input.workflowId,
    documentId: input.documentId,
    fieldId: input.fieldId,
    recipientId: input.recipient.id,
    status: 'PENDING',
    signerKind: 'REMOTE_HASH',
    baseRevisionId: layout.baseRevisionId,
    blobKey: stored.key,
    size: stored.size,
    drawnFieldIds: layout.drawnFieldIds,
    pending: data,
    certificateSerial: certificateSerialHex(input.signer.certificateDer),
  });
  return { revisionId: row.id, hash: pending.hashToSign, pending: { revisionId: row.id, ...data } };
}

/** Step 2 (see the top of this file): the signature value into the prepared revision, which becomes the working one. */
export async function completeSignerRevision(
  tx: Tx,
  deps: SignerRevisionDeps,
  input: { workflowId: number; revisionId: number; signatureValue: Uint8Array },
): Promise<CompletedSignerRevision> {
  await lockWorkflowRow(tx, input.workflowId);
  const row = await findRevision(tx, input.revisionId);
  if (!row || row.workflowId !== input.workflowId || row.status !== 'PENDING' || !row.pending) {
    throw new AppError('NOT_FOUND', `No prepared signature ${input.revisionId} waits in this workflow`);
  }
  const pending = row.pending as Omit<PendingSignerRevision, 'revisionId'>;
  await assertStillCurrent(tx, row.documentId, pending.baseRevisionId);
  // The revision shows the values as they were when it was laid out; one changed since would be signed unseen.
  const now = new Map((await findFieldsOfWorkflow(tx, input.workflowId)).map((f) => [String(f.id), f.value]));
  if (Object.entries(pending.drawnValues).some(([id, hash]) => valueHash(now.get(id) ?? null) !== hash)) {
    throw new AppError(
      'SIGNER_REVISION_STALE',
      'A value shown in the prepared document changed after it was prepared; prepare it again',
    );
  }
  const signer = remoteHashSigner(
    { certificateDer: unb64(pending.certificate), chainDer: pending.chain.map(unb64) },
    { signerName: pending.signerName, reason: SIGNER_REASON },
  );
  const signedAttributes = unb64(pending.signedAttributes);
  const value = signatureValueForCms(signer.certificateDer, signedAttributes, input.signatureValue);
  if (!value)
    throw new AppError(
      'SIGNER_SIGNATURE_MISMATCH',
      "The signature value does not verify against the prepared hash and the signer's certificate; nothing was appended",
    );
  const revision = await deps.blobs.get(pending.revisionBlobKey);
  const signed = await completeSignature(
    {
      revision,
      contentsAt: pending.contentsAt,
      reserve: pending.reserve,
      signedAttributes,
      hashToSign: unb64(pending.hashToSign),
    },
    signer,
    value,
  );
  return storeCompleted(tx, deps, row, signed, pending.appearance);
}

/**
 * Both steps at once for a key held here (a `useDigitalCert` signer's unwrapped key): lay out, sign, complete,
 * store. Nothing PENDING is left behind.
 */
export async function appendLocalSignerRevision(
  tx: Tx,
  deps: SignerRevisionDeps,
  input: PrepareSignerRevisionInput & { privateKey: webcrypto.CryptoKey },
): Promise<CompletedSignerRevision> {
  const signer = localKeySigner({ ...input.signer, privateKey: input.privateKey }, signatureDetails(input.recipient));
  const layout = await layOutRevision(tx, deps, input);
  // Signed on the same parse as the drawing and stored as its parts: no 20 MB join, one SHA-256 in all.
  const signed = await appendSignatureTo(layout.file, signer);
  const stored = await deps.blobs.put(signed.hashedParts());
  const now = new Date();
  const row = await insertRevision(tx, {
    workflowId: input.workflowId,
    documentId: input.documentId,
    fieldId: input.fieldId,
    recipientId: input.recipient.id,
    status: 'COMPLETED',
    signerKind: 'LOCAL_KEY',
    baseRevisionId: layout.baseRevisionId,
    blobKey: stored.key,
    size: stored.size,
    drawnFieldIds: layout.drawnFieldIds,
    certificateSerial: certificateSerialHex(input.signer.certificateDer),
    completedAt: now,
  });
  await setFieldValue(tx, row.fieldId, layout.appearance, now, null);
  return completedOf(row);
}

/**
 * What the seal job starts from: the newest signed revision of the document (null: none, start from the
 * upload) and the fields already drawn into it.
 */
export async function findSignedRevision(
  db: DbOrTx,
  documentId: number,
): Promise<{ blobKey: string; drawnFieldIds: Set<number> } | null> {
  const rows = await findCompletedRevisions(db, documentId);
  if (rows.length === 0) return null;
  return { blobKey: rows[rows.length - 1].blobKey, drawnFieldIds: drawnIn(rows) };
}

/** Whether the recipient row has signed a revision of a document (its signed values are then part of it). */
export async function hasSignedRevision(tx: DbOrTx, recipientId: number): Promise<boolean> {
  return hasCompletedRevisionOf(tx, recipientId);
}

/** Fields of the workflow that a signed revision has drawn: their values are signed and may not change. */
export async function findDrawnFieldIds(tx: Tx, documentIds: number[]): Promise<Set<number>> {
  const drawn = new Set<number>();
  for (const documentId of documentIds)
    for (const id of drawnIn(await findCompletedRevisions(tx, documentId))) drawn.add(id);
  return drawn;
}

/** The values the seal still has to draw (stamp-fields' input), given a document's fields and what is drawn. */
export function stampsFor(fields: FieldRow[], drawn: Set<number>): StampField[] {
  return fields
    .filter((f) => !drawn.has(f.id) && f.value !== null && f.value !== '')
    .map((f) => ({
      pageNo: f.pageNo,
      box: f.box as StampField['box'],
      fieldType: f.fieldType,
      // A date is drawn as the signer saw it on the page: in the field's language (field-dates.ts).
      value:
        f.fieldType === 'DATE'
          ? displayedDate(f.value!, (f.styling as { dateLang?: string } | null)?.dateLang)
          : f.value!,
      ...(f.styling ? { styling: f.styling as StampField['styling'] } : {}),
    }));
}

// ---------------------------------------------------------------------------------------------------------

/** The document with the values drawn (the signature not yet laid out), and what the revision records about them. */
type Layout = {
  file: IncrementalPdf;
  baseRevisionId: number | null;
  drawnFieldIds: number[];
  drawnValues: Record<string, string>;
  appearance: string;
};

async function layOutRevision(tx: Tx, deps: SignerRevisionDeps, input: PrepareSignerRevisionInput): Promise<Layout> {
  const workflow = await lockWorkflowRow(tx, input.workflowId);
  if (!workflow) throw new AppError('NOT_FOUND', 'Workflow not found');
  const document = (await findDocumentsInOrder(tx, input.workflowId)).find((d) => d.id === input.documentId);
  if (!document) throw new AppError('NOT_FOUND', 'Document not found in this workflow');
  if (document.sealedBlobKey) throw new AppError('INVALID_WORKFLOW_STATUS', 'The document is already sealed');
  const fields = (await findFieldsOfWorkflow(tx, input.workflowId)).filter((f) => f.documentId === input.documentId);
  const field = fields.find((f) => f.id === input.fieldId);
  if (field?.fieldType !== 'DIGITAL_SIGNATURE' || field.recipientId !== input.recipient.id) {
    throw new AppError(
      'INVALID_FIELD',
      `Field ${input.fieldId} is not a DIGITAL_SIGNATURE field of this recipient on document ${input.documentId}`,
    );
  }
  const completed = await findCompletedRevisions(tx, input.documentId);
  const drawn = drawnIn(completed);
  if (drawn.has(field.id))
    throw new AppError('SIGNED_FIELD_LOCKED', `Field ${field.id} is already signed into the document`);
  const finished = new Set(
    (await findRecipientsById(tx, input.workflowId)).filter((r) => FINISHED.has(r.status)).map((r) => r.id),
  );
  const appearance = input.appearance ?? field.value ?? defaultAppearance(input.recipient);
  // The signer signs what the page shows: its own values and those of recipients who have finished (a
  // parallel signer still filling in could change theirs). Its other DIGITAL_SIGNATURE fields get their own revision.
  const toDraw = fields.filter(
    (f) =>
      f.id !== field.id &&
      !drawn.has(f.id) &&
      f.value !== null &&
      f.value !== '' &&
      f.recipientId !== null &&
      (finished.has(f.recipientId) || (f.recipientId === input.recipient.id && f.fieldType !== 'DIGITAL_SIGNATURE')),
  );
  const stamps = stampsFor([...toDraw, { ...field, value: appearance }], new Set());
  const base = completed.at(-1) ?? null;
  const sourceKey = base ? base.blobKey : document.blobKey;
  const source = await deps.blobs.get(sourceKey);
  const file = await IncrementalPdf.open(source, sourceKey);
  stampFieldsInto(file, stamps);
  const drawnValues = Object.fromEntries(toDraw.map((f) => [String(f.id), valueHash(f.value)]));
  return {
    file,
    baseRevisionId: base?.id ?? null,
    drawnFieldIds: [...toDraw.map((f) => f.id), field.id],
    drawnValues,
    appearance,
  };
}

async function storeCompleted(
  tx: Tx,
  deps: SignerRevisionDeps,
  row: SignerRevisionRow,
  signed: Uint8Array,
  appearance: string,
): Promise<CompletedSignerRevision> {
  const stored = await deps.blobs.put(signed);
  const now = new Date();
  const completed = await markRevisionCompleted(tx, row.id, stored, now);
  await setFieldValue(tx, row.fieldId, appearance, now, null);
  return completedOf(completed);
}

function completedOf(row: SignerRevisionRow): CompletedSignerRevision {
  return {
    revisionId: row.id,
    documentId: row.documentId,
    fieldId: row.fieldId,
    blobKey: row.blobKey,
    size: row.size,
    certificateSerial: row.certificateSerial ?? '',
  };
}

async function assertStillCurrent(tx: Tx, documentId: number, baseRevisionId: number | null): Promise<void> {
  const current = await findWorkingRevision(tx, documentId);
  if ((current?.id ?? null) !== baseRevisionId) {
    throw new AppError(
      'SIGNER_REVISION_STALE',
      'Another signature was added to the document after this one was prepared; prepare it again',
    );
  }
}

function drawnIn(rows: SignerRevisionRow[]): Set<number> {
  return new Set(rows.flatMap((r) => r.drawnFieldIds as number[]));
}

function signatureDetails(recipient: { name: string; email: string }) {
  return { signerName: recipient.name, reason: SIGNER_REASON };
}

function defaultAppearance(recipient: { name: string; email: string }): string {
  return `Digitally signed by ${recipient.name}\n${recipient.email}\n${new Date().toISOString().slice(0, 10)}`;
}

function valueHash(value: string | null): string {
  return crypto
    .createHash('sha256')
    .update(value ?? '')
    .digest('hex');
}

function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

function unb64(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'base64'));
}

/**
 * Drops prepared revisions whose signature will never come (their remote preparation expired unused): the rows
 * go; a revision completed meanwhile is kept. Their blobs stay in the content-addressed store, as every blob does
 * (there is no blob collection yet). Returns how many went.
 */
export async function discardPendingSignerRevisions(db: DbOrTx, revisionIds: number[]): Promise<number> {
  return deletePendingRevisions(db, revisionIds);
}
