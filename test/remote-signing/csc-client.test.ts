import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createCscClient, createPkcePair, type CscClient } from '../../src/platform/csc/csc-client.ts';
import { verifiedSignatureValue, qualifiersOf } from '../../src/platform/csc/csc-credential.ts';
import { CscError } from '../../src/platform/csc/csc-error.ts';
import { createOutbound } from '../../src/platform/outbound/outbound.ts';
import { startCscServer, type CscTestServer } from '../helpers/csc-server.ts';

const REDIRECT = 'http://localhost:8080/csc/callback';
let server: CscTestServer;
let client: CscClient;

beforeAll(async () => {
  server = await startCscServer({ redirectUris: [REDIRECT] });
  client = createCscClient(
    {
      baseUrl: server.url,
      clientId: server.clientId,
      clientSecret: server.clientSecret,
      redirectUri: REDIRECT,
      timeoutMs: 1000,
    },
    createOutbound({ allowPrivate: true }),
  );
});
afterAll(() => server.close());

/** What the signing modules do: authorize the hashes of these bytes, exchange the code, sign, verify. */
async function signThrough(credentialId: string, attributes: Uint8Array[]) {
  const credential = await client.credentialInfo(credentialId);
  const hashes = attributes.map((a) => new Uint8Array(crypto.createHash('sha256').update(a).digest()));
  const pkce = createPkcePair();
  const url = await client.authorizeUrl({ credentialId, hashes, state: 'st-1', codeChallenge: pkce.challenge });
  const answer = await server.authorize(url);
  expect(answer.error).toBeNull();
  expect(answer.state).toBe('st-1');
  const token = await client.exchangeCode(answer.code!, pkce.verifier);
  const values = await client.signHashes({ accessToken: token, credential, hashes });
  return { credential, values };
}

