import crypto from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { AppError } from '../../errors.ts';
import type { TokenSigner } from '../../platform/auth/jwt.ts';
import { consumeChallenge, storeChallenge, takeChallengeAllowance } from '../../platform/auth/challenges.ts';
import type { Db } from '../../platform/db/client.ts';
import { lockedForSeconds, recordAttempts, SIGNIN_FAILURES_PER_ADDRESS } from '../../platform/limits/attempts.ts';
import type { Outbox } from '../../platform/mail/outbox.ts';
import type { Outbound } from '../../platform/outbound/outbound.ts';
import { issueSession, type SessionTokens } from '../auth/sessions.ts';
import { createSigninLimits } from '../auth/signin-limits.ts';
import { findSignInAccount } from '../users/accounts.ts';
import {
  CardRejected,
  MAX_CARD_INTERMEDIATES,
  checkCrl,
  crlUrls,
  emailOf,
  loadTrustAnchors,
  ocspUrls,
  parseCardCertificate,
  signatureMatches,
  verifyChain,
  type TrustAnchors,
} from './card-certificate.ts';
import { checkOcsp } from './ocsp.ts';
import type { HashBody, VerifyBody } from './smart-card.schemas.ts';

/** A hash is signed and sent back within 5 minutes, once. */
export const SMART_CARD_CHALLENGE_SECONDS = 5 * 60;
/** A revocation list or OCSP answer: at most this large, and this long to arrive. */
const REVOCATION_MAX_BYTES = 10 * 1024 * 1024;
const REVOCATION_TIMEOUT_MS = 10_000;

type Deps = { db: Db; tokens: TokenSigner; outbox: Outbox; outbound: Outbound; caFile: string | undefined };
/** Base64 DER; `intermediates` (what the card sent after its certificate) is absent in challenges stored before it existed. */
type ChallengeData = { certificate: string; intermediates?: string[]; signedBytes: string };

/**
 * Smart-card sign-in (SPEC.md "Smart card", RUNTIME.md): the card's certificate gets a hash to sign; the
 * signature over it signs in the registered account whose email the certificate names, once the certificate's
 * whole path to SMART_CARD_CA_FILE is valid (verifyChain) and no certificate of it is revoked.
 */
