import { AppError } from '../../errors.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { RequestContext } from '../../http/request-context.ts';
import type { Db, Tx } from '../../platform/db/client.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Outbox } from '../../platform/mail/outbox.ts';
import type { BlobStore } from '../../platform/storage/blob-store.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { assertMaySign, countSignature } from '../billing/entitlements.service.ts';
import type { SignerKeyService, UnlockedSignerKey } from '../signer-keys/signer-keys.service.ts';
import { findOwnAssetIds } from '../signature-library/signature-library.service.ts';
import { findUserById } from '../users/users.directory.ts';
import {
  findGuestAccessToDocument,
  findWorkflowForCaller,
  type RecipientRow,
  type WorkflowAccess,
} from '../workflows/workflow-access.ts';
import { actingRecipient } from './acting-recipient.ts';
import { advanceAfterFinish, SEAL_JOB } from './completion.ts';
import { recordConsentOnce } from './consent.ts';
import {
  findDocumentWorkflowId,
  findFieldsNamedOrOwn,
  findFieldsOfRecipient,
  setFieldValues,
  updateRecipient,
} from './signing.repo.ts';
import {
  LIBRARY_FIELD_TYPES,
  SIGNATURE_FIELD_TYPES,
  hasImageValue,
  isBlank,
  isFilled,
  normalizeFieldValue,
  normalizeImageValue,
  type FieldRow,
  type RawValue,
} from './field-values.ts';
import { appendLocalSignerRevision, findDrawnFieldIds } from './signer-revisions.ts';
import type { SigningCodes } from './signing-codes.ts';
import type { ApproveBody, CeremonyResponse, SaveFieldEntry, SignBody } from './ceremony.schemas.ts';

export type CeremonyDeps = {
  db: Db;
  jobs: JobQueue;
  outbox: Outbox;
  publicUrl: string;
  codes: SigningCodes;
  /** Where signed revisions are stored (signer-revisions.ts). */
  blobs: BlobStore;
  /** Opens a useDigitalCert signer's key with the signing password (modules/signer-keys). */
  signerKeys: Pick<SignerKeyService, 'unlock'>;
};
export type CeremonyService = ReturnType<typeof createCeremonyService>;

type Outcome = { response: CeremonyResponse; completed: boolean };
/** A wrong signing password: the transaction commits (the failure is counted) and the call fails after it. */
type PasswordFailure = { signingPasswordFailure: { attemptsLeft: number } };
type Write = { field: FieldRow; value: string | null; signatureAssetId: number | null; password?: string };

/**
 * The signing ceremony (RUNTIME.md): a recipient fills its fields, signs, or approves. Every call locks the
 * workflow row first, so racing final actions serialize and the workflow completes exactly once; the
 * writes, the activities, the next dispatch, the completion and the seal job commit together.
 */
