import type { webcrypto } from 'node:crypto';
import { AppError } from '../../errors.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { Db, Tx } from '../../platform/db/client.ts';
import type { PlatformCaPublisher } from '../../platform/crypto/platform-ca.ts';
import { unwrapKey, wrapKey, type KdfParams } from '../../platform/crypto/key-wrap.ts';
import { formatName, parseCertificate } from '../../platform/crypto/certificates.ts';
import {
  certificateSerialHex, generateSignerKeyPair, importSignerKey, signerCertificateNeedsRenewal, type SignerSubject,
} from '../../platform/crypto/signer-certificate.ts';
import { SIGNING_PASSWORD_FAILURES, countAttempts, lockedForSeconds, recordAttempts } from '../../platform/limits/attempts.ts';
import { findWorkflowForCaller } from '../workflows/workflow-access.ts';
import { findSignerKey, insertSignerKey, lockSignerKey, updateSignerCertificate, type SignerKeyRow } from './signer-keys.repo.ts';

/** The first signing password must be at least this long (as an account password). */
export const SIGNING_PASSWORD_MIN_LENGTH = 8;

/** A signer's key, opened with the signing password for one signature. Never stored in this form. */
export type UnlockedSignerKey = {
  privateKey: webcrypto.CryptoKey;
  certificateDer: Uint8Array;
  chainDer: Uint8Array[];
  certificateSerial: string;
  /** True when this call created the key (first use of the signing password). */
  provisioned: boolean;
};

export type UnlockOutcome = { unlocked: true; key: UnlockedSignerKey } | { unlocked: false; attemptsLeft: number };

export type SigningKeyStatus = {
  useDigitalCert: boolean;
  provisioned: boolean;
  certificate: { subject: string; issuer: string; serialNumber: string; notBefore: string; notAfter: string } | null;
};

export type SignerKeyService = ReturnType<typeof createSignerKeyService>;

/**
 * Per-signer signing keys (RUNTIME.md "Signing password"): one key pair per person (email, lower-cased) across
 * workflows, its private key wrapped under the signing password (argon2id + AES-256-GCM), its certificate
 * issued by the platform CA with the person's name and email. The first use of a password provisions the key;
 * later uses must give the same password. Wrong passwords count per key like sign-in failures.
 */