describe('CSC v2 client against the test provider', () => {
  test("lists a user's credentials with chain, key algorithm and qualifiers, with or without inline infos", async () => {
    const ids = await server.addCredentials('lister@example.com', 'Lena Lister', [
      { signatureQualifier: 'eu_eidas_qes', key: 'EC' },
      { signatureQualifier: 'eu_eidas_aesqc' },
      {},
    ]);
    for (const listWithoutInfo of [false, true]) {
      server.fail({ listWithoutInfo });
      const list = await client.listCredentials('lister@example.com');
      expect(list.map((c) => c.credentialId)).toEqual(ids);
      expect(list.map((c) => c.qualifiers)).toEqual([['QES'], ['AES'], ['SES']]);
      expect(list.map((c) => c.keyAlgorithm)).toEqual(['ECDSA', 'RSA', 'RSA']);
      expect(list[0].certificate.subject).toBe('CN=Lena Lister, O=CSC Test Provider');
      expect(list[0].certificate.issuer).toBe('CN=Test CSC Qualified CA, O=CSC Test Provider');
      expect(list[0].chainDer).toHaveLength(1);
      expect(list.every((c) => c.unusableBecause === null)).toBe(true);
    }
    server.fail({});
    expect(server.requests.filter((r) => r === 'POST /csc/v2/credentials/info')).toHaveLength(3);
    expect(await client.listCredentials('nobody@example.com')).toEqual([]);
  });

  test('authorization bound to the hashes, code exchange with PKCE, signHash: RSA, ECDSA DER and raw r||s all verify', async () => {
    const [rsa, ec] = await server.addCredentials('signer@example.com', 'Sam Signer', [{ key: 'RSA' }, { key: 'EC' }]);
    const attributes = [crypto.randomBytes(100), crypto.randomBytes(120)];
    for (const [id, raw] of [
      [rsa, false],
      [ec, false],
      [ec, true],
    ] as const) {
      server.fail({ rawEcdsa: raw });
      const { credential, values } = await signThrough(id, attributes);
      expect(values).toHaveLength(2);
      values.forEach((value, i) => {
        const der = verifiedSignatureValue(credential, attributes[i], value);
        expect(der).not.toBeNull();
        if (credential.keyAlgorithm === 'ECDSA') expect(der![0]).toBe(0x30);
        // The other attributes' signature is not a signature of these bytes.
        expect(verifiedSignatureValue(credential, attributes[1 - i], value)).toBeNull();
      });
    }
    server.fail({});
  });

  test('a signature over another hash does not verify', async () => {
    const [id] = await server.addCredentials('wrong@example.com', 'Will Wrong', [{ key: 'EC' }]);
    server.fail({ wrongHash: true });
    const attributes = [crypto.randomBytes(64)];
    const { credential, values } = await signThrough(id, attributes);
    server.fail({});
    expect(verifiedSignatureValue(credential, attributes[0], values[0])).toBeNull();
  });

  test('a code is single-use, a wrong verifier is refused, signHash refuses other hashes: all REFUSED', async () => {
    const [id] = await server.addCredentials('once@example.com', 'Olly Once', [{}]);
    const credential = await client.credentialInfo(id);
    const hash = new Uint8Array(crypto.randomBytes(32));
    const pkce = createPkcePair();
    const { code } = await server.authorize(
      await client.authorizeUrl({ credentialId: id, hashes: [hash], state: 's', codeChallenge: pkce.challenge }),
    );
    await expect(client.exchangeCode(code!, 'another-verifier')).rejects.toMatchObject({ failure: 'REFUSED' });
    const again = await server.authorize(
      await client.authorizeUrl({ credentialId: id, hashes: [hash], state: 's', codeChallenge: pkce.challenge }),
    );
    const token = await client.exchangeCode(again.code!, pkce.verifier);
    await expect(client.exchangeCode(again.code!, pkce.verifier)).rejects.toMatchObject({ failure: 'REFUSED' });
    await expect(
      client.signHashes({ accessToken: token, credential, hashes: [new Uint8Array(crypto.randomBytes(32))] }),
    ).rejects.toMatchObject({ failure: 'REFUSED' });
    await expect(client.credentialInfo('no-such-credential')).rejects.toMatchObject({ failure: 'REFUSED' });
  });

  test('the provider refusing, answering 401, or stalling past the timeout', async () => {
    const [id] = await server.addCredentials('fail@example.com', 'Fay Fail', [{}]);
    const credential = await client.credentialInfo(id);
    const hash = new Uint8Array(crypto.randomBytes(32));
    const pkce = createPkcePair();
    server.fail({ refuseAuthorization: true });
    const refused = await server.authorize(
      await client.authorizeUrl({ credentialId: id, hashes: [hash], state: 'x', codeChallenge: pkce.challenge }),
    );
    expect(refused).toMatchObject({ code: null, error: 'access_denied', state: 'x' });

    server.fail({});
    const { code } = await server.authorize(
      await client.authorizeUrl({ credentialId: id, hashes: [hash], state: 'x', codeChallenge: pkce.challenge }),
    );
    const token = await client.exchangeCode(code!, pkce.verifier);
    server.fail({ unauthorized: 'signHash' });
    await expect(client.signHashes({ accessToken: token, credential, hashes: [hash] })).rejects.toMatchObject({
      failure: 'REFUSED',
    });

    // A refused service token is retried once with a fresh one, then reported as the provider being unusable (503).
    server.fail({ unauthorized: 'service' });
    const before = server.requests.filter((r) => r === 'POST /csc/v2/credentials/list').length;
    await expect(client.listCredentials('fail@example.com')).rejects.toMatchObject({ failure: 'UNAVAILABLE' });
    expect(server.requests.filter((r) => r === 'POST /csc/v2/credentials/list').length - before).toBe(2);

    server.fail({ stall: 'list' });
    const started = Date.now();
    const error = await client.listCredentials('fail@example.com').catch((e) => e);
    expect(error).toBeInstanceOf(CscError);
    expect(error.failure).toBe('UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(5000);
    server.fail({});
  });

  test('qualifiers from CSC v2 signatureQualifier', () => {
    expect(qualifiersOf('eu_eidas_qes')).toEqual(['QES']);
    expect(qualifiersOf('eu_eidas_qeseal')).toEqual(['QES']);
    expect(qualifiersOf('eu_eidas_aes')).toEqual(['AES']);
    expect(qualifiersOf('eu_eidas_aesqc')).toEqual(['AES']);
    expect(qualifiersOf('za_ecta_oes')).toEqual(['SES']);
    expect(qualifiersOf(undefined)).toEqual(['SES']);
  });

  test('an unreachable provider is UNAVAILABLE; private addresses are refused without OUTBOUND_ALLOW_PRIVATE', async () => {
    const strict = createCscClient(
      {
        baseUrl: server.url,
        clientId: server.clientId,
        clientSecret: server.clientSecret,
        redirectUri: REDIRECT,
        timeoutMs: 1000,
      },
      createOutbound({ allowPrivate: false }),
    );
    await expect(strict.listCredentials('x')).rejects.toMatchObject({
      failure: 'UNAVAILABLE',
      message: expect.stringContaining('POLICY'),
    });
    const closed = createCscClient(
      { baseUrl: 'http://127.0.0.1:1', clientId: 'a', clientSecret: 'b', redirectUri: REDIRECT, timeoutMs: 1000 },
      createOutbound({ allowPrivate: true }),
    );
    await expect(closed.listCredentials('x')).rejects.toMatchObject({ failure: 'UNAVAILABLE' });
  });
});
