import crypto from 'node:crypto';
import { AppError, type ErrorCode } from '../../errors.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { RequestContext } from '../../http/request-context.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import type { SecretBox } from '../../platform/crypto/secrets.ts';
import type { BlobStore } from '../../platform/storage/blob-store.ts';
import { createPkcePair, type CscClient } from '../../platform/csc/csc-client.ts';
import { verifiedSignatureValue, type CscCredential } from '../../platform/csc/csc-credential.ts';
import { CscError } from '../../platform/csc/csc-error.ts';
import {
  assertMaySign,
  assertSignatureAllowed,
  countSignature,
  qualifiersInPlan,
  signatureAllowance,
  type SignatureQualifier,
} from '../billing/entitlements.service.ts';
import {
  findLiveWorkflowById,
  findWorkflowForCaller,
  type RecipientRow,
  type WorkflowAccess,
} from '../workflows/workflow-access.ts';
import { actingRecipient } from '../signing/acting-recipient.ts';
import type { CeremonyService } from '../signing/ceremony.service.ts';
import type { CeremonyResponse } from '../signing/ceremony.schemas.ts';
import { completeSignerRevision, prepareSignerRevision } from '../signing/signer-revisions.ts';
import { findDigitalSignatureSettings } from '../signature-library/signature-library.service.ts';
import { findUserById } from '../users/users.directory.ts';
import {
  claimPreparations,
  findFieldOfWorkflow,
  findOpenPreparationsByHash,
  findPreparationsOfAuthorization,
  findRecipientIdentity,
  insertPreparations,
  type NewPreparation,
  type PreparationRow,
} from './remote-signing.repo.ts';
import type { Qualifier } from './remote-signing.schemas.ts';

export type RemoteSigningDeps = {
  db: Db;
  blobs: BlobStore;
  secrets: SecretBox;
  /** The CSC provider (CSC_BASE_URL); null: remote signing is off. */
  csc: CscClient | null;
  ceremony: Pick<CeremonyService, 'finishAfterSignedFields' | 'notifyAfterCommit'>;
};
export type RemoteSigningService = ReturnType<typeof createRemoteSigningService>;

/** How long a prepared signature waits for the signer's authorization at the provider. */
export const PREPARATION_TTL_MS = 15 * 60 * 1000;

/** The service's qualifiers as the entitlements' quota kinds. */
const QUOTA_KIND: Record<Qualifier, SignatureQualifier> = { SES: 'ELECTRONIC', AES: 'ADVANCED', QES: 'QUALIFIED' };
const QUALIFIER_OF: Record<SignatureQualifier, Qualifier> = { ELECTRONIC: 'SES', ADVANCED: 'AES', QUALIFIED: 'QES' };

type Item = { workflowId: number; id: number };
type SignatureItem = { workflowId: number; id?: number; hash: string };

/**
 * Remote (CSC) signing (SPEC.md "Remote (CSC) signing", RUNTIME.md "CSC identity and authorization"). A
 * DIGITAL_SIGNATURE field is signed by the recipient it belongs to, in two calls: the preparation lays the field's
 * signer revision out with the credential's certificate (signing/signer-revisions.ts) and answers the hash and the
 * provider's authorization URL bound to it; the signature call exchanges the code the provider sent back, has the
 * provider sign the prepared hashes, checks each value against the certificate, and then, in one transaction,
 * appends the signatures, counts them against the qualifier's quota and runs the ceremony's finish check, as a
 * save of the field would. The provider is never called while a database lock is held.
 */