export function createSmartCardService({ db, tokens, outbox, outbound, caFile }: Deps) {
  // Read at start: a missing or empty bundle stops the service rather than failing every sign-in later.
  const anchors: TrustAnchors | null = caFile ? loadTrustAnchors(caFile) : null;
  const limits = createSigninLimits({ db, outbox });
  return { hash, verify };

  function assertEnabled(): TrustAnchors {
    if (!anchors)
      throw new AppError(
        'OPERATION_IS_NOT_ALLOWED',
        'Smart-card sign-in is not configured on this service (SMART_CARD_CA_FILE is unset)',
      );
    return anchors;
  }

  async function hash(body: HashBody, address: string): Promise<{ challengeId: string; hash: string }> {
    assertEnabled();
    const parsed = parseCardCertificate(body.certificate);
    if (!parsed) {
      throw new AppError(
        'SMART_CARD_CERTIFICATE_INVALID',
        `certificate must be the card's X.509 certificate in PEM, optionally followed by at most ${MAX_CARD_INTERMEDIATES} intermediate CA certificates`,
      );
    }
    const retryAfter = await takeChallengeAllowance(db, address);
    if (retryAfter !== null) {
      throw new AppError(
        'CHALLENGE_RATE_LIMITED',
        `Too many sign-in challenges from this address; try again in ${retryAfter} seconds`,
        { retryAfterSeconds: retryAfter },
        { retryAfterSeconds: retryAfter },
      );
    }
    // The card signs the digest of these bytes: random, and naming the service's purpose so they sign nothing else.
    const signedBytes = Buffer.concat([Buffer.from('smart-card-sign-in:'), crypto.randomBytes(32)]);
    const digest = crypto.createHash('sha256').update(signedBytes).digest('base64');
    const data: ChallengeData = {
      certificate: parsed.certificate.toString('base64'),
      intermediates: parsed.intermediates.map((der) => der.toString('base64')),
      signedBytes: signedBytes.toString('base64'),
    };
    const row = await storeChallenge(db, {
      purpose: 'SMART_CARD',
      challenge: digest,
      userId: null,
      data,
      lifetimeSeconds: SMART_CARD_CHALLENGE_SECONDS,
    });
    return { challengeId: row.id, hash: digest };
  }

  /**
   * Every refusal is 401 SMART_CARD_REJECTED with responseBody.reason, and counts against the sign-in limits:
   * the address always, the account of the certificate's email when it names one.
   */
  async function verify(body: VerifyBody, address: string): Promise<SessionTokens> {
    const trusted = assertEnabled();
    const addressLock = await lockedForSeconds(db, SIGNIN_FAILURES_PER_ADDRESS, address);
    if (addressLock !== null) {
      throw new AppError(
        'ACCOUNT_TEMPORARILY_LOCKED',
        `Too many failed sign-in attempts; try again in ${addressLock} seconds`,
        { retryAfterSeconds: addressLock },
        { retryAfterSeconds: addressLock },
      );
    }
    const challenge = await consumeChallenge(db, 'SMART_CARD', { id: body.challengeId });
    if (!challenge) {
      await recordAttempts(db, [[SIGNIN_FAILURES_PER_ADDRESS, address]]);
      throw rejection(
        new CardRejected('CHALLENGE', 'The challenge is unknown, expired or already used: ask for a new hash'),
      );
    }
    const data = challenge.data as ChallengeData;
    const certificate = Buffer.from(data.certificate, 'base64');
    const intermediates = (data.intermediates ?? []).map((der) => Buffer.from(der, 'base64'));
    const email = emailOf(certificate);
    const subject = { email: email ?? '', address };
    if (email) await limits.assertNotLocked(subject);
    const account = email ? await findSignInAccount(db, email) : null;
    try {
      if (
        !signatureMatches(certificate, Buffer.from(data.signedBytes, 'base64'), Buffer.from(body.signature, 'base64'))
      ) {
        throw new CardRejected('SIGNATURE', "The signature does not match the hash and the certificate's key");
      }
      const path = await verifyChain(certificate, intermediates, trusted);
      if (!email)
        throw new CardRejected(
          'NO_EMAIL',
          'The certificate names no email address (subjectAltName rfc822Name or subject emailAddress)',
        );
      if (!account) throw new CardRejected('NO_ACCOUNT', "No registered account has the certificate's email address");
      // As the SSO sign-in: an account that never verified the address may be someone else's squat, whose password they know.
      if (!account.emailVerifiedAt)
        throw new CardRejected(
          'ACCOUNT_NOT_VERIFIED',
          'The account holding this address has not verified it: open the link of its verification mail first',
        );
      // The card's certificate first, then each intermediate; the anchor is trusted as configured.
      for (let index = 0; index + 1 < path.length; index++)
        await checkRevocation(path[index], new crypto.X509Certificate(path[index + 1]), index > 0);
    } catch (error) {
      if (!(error instanceof CardRejected)) throw error;
      if (email) await limits.recordFailure(subject, account?.id ?? null);
      else await recordAttempts(db, [[SIGNIN_FAILURES_PER_ADDRESS, address]]);
      throw rejection(error);
    }
    await limits.recordSuccess(subject);
    return issueSession(db, tokens, {
      userId: account.id,
      type: 'USER',
      claims: { organizationId: account.organizationId },
      rememberMe: body.rememberMe ?? false,
    });
  }

  /** The revocation check of one certificate of the path; an intermediate's refusal names it. */
  async function checkRevocation(
    certificate: Buffer,
    issuer: crypto.X509Certificate,
    intermediate: boolean,
  ): Promise<void> {
    try {
      await checkRevocationSources(certificate, issuer);
    } catch (error) {
      if (!intermediate || !(error instanceof CardRejected)) throw error;
      const subject = new crypto.X509Certificate(certificate).subject.replace(/\n/g, ', ');
      throw new CardRejected(error.reason, error.message.replace(/^The certificate/, `The CA certificate ${subject}`));
    }
  }

  /**
   * Asks the OCSP responders the certificate names, then its CRL distribution points, through the outbound
   * client (SSRF rules): the first definite answer decides. A certificate that names a source none of which
   * answers usably (unreachable, refused by the rules, unsigned or stale) is refused: failing open would let a
   * revoked card in whenever its CA's server is down. A certificate that names no source is not checked.
   */
  async function checkRevocationSources(certificate: Buffer, issuer: crypto.X509Certificate): Promise<void> {
    const problems: string[] = [];
    for (const url of ocspUrls(certificate)) {
      try {
        await checkOcsp(certificate, issuer, (request) => fetchBytes(url, request));
        return;
      } catch (error) {
        if (error instanceof CardRejected && error.reason === 'REVOKED') throw error;
        problems.push(`${url}: ${(error as Error).message}`);
      }
    }
    for (const url of crlUrls(certificate)) {
      try {
        await checkCrl(await fetchBytes(url), certificate, issuer);
        return;
      } catch (error) {
        if (error instanceof CardRejected && error.reason === 'REVOKED') throw error;
        problems.push(`${url}: ${(error as Error).message}`);
      }
    }
    if (problems.length > 0)
      throw new CardRejected(
        'REVOCATION_UNKNOWN',
        `The certificate's revocation status could not be checked (${problems.join('; ')})`,
      );
  }

  async function fetchBytes(url: string, ocspRequest?: Buffer): Promise<Buffer> {
    const response = await outbound.request({
      url,
      method: ocspRequest ? 'POST' : 'GET',
      headers: ocspRequest ? { 'content-type': 'application/ocsp-request', accept: 'application/ocsp-response' } : {},
      body: ocspRequest,
      policy: { requireHttps: false },
      maxRedirects: 3,
      maxBytes: REVOCATION_MAX_BYTES,
      timeoutMs: REVOCATION_TIMEOUT_MS,
    });
    const bytes = await buffer(response.body);
    if (response.status !== 200) throw new Error(`answered HTTP ${response.status}`);
    return bytes;
  }
}

function rejection(error: CardRejected): AppError {
  return new AppError('SMART_CARD_REJECTED', error.message, { reason: error.reason });
}

export type SmartCardService = ReturnType<typeof createSmartCardService>;