export function createSignerKeyService(deps: { db: Db; ca: Pick<PlatformCaPublisher, 'issueSignerCertificate' | 'signerChainDer'> }) {
  return { unlock, status };

  /**
   * Opens (or, the first time, creates) the key of `subject.email` with `password`, inside the caller's
   * transaction. A wrong password is recorded against the key and answered as `{unlocked: false}` rather than
   * thrown, so the caller can commit the count and fail after it (a thrown error would roll the count back).
   * Locked (10 wrong passwords within 15 minutes): 401 ACCOUNT_TEMPORARILY_LOCKED with Retry-After, until 15
   * minutes after the last failure, the right password included.
   */
  async function unlock(tx: Tx, subject: SignerSubject, password: string): Promise<UnlockOutcome> {
    const email = subject.email.trim().toLowerCase();
    // The key's row lock first: tries on one key (from any workflow) serialize, so the count below is exact.
    const existing = await lockSignerKey(tx, email);
    const lockedSeconds = await lockedForSeconds(tx, SIGNING_PASSWORD_FAILURES, email);
    if (lockedSeconds !== null) {
      throw new AppError('ACCOUNT_TEMPORARILY_LOCKED', `Too many wrong signing passwords; try again in ${lockedSeconds} seconds`,
        { retryAfterSeconds: lockedSeconds }, { retryAfterSeconds: lockedSeconds });
    }
    if (existing) return open(tx, existing, { ...subject, email }, password);
    if ([...password].length < SIGNING_PASSWORD_MIN_LENGTH) {
      throw new AppError('SIGNING_PASSWORD_TOO_SHORT', `Choose a signing password of at least ${SIGNING_PASSWORD_MIN_LENGTH} characters; it protects your signing key`, { minLength: SIGNING_PASSWORD_MIN_LENGTH });
    }
    const keys = await generateSignerKeyPair();
    const wrapped = await wrapKey(keys.privateKeyPkcs8, password);
    const issued = await deps.ca.issueSignerCertificate({ name: subject.name, email }, keys.publicKey);
    const row = await insertSignerKey(tx, {
      email,
      name: subject.name,
      kdf: wrapped.kdf,
      wrapIv: wrapped.iv,
      wrappedKey: wrapped.ciphertext,
      wrapTag: wrapped.tag,
      certificate: Buffer.from(issued.certificateDer).toString('base64'),
      certificateSerial: certificateSerialHex(issued.certificateDer),
    });
    // A concurrent first use (another workflow of the same person) inserted its key first: that one is the key.
    if (!row) {
      const winner = await lockSignerKey(tx, email);
      if (!winner) throw new Error(`The signing key of ${email} vanished while it was being created`);
      return open(tx, winner, { ...subject, email }, password);
    }
    return { unlocked: true, key: { privateKey: keys.privateKey, ...issued, certificateSerial: row.certificateSerial, provisioned: true } };
  }

  async function open(tx: Tx, row: SignerKeyRow, subject: SignerSubject, password: string): Promise<UnlockOutcome> {
    const pkcs8 = await unwrapKey({ kdf: row.kdf as KdfParams, iv: row.wrapIv, ciphertext: row.wrappedKey, tag: row.wrapTag }, password);
    if (!pkcs8) {
      await recordAttempts(tx, [[SIGNING_PASSWORD_FAILURES, subject.email]]);
      const { count } = await countAttempts(tx, SIGNING_PASSWORD_FAILURES, subject.email);
      return { unlocked: false, attemptsLeft: Math.max(0, SIGNING_PASSWORD_FAILURES.max - count) };
    }
    const { privateKey, publicKey } = await importSignerKey(pkcs8);
    let current = row;
    let certificateDer = new Uint8Array(Buffer.from(row.certificate, 'base64'));
    // The same key keeps serving the person; its certificate follows their name and is renewed before it ends.
    if (signerCertificateNeedsRenewal(certificateDer, subject)) {
      const issued = await deps.ca.issueSignerCertificate(subject, publicKey);
      certificateDer = new Uint8Array(issued.certificateDer);
      current = await updateSignerCertificate(tx, row.id, {
        name: subject.name, certificate: Buffer.from(certificateDer).toString('base64'), certificateSerial: certificateSerialHex(certificateDer),
      });
    }
    return {
      unlocked: true,
      key: { privateKey, certificateDer, chainDer: await deps.ca.signerChainDer(), certificateSerial: current.certificateSerial, provisioned: false },
    };
  }

  /**
   * GET /workflow/v1/{workflowId}/signing-key: whether the caller's recipient row signs with a local certificate,
   * and whether its person already has a key (the signing page asks to create or to enter the password).
   */
  async function status(caller: Caller, workflowId: number): Promise<SigningKeyStatus> {
    const access = await findWorkflowForCaller(deps.db, caller, workflowId);
    const recipient = access.recipient;
    if (!recipient) throw new AppError('OPERATION_IS_NOT_ALLOWED', 'You are not a recipient of this workflow');
    const row = await findSignerKey(deps.db, recipient.email.trim().toLowerCase());
    return { useDigitalCert: recipient.useDigitalCert, provisioned: Boolean(row), certificate: row ? describe(row) : null };
  }
}

function describe(row: SignerKeyRow): NonNullable<SigningKeyStatus['certificate']> {
  const certificate = parseCertificate(new Uint8Array(Buffer.from(row.certificate, 'base64')));
  return {
    subject: formatName(certificate.subject),
    issuer: formatName(certificate.issuer),
    serialNumber: row.certificateSerial,
    notBefore: certificate.notBefore.value.toISOString(),
    notAfter: certificate.notAfter.value.toISOString(),
  };
}