export function createRemoteSigningService(deps: RemoteSigningDeps) {
  const { db } = deps;
  return { listKeys, prepare, prepareBatch, complete, completeBatch, checkCredits, planQualifiers };

  /** GET /workflow/v1/list/user/keys: the caller's usable credentials at the provider. */
  async function listKeys(caller: Caller) {
    const csc = client();
    const account = await cscAccount(caller);
    const credentials = await provider(() => csc.listCredentials(account), 'CSC_CREDENTIAL_INVALID');
    return credentials
      .filter((c) => c.unusableBecause === null)
      .map((c) => ({
        credentialID: c.credentialId,
        description: c.description,
        keyAlgorithm: c.keyAlgorithm,
        certificate: c.certificate,
        qualifiers: c.qualifiers,
      }));
  }

  /** POST /workflow/v1/{workflowId}/sign/csc */
  async function prepare(
    caller: Caller,
    workflowId: number,
    body: { id: number; qualifier: Qualifier; credentialID?: string },
  ) {
    const prepared = await prepareItems(caller, [{ workflowId, id: body.id }], body.qualifier, body.credentialID);
    return { hash: prepared.items[0].hash, credentialID: prepared.credentialId, authorizeUrl: prepared.authorizeUrl };
  }

  /** POST /workflow/v1/sign/csc/batch */
  async function prepareBatch(caller: Caller, body: { qualifier: Qualifier; credentialID: string; items: Item[] }) {
    const prepared = await prepareItems(caller, body.items, body.qualifier, body.credentialID);
    return { items: prepared.items, authorizeUrl: prepared.authorizeUrl };
  }

  /** POST /workflow/v1/{workflowId}/signature/csc */
  async function complete(
    caller: Caller,
    workflowId: number,
    body: { hash: string; code: string; qualifier: Qualifier; credentialID: string },
    context: RequestContext,
  ): Promise<CeremonyResponse> {
    const [response] = await completeItems(
      caller,
      [{ workflowId, hash: body.hash }],
      body,
      context,
      `remote signature (POST /workflow/v1/${workflowId}/signature/csc)`,
    );
    return response;
  }

  /** POST /workflow/v1/signature/csc/batch: every item or none. */
  async function completeBatch(
    caller: Caller,
    body: { code: string; qualifier: Qualifier; credentialID: string; items: Required<SignatureItem>[] },
    context: RequestContext,
  ) {
    return {
      items: await completeItems(
        caller,
        body.items,
        body,
        context,
        'remote signature batch (POST /workflow/v1/signature/csc/batch)',
      ),
    };
  }

  /** GET /workflow/v1/check-user-credits/{workflowId}: what the acting signer may still sign with `qualifier` in this workflow. */
  async function checkCredits(caller: Caller, workflowId: number, qualifier: Qualifier) {
    const access = await findWorkflowForCaller(db, caller, workflowId);
    const organizationId = access.workflow.organizationId;
    const standing = await assertMaySign(db, organizationId).then(
      () => true,
      (error) => {
        if (error instanceof AppError) return false;
        throw error;
      },
    );
    const offered = (await qualifiersInPlan(db, organizationId)).includes(QUOTA_KIND[qualifier]);
    const allowance = await signatureAllowance(
      db,
      { organizationId, userId: access.recipient?.userId ?? caller.userId },
      QUOTA_KIND[qualifier],
    );
    return { qualifier, allowed: standing && offered && allowance.allowed, remaining: allowance.remaining };
  }

  /** GET /workflow/v1/service-plan-qualifier: the caller's plan (a guest's: that of the workflow its link opens). */
  async function planQualifiers(caller: Caller) {
    let organizationId = caller.kind === 'user' ? caller.organizationId : null;
    if (caller.kind === 'guest') {
      const workflow = await findLiveWorkflowById(db, caller.workflowId);
      if (!workflow) throw new AppError('NOT_FOUND', 'Workflow not found');
      organizationId = workflow.organizationId;
    }
    return { qualifiers: (await qualifiersInPlan(db, organizationId!)).map((kind) => QUALIFIER_OF[kind]) };
  }

  // -------------------------------------------------------------------------------------------------------

  function client(): CscClient {
    if (!deps.csc)
      throw new AppError(
        'CSC_NOT_CONFIGURED',
        'Remote signing is not configured on this service (CSC_BASE_URL is unset)',
      );
    return deps.csc;
  }

  /**
   * The caller's account at the provider (RUNTIME.md): the digitalSignatures.csc.userName its user saved, else the
   * recipient row's address for a signing link, else the user's email.
   */
  async function cscAccount(caller: Caller): Promise<string> {
    const saved = await findDigitalSignatureSettings(db, caller.userId);
    if (saved?.cscUserName) return saved.cscUserName;
    if (caller.kind === 'guest') {
      const row = await findRecipientIdentity(db, caller.recipientId);
      if (row) return row.email;
    }
    const user = await findUserById(db, caller.userId);
    if (!user) throw new AppError('UNAUTHORIZED', 'The account behind this token no longer exists');
    return user.email;
  }

  /**
   * What the checks of one item need, and the checks themselves, run before the provider is asked (no lock) and
   * again under the workflow lock: a workflow the caller cannot see 404; the acting row (its turn, not finished,
   * identity passed: actingRecipient); the field in this workflow (else 404), the row's own (else 403, as fields/save),
   * DIGITAL_SIGNATURE (else 400 INVALID_FIELD); the organization's plan standing and offering the qualifier; the
   * signer's role and quota allowing one more.
   */
  async function checkItem(dbOrTx: DbOrTx, caller: Caller, item: Item, qualifier: Qualifier, lock: boolean) {
    const access = await findWorkflowForCaller(dbOrTx, caller, item.workflowId, { lock });
    const recipient = actingRecipient(access);
    const field = await findFieldOfWorkflow(dbOrTx, item.workflowId, item.id);
    if (!field) throw new AppError('NOT_FOUND', `Field ${item.id} not found in this workflow`);
    if (field.recipientId !== recipient.id)
      throw new AppError('USER_NOT_HAVE_ACCESS', `Field ${item.id} belongs to another recipient`);
    if (field.fieldType !== 'DIGITAL_SIGNATURE')
      throw new AppError(
        'INVALID_FIELD',
        `Field ${item.id} is a ${field.fieldType} field; remote signing signs DIGITAL_SIGNATURE fields`,
      );
    await assertQualifierAllowed(dbOrTx, access, recipient, qualifier);
    return { access, recipient, field };
  }

  async function assertQualifierAllowed(
    dbOrTx: DbOrTx,
    access: WorkflowAccess,
    recipient: RecipientRow,
    qualifier: Qualifier,
  ): Promise<void> {
    const organizationId = access.workflow.organizationId;
    await assertMaySign(dbOrTx, organizationId);
    if (!(await qualifiersInPlan(dbOrTx, organizationId)).includes(QUOTA_KIND[qualifier])) {
      throw new AppError(
        'QUALIFIER_NOT_IN_PLAN',
        `The plan of this workflow's organization does not offer ${qualifier} signatures`,
        { qualifier },
      );
    }
    await assertSignatureAllowed(dbOrTx, { organizationId, userId: recipient.userId }, QUOTA_KIND[qualifier]);
  }

  /**
   * The credential to sign with: the one named (it must be the caller's at the provider, usable, and make
   * `qualifier` signatures), else the first listed that makes them; 422 CSC_CREDENTIAL_INVALID otherwise.
   */
  async function chooseCredential(
    csc: CscClient,
    caller: Caller,
    qualifier: Qualifier,
    credentialId: string | undefined,
  ): Promise<CscCredential> {
    const account = await cscAccount(caller);
    const credentials = await provider(() => csc.listCredentials(account), 'CSC_CREDENTIAL_INVALID');
    if (credentialId === undefined) {
      const first = credentials.find((c) => c.unusableBecause === null && c.qualifiers.includes(qualifier));
      if (!first)
        throw new AppError(
          'CSC_CREDENTIAL_INVALID',
          `None of the credentials of ${account} at the provider makes ${qualifier} signatures`,
          { qualifier },
        );
      return first;
    }
    const credential = credentials.find((c) => c.credentialId === credentialId);
    if (!credential)
      throw new AppError(
        'CSC_CREDENTIAL_INVALID',
        `Credential ${credentialId} is not one of ${account}'s credentials at the provider`,
      );
    if (credential.unusableBecause)
      throw new AppError(
        'CSC_CREDENTIAL_INVALID',
        `Credential ${credentialId} cannot sign: ${credential.unusableBecause}`,
      );
    if (!credential.qualifiers.includes(qualifier)) {
      throw new AppError(
        'CSC_CREDENTIAL_INVALID',
        `Credential ${credentialId} makes ${credential.qualifiers.join(', ')} signatures, not ${qualifier}`,
        { qualifier, qualifiers: credential.qualifiers },
      );
    }
    return credential;
  }

  async function prepareItems(caller: Caller, items: Item[], qualifier: Qualifier, credentialId: string | undefined) {
    const seen = new Set<string>();
    for (const item of items) {
      const key = `${item.workflowId}:${item.id}`;
      if (seen.has(key))
        throw new AppError(
          'INVALID_REQUEST_BODY',
          `Field ${item.id} of workflow ${item.workflowId} appears more than once`,
        );
      seen.add(key);
    }
    // Checked before the provider is asked: an outsider learns nothing from it and costs it nothing.
    const documents = new Set<number>();
    for (const item of items) {
      const { field } = await checkItem(db, caller, item, qualifier, false);
      // Two signatures of one document would be laid out over the same revision: the second could never complete.
      if (documents.has(field.documentId))
        throw new AppError(
          'INVALID_REQUEST_BODY',
          `Fields of document ${field.documentId} appear more than once: sign one field per document in a batch`,
        );
      documents.add(field.documentId);
    }
    const csc = client();
    const credential = await chooseCredential(csc, caller, qualifier, credentialId);
    const pkce = createPkcePair();
    const authorizationId = crypto.randomUUID();
    const expiresAt = new Date(Date.now() + PREPARATION_TTL_MS);
    const hashes = await db.transaction(async (tx) => {
      const rows: NewPreparation[] = [];
      const byItem = new Map<string, string>();
      // Workflow locks are taken in id order, so two batches over the same workflows cannot deadlock.
      for (const item of [...items].sort((a, b) => a.workflowId - b.workflowId || a.id - b.id)) {
        const { recipient, field } = await checkItem(tx, caller, item, qualifier, true);
        const revision = await prepareSignerRevision(
          tx,
          { blobs: deps.blobs },
          {
            workflowId: item.workflowId,
            documentId: field.documentId,
            fieldId: field.id,
            recipient: { id: recipient.id, name: recipient.name, email: recipient.email },
            signer: { certificateDer: credential.certificateDer, chainDer: credential.chainDer },
          },
        );
        const hash = b64(revision.hash);
        byItem.set(`${item.workflowId}:${item.id}`, hash);
        rows.push({
          authorizationId,
          codeVerifier: deps.secrets.encrypt(pkce.verifier),
          workflowId: item.workflowId,
          documentId: field.documentId,
          fieldId: field.id,
          recipientId: recipient.id,
          userId: caller.userId,
          revisionId: revision.revisionId,
          hash,
          signedAttributes: revision.pending.signedAttributes,
          credentialId: credential.credentialId,
          qualifier,
          keyAlgorithm: credential.keyAlgorithm,
          signAlgo: credential.signAlgo,
          certificate: b64(credential.certificateDer),
          expiresAt,
        });
      }
      await insertPreparations(tx, rows);
      return byItem;
    });
    const ordered = items.map((item) => ({
      workflowId: item.workflowId,
      id: item.id,
      hash: hashes.get(`${item.workflowId}:${item.id}`)!,
    }));
    const authorizeUrl = await provider(
      () =>
        csc.authorizeUrl({
          credentialId: credential.credentialId,
          hashes: ordered.map((item) => unb64(item.hash)),
          state: authorizationId,
          codeChallenge: pkce.challenge,
          description: ordered.length === 1 ? 'Sign one document' : `Sign ${ordered.length} documents`,
        }),
      'CSC_CREDENTIAL_INVALID',
    );
    return { items: ordered, authorizeUrl, credentialId: credential.credentialId };
  }

  /**
   * The preparations the items name: each an unused, unexpired preparation of that workflow for that hash, made
   * by this caller (as the same recipient row for a signing link), for this credential and qualifier; together
   * exactly the preparations of one authorization (a single call cannot sign part of a batch, nor a batch mix two).
   */
  async function preparationsFor(
    caller: Caller,
    items: SignatureItem[],
    body: { qualifier: Qualifier; credentialID: string },
  ): Promise<PreparationRow[]> {
    const now = Date.now();
    const rows: PreparationRow[] = [];
    for (const item of items) {
      const hash = normalizeHash(item.hash);
      const candidates = hash ? await findOpenPreparationsByHash(db, item.workflowId, hash) : [];
      const row = candidates.find(
        (r) =>
          r.userId === caller.userId &&
          (item.id === undefined || r.fieldId === item.id) &&
          (caller.kind !== 'guest' || r.recipientId === caller.recipientId),
      );
      if (!row || row.expiresAt.getTime() <= now) {
        throw new AppError(
          'CSC_HASH_NOT_PREPARED',
          `No open preparation of workflow ${item.workflowId}${item.id === undefined ? '' : `, field ${item.id},`} has this hash: it was never prepared for you, was used, expired or was prepared again`,
        );
      }
      if (row.credentialId !== body.credentialID)
        throw new AppError(
          'CSC_CREDENTIAL_INVALID',
          `The hash was prepared for another credential than ${body.credentialID}`,
        );
      if (row.qualifier !== body.qualifier)
        throw new AppError(
          'CSC_HASH_NOT_PREPARED',
          `The hash was prepared for a ${row.qualifier} signature, not ${body.qualifier}`,
        );
      if (rows.some((r) => r.id === row.id))
        throw new AppError(
          'INVALID_REQUEST_BODY',
          `The item of workflow ${item.workflowId} with this hash appears more than once`,
        );
      rows.push(row);
    }
    const authorizationIds = new Set(rows.map((r) => r.authorizationId));
    if (authorizationIds.size !== 1)
      throw new AppError(
        'CSC_HASH_NOT_PREPARED',
        'The items were prepared separately; one code authorizes the items of one preparation',
      );
    const all = await findPreparationsOfAuthorization(db, rows[0].authorizationId);
    if (all.length !== rows.length) {
      throw new AppError(
        'CSC_HASH_NOT_PREPARED',
        `The authorization covers ${all.length} signatures; name every item it was prepared for (all or none)`,
        { expected: all.length, given: rows.length },
      );
    }
    return rows;
  }

  async function completeItems(
    caller: Caller,
    items: SignatureItem[],
    body: { code: string; qualifier: Qualifier; credentialID: string },
    context: RequestContext,
    evidence: string,
  ): Promise<CeremonyResponse[]> {
    const workflowIds = [...new Set(items.map((item) => item.workflowId))];
    // A workflow the caller cannot see is 404 before anything else is said about it.
    for (const workflowId of workflowIds) await findWorkflowForCaller(db, caller, workflowId);
    const csc = client();
    const rows = await preparationsFor(caller, items, body);

    let verifier: string;
    try {
      verifier = deps.secrets.decrypt(rows[0].codeVerifier);
    } catch {
      throw new AppError(
        'CSC_HASH_NOT_PREPARED',
        'The preparation can no longer be read (the secrets key changed); prepare again',
      );
    }
    const token = await provider(() => csc.exchangeCode(body.code, verifier), 'CSC_AUTHORIZATION_INVALID');
    const values = await provider(
      () =>
        csc.signHashes({
          accessToken: token,
          credential: { credentialId: body.credentialID, signAlgo: rows[0].signAlgo },
          hashes: rows.map((row) => unb64(row.hash)),
        }),
      'CSC_AUTHORIZATION_INVALID',
    );
    // Every value is checked before anything is appended: a signature over another hash never reaches a document.
    const verified = new Map<number, Uint8Array>();
    rows.forEach((row, index) => {
      const value = verifiedSignatureValue(
        { certificateDer: unb64(row.certificate), keyAlgorithm: row.keyAlgorithm as CscCredential['keyAlgorithm'] },
        unb64(row.signedAttributes),
        values[index],
      );
      if (!value) {
        throw new AppError(
          'SIGNER_SIGNATURE_MISMATCH',
          `The provider's signature for workflow ${row.workflowId} does not verify with credential ${row.credentialId}'s certificate over the prepared hash; nothing was appended`,
        );
      }
      verified.set(row.id, value);
    });

    const outcomes = await db.transaction(async (tx) => {
      const results = new Map<number, { response: CeremonyResponse; completed: boolean }>();
      for (const workflowId of [...workflowIds].sort((a, b) => a - b)) {
        const access = await findWorkflowForCaller(tx, caller, workflowId, { lock: true });
        const recipient = actingRecipient(access);
        const group = rows.filter((row) => row.workflowId === workflowId);
        if (group.some((row) => row.recipientId !== recipient.id)) {
          throw new AppError(
            'CSC_HASH_NOT_PREPARED',
            `The signature of workflow ${workflowId} was prepared for another recipient row (delegated meanwhile?)`,
          );
        }
        await assertQualifierAllowed(tx, access, recipient, body.qualifier);
        const claimed = await claimPreparations(
          tx,
          group.map((row) => row.id),
          new Date(),
        );
        if (claimed.length !== group.length)
          throw new AppError('CSC_HASH_NOT_PREPARED', 'The preparation was used or expired meanwhile');
        for (const row of group) {
          await completeSignerRevision(
            tx,
            { blobs: deps.blobs },
            { workflowId, revisionId: row.revisionId, signatureValue: verified.get(row.id)! },
          );
          // One signature of its qualifier per appended remote signature, against the signer's quota in the workflow's organization.
          await countSignature(
            tx,
            { organizationId: access.workflow.organizationId, userId: recipient.userId },
            QUOTA_KIND[body.qualifier],
          );
        }
        const outcome = await deps.ceremony.finishAfterSignedFields(
          tx,
          caller,
          access,
          recipient,
          group.map((row) => row.fieldId),
          context,
          `${evidence}, ${body.qualifier} with credential ${body.credentialID}`,
        );
        results.set(workflowId, outcome);
      }
      return results;
    });
    deps.ceremony.notifyAfterCommit([...outcomes.values()].some((outcome) => outcome.completed));
    return workflowIds.map((workflowId) => outcomes.get(workflowId)!.response);
  }
}

/** A provider failure as the API's error: unreachable 503; refused as `refused` (422). */
async function provider<T>(call: () => Promise<T>, refused: ErrorCode): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof CscError)) throw error;
    if (error.failure === 'UNAVAILABLE') throw new AppError('CSC_PROVIDER_UNAVAILABLE', error.message);
    throw new AppError(refused, error.message);
  }
}

/** A base64 or base64url SHA-256 digest as standard base64, or null when it is not 32 bytes. */
function normalizeHash(text: string): string | null {
  const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === 32 ? bytes.toString('base64') : null;
}

function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

function unb64(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'base64'));
}
