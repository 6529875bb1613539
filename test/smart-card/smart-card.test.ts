import 'reflect-metadata';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as x509 from '@peculiar/x509';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser } from '../helpers/factories.ts';
import {
  caAsCard,
  createCa,
  createCrl,
  issueCard,
  ocspAnswer,
  selfSignedCard,
  signHash,
  type TestCa,
  type TestCard,
} from '../helpers/card-certificates.ts';
import { authChallenges, users } from '../../src/platform/db/schema/index.ts';

let t: TestApp;
let ca: TestCa;
let otherCa: TestCa;
let crlServer: http.Server;
let crlUrl: string;
let crlRequests = 0;
let crl: Buffer;
let ocspUrl: string;
let ocspRequests = 0;
let ocspStatus: 'good' | 'revoked' | 'broken' = 'good';
let ocspSigner: TestCa;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smart-card-'));

beforeAll(async () => {
  ca = await createCa('Test Card CA');
  otherCa = await createCa('Some Other CA');
  crl = await createCrl(ca, []);
  ocspSigner = ca;
  // One local server for the CA's revocation sources: the CRL (GET /ca.crl) and an OCSP responder (POST /ocsp).
  crlServer = http.createServer((request, response) => {
    if (request.url === '/ca.crl') {
      crlRequests += 1;
      response.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(crl);
      return;
    }
    if (request.url === '/ocsp' && request.method === 'POST') {
      ocspRequests += 1;
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', async () => {
        if (ocspStatus === 'broken') return void response.writeHead(500).end();
        const answer = await ocspAnswer(Buffer.concat(chunks), ocspSigner, ocspStatus);
        response.writeHead(200, { 'content-type': 'application/ocsp-response' }).end(answer);
      });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => crlServer.listen(0, '127.0.0.1', resolve));
  crlUrl = `http://127.0.0.1:${(crlServer.address() as AddressInfo).port}/ca.crl`;
  ocspUrl = crlUrl.replace('/ca.crl', '/ocsp');
  const caFile = path.join(dir, 'cards-ca.pem');
  fs.writeFileSync(caFile, ca.pem);
  t = await createTestApp({ smartCardCaFile: caFile, outboundAllowPrivate: true });
});
afterAll(async () => {
  await t?.close();
  crlServer?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function hashFor(card: TestCard | string) {
  const res = await t.request('POST', '/auth/v1/smart_card/hash', {
    body: { certificate: typeof card === 'string' ? card : card.pem },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { challengeId: string; hash: string };
}

async function signIn(
  card: TestCard,
  options: { signer?: TestCard; ecdsaEncoding?: 'der' | 'ieee-p1363'; rememberMe?: boolean } = {},
) {
  const { challengeId, hash } = await hashFor(card);
  return t.request('POST', '/auth/v1/smart_card/signature/verify', {
    body: {
      challengeId,
      signature: signHash(options.signer ?? card, hash, options),
      ...(options.rememberMe === undefined ? {} : { rememberMe: options.rememberMe }),
    },
  });
}

function expectRejected(res: { status: number; body: any }, reason: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(401);
  expect(res.body.message).toBe('SMART_CARD_REJECTED');
  expect(res.body.responseBody.reason).toBe(reason);
}

describe('smart-card sign-in', () => {
  it('signs in with an RSA card (email in subjectAltName), after checking its CRL', async () => {
    const user = await createUser(t);
    const card = await issueCard(ca, { email: user.email.toUpperCase(), kind: 'RSA', crlUrl });
    const { challengeId, hash } = await hashFor(card);
    expect(Buffer.from(hash, 'base64')).toHaveLength(32);
    const before = crlRequests;
    const res = await t.request('POST', '/auth/v1/smart_card/signature/verify', {
      body: { challengeId, signature: signHash(card, hash), rememberMe: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      accessToken: expect.any(String),
      tokenType: 'Bearer',
      expiry: 900,
      refreshToken: expect.any(String),
      rememberMe: true,
    });
    expect(crlRequests).toBe(before + 1);
    const profile = await t.request('GET', '/user/v1/settings/profile', { token: res.body.accessToken });
    expect(profile.body.id).toBe(user.userId);
    // The challenge is single use.
    const again = await t.request('POST', '/auth/v1/smart_card/signature/verify', {
      body: { challengeId, signature: signHash(card, hash) },
    });
    expectRejected(again, 'CHALLENGE');
  });

  it('signs in with an ECDSA card (email in the subject), DER or raw r||s, without asking for TOTP', async () => {
    const user = await createUser(t);
    await t.platform.db
      .update(users)
      .set({ twoFactorEnabled: true, totpSecret: 'JBSWY3DPEHPK3PXP' })
      .where(eq(users.id, user.userId));
    const card = await issueCard(ca, { email: user.email, kind: 'EC', emailIn: 'SUBJECT' });
    for (const ecdsaEncoding of ['der', 'ieee-p1363'] as const) {
      const res = await signIn(card, { ecdsaEncoding });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.rememberMe).toBe(false);
    }
  });

  it('refuses an expired card, a card not yet valid, one of another CA, a CA certificate and a self-signed one', async () => {
    const user = await createUser(t);
    const day = 24 * 3600 * 1000;
    expectRejected(
      await signIn(
        await issueCard(ca, {
          email: user.email,
          notBefore: new Date(Date.now() - 30 * day),
          notAfter: new Date(Date.now() - day),
        }),
      ),
      'EXPIRED',
    );
    expectRejected(
      await signIn(await issueCard(ca, { email: user.email, notBefore: new Date(Date.now() + day) })),
      'NOT_YET_VALID',
    );
    expectRejected(await signIn(await issueCard(otherCa, { email: user.email, kind: 'EC' })), 'UNTRUSTED_ISSUER');
    // Another CA whose name is the trusted one's: the signature decides, not the name.
    const lookalike = await createCa('Test Card CA');
    expectRejected(await signIn(await issueCard(lookalike, { email: user.email, kind: 'EC' })), 'UNTRUSTED_ISSUER');
    // The trusted CA's own certificate, signed with the CA's key: a CA is not a card.
    expectRejected(await signIn(await caAsCard(ca)), 'KEY_USAGE');
    // A certificate that signs itself, with the right email and key usage.
    expectRejected(await signIn(await selfSignedCard(user.email)), 'UNTRUSTED_ISSUER');
  });

  it('refuses a wrong signature: another key, another hash, garbage', async () => {
    const user = await createUser(t);
    const card = await issueCard(ca, { email: user.email, kind: 'RSA' });
    const stranger = await issueCard(ca, { email: 'stranger@example.com', kind: 'RSA' });
    expectRejected(await signIn(card, { signer: stranger }), 'SIGNATURE');
    const first = await hashFor(card);
    const second = await hashFor(card);
    expectRejected(
      await t.request('POST', '/auth/v1/smart_card/signature/verify', {
        body: { challengeId: first.challengeId, signature: signHash(card, second.hash) },
      }),
      'SIGNATURE',
    );
    expectRejected(
      await t.request('POST', '/auth/v1/smart_card/signature/verify', {
        body: { challengeId: second.challengeId, signature: 'c2lnbmF0dXJl' },
      }),
      'SIGNATURE',
    );
  });

  it('refuses a card without digitalSignature, without an email, or whose email has no account', async () => {
    const user = await createUser(t);
    expectRejected(
      await signIn(await issueCard(ca, { email: user.email, kind: 'EC', usages: x509.KeyUsageFlags.keyEncipherment })),
      'KEY_USAGE',
    );
    expectRejected(
      await signIn(await issueCard(ca, { email: 'no-at-sign', kind: 'EC', emailIn: 'SUBJECT' })),
      'NO_EMAIL',
    );
    expectRejected(await signIn(await issueCard(ca, { email: 'nobody@example.com', kind: 'EC' })), 'NO_ACCOUNT');
  });

  it('refuses a revoked card (CRL from a local server) and a card whose CRL cannot be had', async () => {
    const user = await createUser(t);
    const revoked = await issueCard(ca, { email: user.email, kind: 'EC', crlUrl });
    crl = await createCrl(ca, [revoked.serial]);
    try {
      expectRejected(await signIn(revoked), 'REVOKED');
      // A CRL signed by another CA is not believed; nor is one past its nextUpdate.
      crl = await createCrl(otherCa, []);
      expectRejected(await signIn(revoked), 'REVOCATION_UNKNOWN');
      crl = await createCrl(ca, [], { nextUpdate: new Date(Date.now() - 1000) });
      expectRejected(await signIn(revoked), 'REVOCATION_UNKNOWN');
    } finally {
      crl = await createCrl(ca, []);
    }
    expect((await signIn(revoked)).status).toBe(200);
    // The outbound rules refuse the cloud metadata address even in tests: the status is unknown, so the card is refused.
    expectRejected(
      await signIn(await issueCard(ca, { email: user.email, kind: 'EC', crlUrl: 'http://169.254.169.254/ca.crl' })),
      'REVOCATION_UNKNOWN',
    );
    expectRejected(
      await signIn(
        await issueCard(ca, { email: user.email, kind: 'EC', crlUrl: crlUrl.replace('/ca.crl', '/missing.crl') }),
      ),
      'REVOCATION_UNKNOWN',
    );
  });

  it('asks the OCSP responder the certificate names: good signs in, revoked and unverifiable answers do not', async () => {
    const user = await createUser(t);
    const card = await issueCard(ca, { email: user.email, kind: 'RSA', ocspUrl });
    const before = ocspRequests;
    expect((await signIn(card)).status).toBe(200);
    expect(ocspRequests).toBe(before + 1);
    try {
      ocspStatus = 'revoked';
      expectRejected(await signIn(card), 'REVOKED');
      ocspStatus = 'good';
      ocspSigner = otherCa;
      expectRejected(await signIn(card), 'REVOCATION_UNKNOWN');
      ocspSigner = ca;
      ocspStatus = 'broken';
      expectRejected(await signIn(card), 'REVOCATION_UNKNOWN');
      // With the responder down, the CRL the certificate also names decides.
      const both = await issueCard(ca, { email: user.email, kind: 'EC', ocspUrl, crlUrl });
      expect((await signIn(both)).status).toBe(200);
    } finally {
      ocspStatus = 'good';
      ocspSigner = ca;
    }
  });

  it('refuses an expired or unknown challenge', async () => {
    const user = await createUser(t);
    const card = await issueCard(ca, { email: user.email, kind: 'EC' });
    const { challengeId, hash } = await hashFor(card);
    await t.platform.db
      .update(authChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authChallenges.id, challengeId));
    expectRejected(
      await t.request('POST', '/auth/v1/smart_card/signature/verify', {
        body: { challengeId, signature: signHash(card, hash) },
      }),
      'CHALLENGE',
    );
    expectRejected(
      await t.request('POST', '/auth/v1/smart_card/signature/verify', {
        body: { challengeId: 'not-a-challenge', signature: signHash(card, hash) },
      }),
      'CHALLENGE',
    );
  });

  it("counts failures against the certificate's account: after 10, even a good signature is locked out", async () => {
    const user = await createUser(t);
    const card = await issueCard(ca, { email: user.email, kind: 'EC' });
    const stranger = await issueCard(ca, { email: 'x@example.com', kind: 'EC' });
    for (let i = 0; i < 10; i++) expectRejected(await signIn(card, { signer: stranger }), 'SIGNATURE');
    const locked = await signIn(card);
    expect(locked.status).toBe(401);
    expect(locked.body.message).toBe('ACCOUNT_TEMPORARILY_LOCKED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    const password = await t.request('POST', '/auth/v1/signin', {
      body: { grant_type: 'PASSWORD', username: user.email, password: user.password },
    });
    expect(password.body.message).toBe('ACCOUNT_TEMPORARILY_LOCKED');
  });

  it('refuses what is not readable certificates, and malformed bodies, with 400', async () => {
    // Intermediates may follow the card's certificate (test/security/smart-card-chain.test.ts); each must be readable.
    for (const certificate of [
      'garbage',
      '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
      `${ca.pem}\n-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----`,
    ]) {
      const res = await t.request('POST', '/auth/v1/smart_card/hash', { body: { certificate } });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('SMART_CARD_CERTIFICATE_INVALID');
    }
    expect((await t.request('POST', '/auth/v1/smart_card/hash', { body: {} })).status).toBe(400);
    expect(
      (await t.request('POST', '/auth/v1/smart_card/hash', { body: { certificate: 'x'.repeat(20000) } })).status,
    ).toBe(400);
    expect(
      (await t.request('POST', '/auth/v1/smart_card/signature/verify', { body: { challengeId: 'x' } })).status,
    ).toBe(400);
    expect(
      (
        await t.request('POST', '/auth/v1/smart_card/signature/verify', {
          body: { challengeId: 'x', signature: 'not base64!' },
        })
      ).status,
    ).toBe(400);
  });
});

describe('smart-card sign-in without SMART_CARD_CA_FILE', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await createTestApp();
  });
  afterAll(async () => {
    await off?.close();
  });

  it('answers 400 OPERATION_IS_NOT_ALLOWED', async () => {
    const card = await issueCard(ca, { email: 'someone@example.com', kind: 'EC' });
    const hash = await off.request('POST', '/auth/v1/smart_card/hash', { body: { certificate: card.pem } });
    expect(hash.status).toBe(400);
    expect(hash.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
    const verify = await off.request('POST', '/auth/v1/smart_card/signature/verify', {
      body: { challengeId: 'x', signature: 'AAAA' },
    });
    expect(verify.status).toBe(400);
    expect(verify.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
  });
});
