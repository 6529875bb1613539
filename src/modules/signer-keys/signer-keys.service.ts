import crypto, { type webcrypto } from 'node:crypto';
import { AppError } from '../../errors.ts';
import { ONE_TIME_CODE_RULES, assertResendAllowed, newOneTimeCode } from '../../platform/auth/one-time-codes.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { Db, DbOrTx, Tx } from '../../platform/db/client.ts';
import { senderMailLanguage } from '../users/mail-language.ts';
import type { Outbox } from '../../platform/mail/outbox.ts';
import type { PlatformCaPublisher } from '../../platform/crypto/platform-ca.ts';
import { unwrapKey, wrapKey, type KdfParams } from '../../platform/crypto/key-wrap.ts';
import { formatName, parseCertificate } from '../../platform/crypto/certificates.ts';
import {
  certificateSerialHex,
  generateSignerKeyPair,
  importSignerKey,
  signerCertificateNeedsRenewal,
  type SignerSubject,
} from '../../platform/crypto/signer-certificate.ts';
import {
  SIGNING_KEY_RESET_FAILURES,
  SIGNING_KEY_RESET_SENDS,
  SIGNING_PASSWORD_FAILURES,
  clearAttempts,
  countAttempts,
  lockedForSeconds,
  recordAttempts,
} from '../../platform/limits/attempts.ts';
import { findUserById, normalizeEmail } from '../users/users.directory.ts';
import { findWorkflowForCaller, ownRecipientRow, type RecipientRow } from '../workflows/workflow-access.ts';
import {
  countWrongResetCode,
  findSignerKey,
  hasPlatformLinkMail,
  insertSignerKey,
  lockSignerKey,
  replaceSignerKey,
  setResetCode,
  updateSignerCertificate,
  type SignerKeyRow,
} from './signer-keys.repo.ts';
import { signingKeyResetMail } from './signer-keys.mails.ts';

/** The first signing password must be at least this long (as an account password). */
export const SIGNING_PASSWORD_MIN_LENGTH = 8;

/** A new key through a mailed code: the code's rules, those of the identity step-up's one-time code. */
export const RESET_CODE_RULES = ONE_TIME_CODE_RULES;

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

/** Who signs with the key: the caller of the request and the recipient row it acts as. */
export type KeyHolder = { caller: Caller; recipient: RecipientRow };

export type SigningKeyStatus = {
  useDigitalCert: boolean;
  certifiable: boolean;
  provisioned: boolean;
  certificate: { subject: string; issuer: string; serialNumber: string; notBefore: string; notAfter: string } | null;
};

export type SignerKeyService = ReturnType<typeof createSignerKeyService>;

/**
 * Per-signer signing keys (RUNTIME.md "Signing password"): one key pair per person (email, lower-cased) across
 * workflows, its private key wrapped under the signing password (argon2id + AES-256-GCM), its certificate
 * issued by the platform CA with the person's name and email. The first use of a password provisions the key;
 * later uses must give the same password. Wrong passwords count per key like sign-in failures.
 *
 * A key is created or opened only for an address the platform has verified (RUNTIME.md round three): a registered
 * user whose address is verified, signing with their own token, or a guest whose signing link the platform's own
 * mail delivered. Otherwise anyone could have the platform certify an address they do not control, or squat a
 * person's key with a password of their own. A locked or forgotten key is replaced through a code mailed by the
 * platform to the key's address (`sendResetCode`, `reset`): a new key and certificate, earlier signatures untouched.
 */
