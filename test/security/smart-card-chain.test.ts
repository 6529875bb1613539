import 'reflect-metadata';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as x509 from '@peculiar/x509';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser } from '../helpers/factories.ts';
import {
  EKU,
  createCa,
  createCrl,
  issueCard,
  signHash,
  withChain,
  type TestCa,
  type TestCard,
} from '../helpers/card-certificates.ts';

/**
 * Smart-card sign-in validates the whole path from the card's certificate to a CA of SMART_CARD_CA_FILE (issue
 * item 9): intermediates from the bundle or sent after the card's certificate; every certificate's validity and
 * signature; basicConstraints cA and pathLen and keyCertSign on issuers; digitalSignature and an extended key usage
 * for sign-in (clientAuth or smart-card logon) on the card's; revocation of each certificate that names a source.
 * The bundle here holds a root, one of its intermediates and a root that allows no intermediate (pathLen 0).
 */
const day = 24 * 3600 * 1000;
let t: TestApp;
let root: TestCa;
let issuing: TestCa;
let bundleIssuing: TestCa;
let revokedIssuing: TestCa;
let zeroRoot: TestCa;
let rootCrl: Buffer;
let crlRequests = 0;
let crlServer: http.Server;
let crlBase: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smart-card-chain-'));

beforeAll(async () => {
  crlServer = http.createServer((request, response) => {
    if (request.url === '/root.crl') {
      crlRequests += 1;
      response.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(rootCrl);
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => crlServer.listen(0, '127.0.0.1', resolve));
  crlBase = `http://127.0.0.1:${(crlServer.address() as AddressInfo).port}`;
  root = await createCa('Chain Root CA');
  issuing = await createCa('Chain Issuing CA', { issuer: root, crlUrl: `${crlBase}/root.crl` });
  bundleIssuing = await createCa('Bundle Issuing CA', { issuer: root });
  revokedIssuing = await createCa('Revoked Issuing CA', { issuer: root, crlUrl: `${crlBase}/root.crl` });
  zeroRoot = await createCa('Leaf-only Root CA', { pathLength: 0 });
  rootCrl = await createCrl(root, [revokedIssuing.serial]);
  const caFile = path.join(dir, 'bundle.pem');
  fs.writeFileSync(caFile, [root.pem, bundleIssuing.pem, zeroRoot.pem].join('\n'));
  t = await createTestApp({ smartCardCaFile: caFile, outboundAllowPrivate: true });
}, 60_000);
afterAll(async () => {
  await t?.close();
  crlServer?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function signIn(certificate: string, card: TestCard) {
  const hash = await t.request('POST', '/auth/v1/smart_card/hash', { body: { certificate } });
  expect(hash.status, JSON.stringify(hash.body)).toBe(200);
  return t.request('POST', '/auth/v1/smart_card/signature/verify', {
    body: { challengeId: hash.body.challengeId, signature: signHash(card, hash.body.hash) },
  });
}

function expectRejected(res: { status: number; body: any }, reason: string, description?: RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(401);
  expect(res.body.message).toBe('SMART_CARD_REJECTED');
  expect(res.body.responseBody, JSON.stringify(res.body)).toEqual({ reason });
  if (description) expect(res.body.errorDescription).toMatch(description);
}

describe('the path to SMART_CARD_CA_FILE', () => {
  it('signs in with a card issued by an intermediate the card sends after its certificate (the root in the bundle)', async () => {
    const { email } = await createUser(t);
    const card = await issueCard(issuing, { email: email, kind: 'RSA' });
    const before = crlRequests;
    const res = await signIn(withChain(card, issuing), card);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The intermediate names the root's CRL: it was asked about the intermediate.
    expect(crlRequests).toBe(before + 1);
    // The root may come along too, and the order of what follows the card's certificate does not matter.
    expect((await signIn(withChain(card, root, issuing), card)).status).toBe(200);
  });

  it('signs in with a card issued by an intermediate of the bundle, sent alone, and with either sign-in EKU', async () => {
    const { email } = await createUser(t);
    for (const extendedKeyUsages of [
      [EKU.clientAuth],
      [EKU.smartCardLogon],
      [EKU.emailProtection, EKU.smartCardLogon],
    ]) {
      const card = await issueCard(bundleIssuing, { email: email, kind: 'EC', extendedKeyUsages });
      const res = await signIn(card.pem, card);
      expect(res.status, `${extendedKeyUsages}: ${JSON.stringify(res.body)}`).toBe(200);
    }
  });

  it('refuses a card whose intermediate is missing: UNTRUSTED_ISSUER', async () => {
    const { email } = await createUser(t);
    const card = await issueCard(issuing, { email: email, kind: 'EC' });
    expectRejected(await signIn(card.pem, card), 'UNTRUSTED_ISSUER', /Chain Issuing CA/);
  });

  it('refuses a card chaining to a CA that is not in the bundle, even when the card sends that CA: UNTRUSTED_ISSUER', async () => {
    const { email } = await createUser(t);
    const otherRoot = await createCa('Other Root CA');
    const otherIssuing = await createCa('Other Issuing CA', { issuer: otherRoot });
    const card = await issueCard(otherIssuing, { email: email, kind: 'EC' });
    expectRejected(await signIn(withChain(card, otherIssuing, otherRoot), card), 'UNTRUSTED_ISSUER');
    // A look-alike chain: the trusted names, other keys.
    const fakeRoot = await createCa('Chain Root CA');
    const fakeIssuing = await createCa('Chain Issuing CA', { issuer: fakeRoot });
    const fake = await issueCard(fakeIssuing, { email: email, kind: 'EC' });
    expectRejected(await signIn(withChain(fake, fakeIssuing, fakeRoot), fake), 'UNTRUSTED_ISSUER');
    // The right name over a signature the trusted root did not make.
    const forgedIssuing = await createCa('Chain Issuing CA', { issuer: fakeRoot });
    const forged = await issueCard(forgedIssuing, { email: email, kind: 'EC' });
    expectRejected(await signIn(withChain(forged, forgedIssuing), forged), 'UNTRUSTED_ISSUER');
  });

  it('refuses a card whose intermediate has expired or is not valid yet: EXPIRED, NOT_YET_VALID', async () => {
    const { email } = await createUser(t);
    const expired = await createCa('Expired Issuing CA', {
      issuer: root,
      notBefore: new Date(Date.now() - 30 * day),
      notAfter: new Date(Date.now() - day),
    });
    const card = await issueCard(expired, { email: email, kind: 'EC' });
    expectRejected(await signIn(withChain(card, expired), card), 'EXPIRED', /Expired Issuing CA/);
    const early = await createCa('Future Issuing CA', { issuer: root, notBefore: new Date(Date.now() + day) });
    const earlyCard = await issueCard(early, { email: email, kind: 'EC' });
    expectRejected(await signIn(withChain(earlyCard, early), earlyCard), 'NOT_YET_VALID', /Future Issuing CA/);
  });

  it('refuses a card whose issuer is not a CA (basicConstraints cA false or absent, or another card): ISSUER_NOT_CA', async () => {
    const { email } = await createUser(t);
    for (const options of [{ ca: false }, { basicConstraints: false, usages: null }]) {
      const notCa = await createCa('Not A CA', { issuer: root, ...options });
      const card = await issueCard(notCa, { email: email, kind: 'EC' });
      expectRejected(await signIn(withChain(card, notCa), card), 'ISSUER_NOT_CA', /Not A CA/);
    }
    // A holder of a genuine card uses its key to certify someone else's address.
    const mallory = await issueCard(bundleIssuing, { email: 'mallory@example.com', kind: 'EC' });
    const forged = await issueCard(mallory, { email: email, kind: 'EC' });
    expectRejected(await signIn(withChain(forged, mallory), forged), 'ISSUER_NOT_CA');
  });

  it("refuses a path longer than an issuer's pathLen allows: PATH_LENGTH", async () => {
    const { email } = await createUser(t);
    const under = await createCa('Under Leaf-only Root', { issuer: zeroRoot });
    const card = await issueCard(under, { email: email, kind: 'EC' });
    expectRejected(await signIn(withChain(card, under), card), 'PATH_LENGTH', /Leaf-only Root CA/);
    // pathLen 0 on an intermediate: it may issue cards, not another CA.
    const policy = await createCa('Policy CA', { issuer: root, pathLength: 0 });
    const sub = await createCa('Sub CA', { issuer: policy });
    const deep = await issueCard(sub, { email: email, kind: 'EC' });
    expectRejected(await signIn(withChain(deep, sub, policy), deep), 'PATH_LENGTH', /Policy CA/);
    const direct = await issueCard(policy, { email: email, kind: 'EC' });
    expect((await signIn(withChain(direct, policy), direct)).status).toBe(200);
  });

  it('refuses an issuer whose key usage leaves out keyCertSign: KEY_USAGE', async () => {
    const { email } = await createUser(t);
    const crlOnly = await createCa('CRL-only CA', { issuer: root, usages: x509.KeyUsageFlags.cRLSign });
    const card = await issueCard(crlOnly, { email: email, kind: 'EC' });
    expectRejected(await signIn(withChain(card, crlOnly), card), 'KEY_USAGE', /keyCertSign/);
  });

  it('refuses a card certificate without a sign-in EKU (only emailProtection, anyExtendedKeyUsage, or none): EXTENDED_KEY_USAGE', async () => {
    const { email } = await createUser(t);
    for (const extendedKeyUsages of [[EKU.emailProtection], [EKU.any], null]) {
      // Issued straight by the bundle's root: one level, as the checks before this issue looked.
      const card = await issueCard(root, { email: email, kind: 'EC', extendedKeyUsages });
      expectRejected(await signIn(card.pem, card), 'EXTENDED_KEY_USAGE');
      const viaIntermediate = await issueCard(issuing, { email: email, kind: 'EC', extendedKeyUsages });
      expectRejected(await signIn(withChain(viaIntermediate, issuing), viaIntermediate), 'EXTENDED_KEY_USAGE');
    }
  });

  it('refuses a card certificate without digitalSignature: KEY_USAGE', async () => {
    const { email } = await createUser(t);
    const card = await issueCard(issuing, { email: email, kind: 'EC', usages: x509.KeyUsageFlags.keyEncipherment });
    expectRejected(await signIn(withChain(card, issuing), card), 'KEY_USAGE', /digitalSignature/);
  });

  it('checks the revocation of each certificate of the path that names a source: a revoked intermediate is REVOKED', async () => {
    const { email } = await createUser(t);
    const card = await issueCard(revokedIssuing, { email: email, kind: 'EC' });
    expectRejected(await signIn(withChain(card, revokedIssuing), card), 'REVOKED', /Revoked Issuing CA/);
    const unreachable = await createCa('Unreachable CRL CA', { issuer: root, crlUrl: `${crlBase}/missing.crl` });
    const other = await issueCard(unreachable, { email: email, kind: 'EC' });
    expectRejected(await signIn(withChain(other, unreachable), other), 'REVOCATION_UNKNOWN');
  });
});

describe('what the card sends', () => {
  it("takes the card's certificate followed by at most 8 intermediates; anything else is 400 SMART_CARD_CERTIFICATE_INVALID", async () => {
    const { email } = await createUser(t);
    const card = await issueCard(issuing, { email: email, kind: 'EC' });
    const many = [card.pem, ...Array.from({ length: 9 }, () => issuing.pem)].join('\n');
    for (const certificate of [many, `${card.pem}\n-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----`]) {
      const res = await t.request('POST', '/auth/v1/smart_card/hash', { body: { certificate } });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toBe('SMART_CARD_CERTIFICATE_INVALID');
    }
    const eight = [card.pem, ...Array.from({ length: 8 }, () => issuing.pem)].join('\n');
    expect((await signIn(eight, card)).status).toBe(200);
  });
});

describe('the account a card signs in to', () => {
  it('refuses an account that never verified the address (someone may have squatted it): ACCOUNT_NOT_VERIFIED; verified, it signs in', async () => {
    // Someone signs up with the card holder's address and never verifies it; the holder then signs in with the card.
    const squatted = await createUser(t, { emailVerified: false });
    const card = await issueCard(bundleIssuing, { email: squatted.email, kind: 'EC' });
    expectRejected(await signIn(card.pem, card), 'ACCOUNT_NOT_VERIFIED', /has not verified it/);
    const verified = await createUser(t);
    const own = await issueCard(bundleIssuing, { email: verified.email, kind: 'EC' });
    expect((await signIn(own.pem, own)).status).toBe(200);
  });
});