export function createCeremonyService(deps: CeremonyDeps) {
  const { db } = deps;
  return { saveFields, signField, approve, finishAfterSignedFields, notifyAfterCommit };

  /**
   * DIGITAL_SIGNATURE fields signed in the caller's transaction by another module (remote CSC signing: the signer
   * revision wrote their values). That counts as saving them: the consent is recorded on the recipient's first
   * action and the finish check runs, exactly as after fields/save. The caller locked the workflow, commits, then
   * calls notifyAfterCommit with `completed`.
   */
  async function finishAfterSignedFields(
    tx: Tx,
    caller: Caller,
    access: WorkflowAccess,
    recipient: RecipientRow,
    fieldIds: number[],
    context: RequestContext,
    evidence: string,
  ): Promise<Outcome> {
    // The values were written by the caller: applyAndFinish reads the recipient's fields after them.
    const outcome = await applyAndFinish(tx, caller, access, recipient, [], context, evidence, null);
    return { ...outcome, response: { ...outcome.response, savedFieldIds: fieldIds } };
  }

  /** After the commit of finishAfterSignedFields: wakes the mail worker and, on completion, the seal worker. */
  function notifyAfterCommit(completed: boolean): void {
    deps.outbox.notify();
    if (completed) deps.jobs.notify(SEAL_JOB);
  }

  /** POST /workflow/v1/{documentId}/fields/save */
  async function saveFields(
    caller: Caller,
    documentId: number,
    entries: SaveFieldEntry[],
    context: RequestContext,
  ): Promise<CeremonyResponse> {
    const seen = new Set<number>();
    for (const entry of entries) {
      if (seen.has(entry.id)) throw new AppError('INVALID_REQUEST_BODY', `Field ${entry.id} appears more than once`);
      seen.add(entry.id);
    }
    // Images are decoded and re-encoded before the transaction: that takes up to tens of milliseconds each,
    // which must not be spent holding the workflow row lock (on PGlite, the only connection). An entry whose
    // type turns out not to be its field's is refused inside, as before.
    const images = new Map<number, string>();
    for (const entry of entries) {
      const value = entry.value as RawValue;
      if (hasImageValue(entry.type, value))
        images.set(entry.id, await normalizeImageValue({ id: entry.id, fieldType: entry.type }, value));
    }
    return run(async (tx) => {
      const access =
        (caller.kind === 'guest' ? await findGuestAccessToDocument(tx, caller, documentId) : null) ??
        (await findWorkflowOfDocument(tx, caller, documentId));
      const recipient = actingRecipient(access);
      await assertMaySign(tx, access.workflow.organizationId);
      const { named, own } = await fieldsOfRecipient(
        tx,
        access,
        recipient,
        entries.map((e) => e.id),
      );
      const submitted = entries.map((entry): Write => {
        const field = named.get(entry.id)!;
        if (entry.type !== field.fieldType)
          throw new AppError('INVALID_FIELD', `Field ${field.id} is a ${field.fieldType} field, not ${entry.type}`);
        const assetId = entry.signatureAssetId ?? null;
        if (assetId !== null && assetId > 0 && !LIBRARY_FIELD_TYPES.includes(field.fieldType)) {
          throw new AppError(
            'INVALID_FIELD_VALUE',
            `Field ${field.id}: signatureAssetId applies only to SIGNATURE, INITIALS and STAMP fields`,
          );
        }
        if (entry.password !== undefined && field.fieldType !== 'DIGITAL_SIGNATURE') {
          throw new AppError(
            'INVALID_REQUEST_BODY',
            `Field ${field.id}: a password goes only with a DIGITAL_SIGNATURE field`,
          );
        }
        return {
          field,
          value: normalizeFieldValue(field, entry.value as RawValue, images.get(entry.id)),
          signatureAssetId: assetId !== null && assetId > 0 ? assetId : null,
          ...(entry.password !== undefined ? { password: entry.password } : {}),
        };
      });
      await assertOwnLibraryEntries(tx, recipient, submitted);
      // A value already signed into the document stays as signed: sent again unchanged it is left alone (a page
      // re-sending everything on finish), changed it is refused.
      const drawn = await findDrawnFieldIds(tx, [...new Set(submitted.map((w) => w.field.documentId))]);
      const locked = submitted.find((w) => drawn.has(w.field.id) && w.value !== w.field.value);
      if (locked)
        throw new AppError(
          'SIGNED_FIELD_LOCKED',
          `Field ${locked.field.id} is already part of a signed revision of the document; what was signed cannot change`,
        );
      const writes = submitted.filter((w) => !drawn.has(w.field.id));
      const digital = digitalSignatures(recipient, writes);
      let key: UnlockedSignerKey | null = null;
      if (digital.length > 0) {
        const unlocked = await deps.signerKeys.unlock(tx, { caller, recipient }, digital[0].password);
        if (!unlocked.unlocked) return { signingPasswordFailure: { attemptsLeft: unlocked.attemptsLeft } };
        key = unlocked.key;
      }
      const evidence = `first save of field values (POST /workflow/v1/${documentId}/fields/save)`;
      return applyAndFinish(tx, caller, access, recipient, writes, context, evidence, own, async () => {
        // After the values are written: each revision draws the signer's saved values, this signature's included.
        for (const { write } of digital) {
          await appendLocalSignerRevision(
            tx,
            { blobs: deps.blobs },
            {
              workflowId: access.workflow.id,
              documentId: write.field.documentId,
              fieldId: write.field.id,
              recipient,
              signer: key!,
              privateKey: key!.privateKey,
              ...(write.value !== null ? { appearance: write.value } : {}),
            },
          );
        }
      });
    });
  }

  /**
   * The DIGITAL_SIGNATURE entries that become the signer's own PAdES signature: those of a useDigitalCert
   * recipient, which must carry the signing password (one password per save: every entry opens the same key).
   * A password for a recipient that does not sign with a local certificate is refused.
   */
  function digitalSignatures(recipient: RecipientRow, writes: Write[]): { write: Write; password: string }[] {
    const result: { write: Write; password: string }[] = [];
    for (const write of writes) {
      if (write.field.fieldType !== 'DIGITAL_SIGNATURE') continue;
      const { password } = write;
      if (!recipient.useDigitalCert) {
        if (password !== undefined)
          throw new AppError(
            'OPERATION_IS_NOT_ALLOWED',
            `Field ${write.field.id}: this recipient does not sign with a personal certificate (useDigitalCert is false), so no signing password applies`,
          );
        continue;
      }
      if (password === undefined)
        throw new AppError(
          'SIGNING_PASSWORD_REQUIRED',
          `Field ${write.field.id}: a DIGITAL_SIGNATURE of this recipient is signed with the signing password; send it as "password"`,
        );
      result.push({ write, password });
    }
    if (new Set(result.map((r) => r.password)).size > 1)
      throw new AppError(
        'INVALID_REQUEST_BODY',
        'Every DIGITAL_SIGNATURE entry of one save must carry the same signing password',
      );
    return result;
  }

  /** A signatureAssetId links an entry of the signing recipient's own library (its user's); anyone else's is refused like a missing one. */
  async function assertOwnLibraryEntries(tx: Tx, recipient: RecipientRow, writes: Write[]): Promise<void> {
    const ids = [...new Set(writes.map((w) => w.signatureAssetId).filter((id): id is number => id !== null))];
    if (ids.length === 0) return;
    const own = await findOwnAssetIds(tx, recipient.userId, ids);
    const foreign = ids.find((id) => !own.has(id));
    if (foreign !== undefined)
      throw new AppError(
        'SIGNATURE_ASSET_NOT_FOUND',
        `signatureAssetId ${foreign} is not an entry of your signature library`,
      );
  }

  /** POST /workflow/v1/{workflowId}/sign: one SIGNATURE or INITIALS image, with the same rules and finish check. */
  async function signField(
    caller: Caller,
    workflowId: number,
    body: SignBody,
    context: RequestContext,
  ): Promise<CeremonyResponse> {
    const image = isBlank(body.image)
      ? undefined
      : await normalizeImageValue({ id: body.id, fieldType: 'SIGNATURE' }, body.image);
    return run(async (tx) => {
      const access = await findWorkflowForCaller(tx, caller, workflowId, { lock: true });
      const recipient = actingRecipient(access);
      await assertMaySign(tx, access.workflow.organizationId);
      const { named, own } = await fieldsOfRecipient(tx, access, recipient, [body.id]);
      const field = named.get(body.id)!;
      if (!SIGNATURE_FIELD_TYPES.includes(field.fieldType)) {
        throw new AppError(
          'INVALID_FIELD',
          `Field ${field.id} is a ${field.fieldType} field; /sign takes SIGNATURE or INITIALS fields (use fields/save for the others)`,
        );
      }
      const writes: Write[] = [{ field, value: normalizeFieldValue(field, body.image, image), signatureAssetId: null }];
      return applyAndFinish(
        tx,
        caller,
        access,
        recipient,
        writes,
        context,
        `first signature (POST /workflow/v1/${workflowId}/sign)`,
        own,
      );
    });
  }

  /**
   * POST /workflow/v1/{workflowId}/approve: APPROVER rows only. An approver's own required fields must be
   * filled first. The comment goes into the Approved activity.
   */
  async function approve(
    caller: Caller,
    workflowId: number,
    body: ApproveBody,
    context: RequestContext,
  ): Promise<CeremonyResponse> {
    return run(async (tx) => {
      const access = await findWorkflowForCaller(tx, caller, workflowId, { lock: true });
      const recipient = actingRecipient(access);
      await assertMaySign(tx, access.workflow.organizationId);
      if (recipient.role !== 'APPROVER')
        throw new AppError(
          'OPERATION_IS_NOT_ALLOWED',
          `Only an APPROVER approves; this recipient is a ${recipient.role}`,
        );
      const own = await findFieldsOfRecipient(tx, workflowId, recipient.id);
      const missing = own.filter((f) => f.fieldRequired && !isFilled(f, f.value));
      if (missing.length > 0)
        throw new AppError(
          'REQUIRED_FIELD_EMPTY',
          `Fill the required fields ${missing.map((f) => f.id).join(', ')} before approving`,
        );
      await recordConsentOnce(tx, {
        caller,
        recipient,
        context,
        evidence: `approval (POST /workflow/v1/${workflowId}/approve)`,
        workflowStatus: access.workflow.status,
      });
      const comment = body.comment?.trim();
      const finished = await finishRecipient(
        tx,
        caller,
        recipient,
        'APPROVED',
        context,
        comment
          ? `${recipient.name} approved the document, commenting: ${comment}`
          : `${recipient.name} approved the document`,
      );
      const after = await advanceAfterFinish(tx, deps, access.workflow, context);
      return outcome(access, finished, after, []);
    });
  }

  /** One transaction; after its commit, wakes the mail worker and, on completion, the seal worker. */
  async function run(work: (tx: Tx) => Promise<Outcome | PasswordFailure>): Promise<CeremonyResponse> {
    const result = await db.transaction(work);
    if ('signingPasswordFailure' in result) {
      const { attemptsLeft } = result.signingPasswordFailure;
      throw new AppError(
        'SIGNING_PASSWORD_INVALID',
        `Wrong signing password; ${attemptsLeft} attempt(s) left. Forgotten: a new key comes with a code mailed to you (POST /workflow/v1/{workflowId}/signing-key/reset-code)`,
        { attemptsLeft },
      );
    }
    deps.outbox.notify();
    if (result.completed) deps.jobs.notify(SEAL_JOB);
    return result.response;
  }

  /**
   * The fields named by `ids`, each checked to belong to the acting row: a field that is not in this workflow
   * is 404; another recipient's field is 403. A STAMP is reserved for the person it belongs to (SPEC.md STAMP
   * rule 2): a hidden assistant row never fills one, even one placed on its own row. Also every field of the
   * acting row as it is before the save (`own`), for the finish check.
   */
  async function fieldsOfRecipient(
    tx: Tx,
    access: WorkflowAccess,
    recipient: RecipientRow,
    ids: number[],
  ): Promise<{ named: Map<number, FieldRow>; own: FieldRow[] }> {
    const rows = await findFieldsNamedOrOwn(tx, access.workflow.id, recipient.id, ids);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const named = new Map<number, FieldRow>();
    for (const id of ids) {
      const field = byId.get(id);
      if (!field) throw new AppError('NOT_FOUND', `Field ${id} not found in this workflow`);
      if (field.fieldType === 'STAMP' && (field.recipientId !== recipient.id || recipient.isHidden)) {
        throw new AppError(
          'USER_NOT_HAVE_ACCESS',
          `Field ${id} is a STAMP reserved for the recipient it belongs to; an assistant cannot fill it on their behalf`,
        );
      }
      if (field.recipientId !== recipient.id)
        throw new AppError('USER_NOT_HAVE_ACCESS', `Field ${id} belongs to another recipient`);
      named.set(id, field);
    }
    return { named, own: rows.filter((r) => r.recipientId === recipient.id) };
  }

  /**
   * Writes the values, records the consent on the recipient's first save, and finishes a SIGNER when none of
   * its required fields and none of its SIGNATURE or INITIALS fields is empty any more (RUNTIME.md). `ownBefore`
   * is every field of the recipient as read before the writes under the workflow row lock (the finish check applies
   * the writes to it), or null to read them after the writes.
   */
  async function applyAndFinish(
    tx: Tx,
    caller: Caller,
    access: WorkflowAccess,
    recipient: RecipientRow,
    writes: Write[],
    context: RequestContext,
    evidence: string,
    ownBefore: FieldRow[] | null,
    afterWrites?: () => Promise<void>,
  ): Promise<Outcome> {
    const now = new Date();
    await setFieldValues(
      tx,
      writes.map(({ field, value, signatureAssetId }) => ({
        fieldId: field.id,
        value,
        filledAt: value === null ? null : now,
        signatureAssetId,
      })),
    );
    await afterWrites?.();
    await recordConsentOnce(tx, { caller, recipient, context, evidence, workflowStatus: access.workflow.status });
    const savedFieldIds = writes.map((w) => w.field.id);
    if (recipient.role !== 'SIGNER') return { response: response(access, recipient, savedFieldIds), completed: false };

    const written = new Map(writes.map((w) => [w.field.id, w.value]));
    const own =
      ownBefore === null
        ? await findFieldsOfRecipient(tx, access.workflow.id, recipient.id)
        : ownBefore.map((f) => {
            const value = written.get(f.id);
            return value === undefined ? f : { ...f, value };
          });
    const outstanding = own.some(
      (f) => (f.fieldRequired || SIGNATURE_FIELD_TYPES.includes(f.fieldType)) && !isFilled(f, f.value),
    );
    if (outstanding) return { response: response(access, recipient, savedFieldIds), completed: false };

    // Every action of this ceremony is an electronic signature; remote (CSC) signing would count its own qualifier.
    await countSignature(
      tx,
      { organizationId: access.workflow.organizationId, userId: recipient.userId },
      'ELECTRONIC',
    );
    const finished = await finishRecipient(
      tx,
      caller,
      recipient,
      'SIGNED',
      context,
      `${recipient.name} signed the document${await unverifiedSelfSigner(tx, access, recipient)}`,
    );
    const after = await advanceAfterFinish(tx, deps, access.workflow, context);
    return outcome(access, finished, after, savedFieldIds);
  }

  /**
   * The audit trail (and so the history, the evidence report and the certificate of completion) says when a self-signing
   * owner's address was not verified at signing: self-signing works before verification (RUNTIME.md round three), but
   * the platform's seal must not read as vouching for an address nobody proved. Others reach a workflow only through a
   * mailed link or a verified account.
   */
  async function unverifiedSelfSigner(tx: Tx, access: WorkflowAccess, recipient: RecipientRow): Promise<string> {
    if (access.workflow.sequence !== 'SELF') return '';
    const owner = await findUserById(tx, access.workflow.ownerUserId);
    return owner?.emailVerifiedAt ? '' : ` (the address ${recipient.email} was not verified when signing)`;
  }

  async function finishRecipient(
    tx: Tx,
    caller: Caller,
    recipient: RecipientRow,
    status: 'SIGNED' | 'APPROVED',
    context: RequestContext,
    sentence: string,
  ): Promise<RecipientRow> {
    const finished = await updateRecipient(tx, recipient.id, { status, actedAt: new Date() });
    await recordActivity(tx, {
      workflowId: recipient.workflowId,
      kind: status,
      action: status === 'SIGNED' ? 'Signed' : 'Approved',
      sentence,
      userId: caller.userId,
      userName: recipient.name,
      recipientId: recipient.id,
      status,
      context,
    });
    return finished;
  }

  function outcome(
    access: WorkflowAccess,
    recipient: RecipientRow,
    { completed, status }: { completed: boolean; status: string },
    savedFieldIds: number[],
  ): Outcome {
    const workflow = completed ? { ...access.workflow, status, sealStatus: 'PENDING' } : access.workflow;
    return { response: response({ ...access, workflow }, recipient, savedFieldIds), completed };
  }

  function response(access: WorkflowAccess, recipient: RecipientRow, savedFieldIds: number[]): CeremonyResponse {
    return {
      workflowId: access.workflow.id,
      recipientId: recipient.id,
      recipientStatus: recipient.status,
      workflowStatus: access.workflow.status,
      sealStatus: access.workflow.sealStatus,
      savedFieldIds,
    };
  }
}

/** The workflow of `documentId` as findWorkflowForCaller reads it (locked), or NOT_FOUND for a document that does not exist. */
async function findWorkflowOfDocument(tx: Tx, caller: Caller, documentId: number): Promise<WorkflowAccess> {
  const workflowId = await findDocumentWorkflowId(tx, documentId);
  if (workflowId === null) throw new AppError('NOT_FOUND', 'Document not found');
  return findWorkflowForCaller(tx, caller, workflowId, { lock: true });
}