export function createSignerKeyService(deps: {
  db: Db;
  outbox: Outbox;
  ca: Pick<PlatformCaPublisher, 'issueSignerCertificate' | 'signerChainDer'>;
}) {
  return { unlock, status, sendResetCode, reset };

  /**
   * Opens (or, the first time, creates) the key of the holder's verified address with `password`, inside the
   * caller's transaction. An unverified holder: 403 EMAIL_NOT_VERIFIED. A wrong password is recorded against the key
   * and answered as `{unlocked: false}` rather than thrown, so the caller can commit the count and fail after it (a
   * thrown error would roll the count back). Locked (10 wrong passwords within 15 minutes): 401
   * ACCOUNT_TEMPORARILY_LOCKED with Retry-After, until 15 minutes after the last failure, the right password included.
   */
  async function unlock(tx: Tx, holder: KeyHolder, password: string): Promise<UnlockOutcome> {
    const subject = await certifiedSubject(tx, holder);
    const { email } = subject;
    // The key's row lock first: tries on one key (from any workflow) serialize, so the count below is exact.
    const existing = await lockSignerKey(tx, email);
    const lockedSeconds = await lockedForSeconds(tx, SIGNING_PASSWORD_FAILURES, email);
    if (lockedSeconds !== null) {
      throw new AppError(
        'ACCOUNT_TEMPORARILY_LOCKED',
        `Too many wrong signing passwords; try again in ${lockedSeconds} seconds, or get a new signing key with a code mailed to you (POST /workflow/v1/{workflowId}/signing-key/reset-code)`,
        { retryAfterSeconds: lockedSeconds, resettable: true },
        { retryAfterSeconds: lockedSeconds },
      );
    }
    if (existing) return open(tx, existing, subject, password);
    assertNewPassword(password);
    const created = await newKeyMaterial(subject, password);
    const row = await insertSignerKey(tx, { email, name: subject.name, ...created.stored });
    // A concurrent first use (another workflow of the same person) inserted its key first: that one is the key.
    if (!row) {
      const winner = await lockSignerKey(tx, email);
      if (!winner) throw new Error(`The signing key of ${email} vanished while it was being created`);
      return open(tx, winner, subject, password);
    }
    return { unlocked: true, key: { ...created.key, certificateSerial: row.certificateSerial, provisioned: true } };
  }

  /**
   * The name and address a key is certified for, once the holder proved the address: a registered user with a verified
   * address acting with their own token (the account's name), or a signing link the platform's own mail delivered to
   * the row's address (the verified account's name when the address belongs to one, else the row's name). A business
   * app's token never signs with a person's key: the signer types the signing password on the signing page.
   */
  async function certifiedSubject(db: DbOrTx, holder: KeyHolder): Promise<SignerSubject> {
    const { caller, recipient } = holder;
    const email = normalizeEmail(recipient.email);
    if (caller.kind === 'user' && caller.appId !== undefined) {
      throw new AppError(
        'USER_NOT_HAVE_ACCESS',
        "A business app cannot sign with a person's platform-certified key: the signer enters the signing password on the signing page",
      );
    }
    const user = await findUserById(db, caller.userId);
    const verifiedAccount =
      user !== null && !user.isGuest && user.emailVerifiedAt !== null && normalizeEmail(user.email) === email;
    if (caller.kind === 'user') {
      if (!verifiedAccount)
        throw notVerified(
          `Confirm your email address (${email}) before signing with a platform-certified key: open the link mailed at sign-up`,
        );
      return { name: user.name, email };
    }
    if (!(await hasPlatformLinkMail(db, recipient.workflowId, recipient.id))) {
      throw notVerified(
        "This signing link did not come through the platform's own mail, so it does not prove the address: ask the sender for a reminder, which the platform mails",
      );
    }
    return { name: verifiedAccount ? user.name : recipient.name, email };
  }

  async function open(tx: Tx, row: SignerKeyRow, subject: SignerSubject, password: string): Promise<UnlockOutcome> {
    const pkcs8 = await unwrapKey(
      { kdf: row.kdf as KdfParams, iv: row.wrapIv, ciphertext: row.wrappedKey, tag: row.wrapTag },
      password,
    );
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
        name: subject.name,
        certificate: Buffer.from(certificateDer).toString('base64'),
        certificateSerial: certificateSerialHex(certificateDer),
      });
    }
    return {
      unlocked: true,
      key: {
        privateKey,
        certificateDer,
        chainDer: await deps.ca.signerChainDer(),
        certificateSerial: current.certificateSerial,
        provisioned: false,
      },
    };
  }

  /** A key pair, wrapped under `password`, and its certificate for `subject`. */
  async function newKeyMaterial(subject: SignerSubject, password: string) {
    const keys = await generateSignerKeyPair();
    const wrapped = await wrapKey(keys.privateKeyPkcs8, password);
    const issued = await deps.ca.issueSignerCertificate(subject, keys.publicKey);
    return {
      stored: {
        kdf: wrapped.kdf,
        wrapIv: wrapped.iv,
        wrappedKey: wrapped.ciphertext,
        wrapTag: wrapped.tag,
        certificate: Buffer.from(issued.certificateDer).toString('base64'),
        certificateSerial: certificateSerialHex(issued.certificateDer),
      },
      key: { privateKey: keys.privateKey, ...issued },
    };
  }

  /** The recipient row of the caller that signs with a platform-certified key, with the workflow it belongs to. */
  async function keyRecipient(tx: DbOrTx, caller: Caller, workflowId: number, options: { lock?: boolean } = {}) {
    const access = await findWorkflowForCaller(tx, caller, workflowId, options);
    return { access, recipient: ownRecipientRow(access) };
  }

  /**
   * GET /workflow/v1/{workflowId}/signing-key: whether the caller's recipient row signs with a local certificate,
   * whether the platform may certify its address for this caller, and whether its person already has a key (the
   * signing page asks to create or to enter the password, or to confirm the address first).
   */
  async function status(caller: Caller, workflowId: number): Promise<SigningKeyStatus> {
    const { recipient } = await keyRecipient(deps.db, caller, workflowId);
    const certifiable = await certifiedSubject(deps.db, { caller, recipient }).then(
      () => true,
      (error: unknown) => {
        if (error instanceof AppError && (error.code === 'EMAIL_NOT_VERIFIED' || error.code === 'USER_NOT_HAVE_ACCESS'))
          return false;
        throw error;
      },
    );
    const row = await findSignerKey(deps.db, normalizeEmail(recipient.email));
    return {
      useDigitalCert: recipient.useDigitalCert,
      certifiable,
      provisioned: Boolean(row),
      certificate: row ? describe(row) : null,
    };
  }

  /** The caller's recipient row, its certified subject and the key a reset replaces, locked; refused when there is none. */
  async function keyToReset(tx: Tx, caller: Caller, workflowId: number) {
    const { access, recipient } = await keyRecipient(tx, caller, workflowId, { lock: true });
    if (!recipient.useDigitalCert)
      throw new AppError(
        'OPERATION_IS_NOT_ALLOWED',
        'This recipient does not sign with a personal certificate (useDigitalCert is false)',
      );
    const subject = await certifiedSubject(tx, { caller, recipient });
    const key = await lockSignerKey(tx, subject.email);
    if (!key)
      throw new AppError(
        'OPERATION_IS_NOT_ALLOWED',
        'There is no signing key to replace yet: the first signing password creates it',
      );
    return { access, recipient, subject, key };
  }

  /**
   * POST /workflow/v1/{workflowId}/signing-key/reset-code: mails a code for a new key to the key's address, through the
   * platform's own mail (it proves the address). For a recipient row with useDigitalCert whose holder is certifiable
   * and whose person has a key. One code at a time; another within 30 seconds: 429 OTP_RESEND_TOO_SOON; at most 10 a
   * day and none while 5 wrong codes of the hour stand: 400 OTP_LIMIT_REACHED.
   */
  async function sendResetCode(
    caller: Caller,
    workflowId: number,
    now = new Date(),
  ): Promise<{ expiresAt: Date; resendAfterSeconds: number }> {
    const sent = await deps.db.transaction(async (tx) => {
      const { access, recipient, subject, key } = await keyToReset(tx, caller, workflowId);
      await assertUnderResetLimits(tx, subject.email, now, true);
      assertResendAllowed(key.resetCodeSentAt, now);
      const code = newOneTimeCode();
      const expiresAt = new Date(now.getTime() + RESET_CODE_RULES.lifetimeMinutes * 60_000);
      await setResetCode(tx, key.id, { hash: resetCodeHash(key.id, code), sentAt: now, expiresAt });
      const language = await senderMailLanguage(tx, access.workflow);
      await deps.outbox.enqueue(
        tx,
        signingKeyResetMail({
          organizationId: access.workflow.organizationId,
          workflowId: access.workflow.id,
          recipientId: recipient.id,
          to: subject.email,
          name: subject.name,
          code,
          lifetimeMinutes: RESET_CODE_RULES.lifetimeMinutes,
          language,
        }),
      );
      await recordAttempts(tx, [[SIGNING_KEY_RESET_SENDS, subject.email]]);
      return { expiresAt, resendAfterSeconds: RESET_CODE_RULES.resendSeconds };
    });
    deps.outbox.notify();
    return sent;
  }

  /**
   * POST /workflow/v1/{workflowId}/signing-key/reset `{code, password}`: the mailed code replaces the key with a new
   * one wrapped under `password` and certified anew; the old key is gone, its certificate unrevoked, so every earlier
   * signature stays valid. The wrong-password lock of the key is lifted. A wrong or expired code: 400 OTP_INVALID,
   * counted (5 tries a code, 5 wrong codes an hour).
   */
  async function reset(
    caller: Caller,
    workflowId: number,
    body: { code: string | number; password: string },
    now = new Date(),
  ): Promise<SigningKeyStatus> {
    const outcome = await deps.db.transaction(async (tx) => {
      const { recipient, subject, key } = await keyToReset(tx, caller, workflowId);
      await assertUnderResetLimits(tx, subject.email, now, false);
      const code =
        typeof body.code === 'number' ? String(body.code).padStart(RESET_CODE_RULES.digits, '0') : body.code.trim();
      const live =
        key.resetCodeHash !== null &&
        key.resetCodeExpiresAt !== null &&
        key.resetCodeExpiresAt.getTime() > now.getTime() &&
        key.resetCodeAttempts < RESET_CODE_RULES.maxAttempts;
      if (!live || !sameHash(key.resetCodeHash!, resetCodeHash(key.id, code))) {
        if (live) await countWrongResetCode(tx, key.id);
        await recordAttempts(tx, [[SIGNING_KEY_RESET_FAILURES, subject.email]]);
        // Committed, then refused: the count must stand.
        return { wrongCode: true as const, live };
      }
      assertNewPassword(body.password);
      const created = await newKeyMaterial(subject, body.password);
      const row = await replaceSignerKey(tx, key.id, { name: subject.name, ...created.stored });
      await clearAttempts(tx, SIGNING_PASSWORD_FAILURES, subject.email);
      return { wrongCode: false as const, row, recipient };
    });
    if (outcome.wrongCode) {
      throw new AppError(
        'OTP_INVALID',
        outcome.live
          ? 'The code is not the one mailed'
          : 'No live code: ask for a new one (it lasts 10 minutes and 5 tries)',
      );
    }
    return { useDigitalCert: true, certifiable: true, provisioned: true, certificate: describe(outcome.row) };
  }

  async function assertUnderResetLimits(tx: DbOrTx, email: string, now: Date, checkSends: boolean): Promise<void> {
    const wrong = await lockedForSeconds(tx, SIGNING_KEY_RESET_FAILURES, email, now);
    const mailed = checkSends ? await lockedForSeconds(tx, SIGNING_KEY_RESET_SENDS, email, now) : null;
    const retryAfterSeconds = Math.max(wrong ?? 0, mailed ?? 0);
    if (retryAfterSeconds === 0) return;
    const limit = (mailed ?? 0) > (wrong ?? 0) ? 'CODES_PER_DAY' : 'WRONG_CODES_PER_HOUR';
    throw new AppError(
      'OTP_LIMIT_REACHED',
      `Too many signing-key codes; try again in ${retryAfterSeconds} seconds`,
      { limit, retryAfterSeconds },
      { retryAfterSeconds },
    );
  }
}

function notVerified(detail: string): AppError {
  return new AppError('EMAIL_NOT_VERIFIED', detail);
}

function assertNewPassword(password: string): void {
  if ([...password].length < SIGNING_PASSWORD_MIN_LENGTH) {
    throw new AppError(
      'SIGNING_PASSWORD_TOO_SHORT',
      `Choose a signing password of at least ${SIGNING_PASSWORD_MIN_LENGTH} characters; it protects your signing key`,
      { minLength: SIGNING_PASSWORD_MIN_LENGTH },
    );
  }
}

/** The stored form of a reset code: bound to the key row, so a code of one key never opens another. */
function resetCodeHash(keyId: number, code: string): string {
  return crypto.createHash('sha256').update(`signing-key-reset:${keyId}:${code}`).digest('base64url');
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
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
