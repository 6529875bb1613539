import crypto from 'node:crypto';
import type { webcrypto } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as pkijs from 'pkijs';
import { certificateToDer, issueCertificate } from '../../src/platform/crypto/certificates.ts';

/**
 * A real CSC API v2 remote signing service on 127.0.0.1 for tests: `info` (naming its own OAuth 2.0 server),
 * `oauth2/authorize` (auto-approving: it redirects at once to redirect_uri with a code, or with
 * error=access_denied when told to refuse), `oauth2/token` (client_credentials for the service, authorization_code
 * with PKCE for a credential), `credentials/list`, `credentials/info` and `signatures/signHash`. Every credential's
 * key is RSA or ECDSA P-256 with a certificate issued by the server's own test CA. signHash signs the hashes it is
 * given (RSA PKCS#1 v1.5 over the DigestInfo; ECDSA computed over the digest itself) only with a credential token
 * whose authorization named exactly those hashes, once. `fail()` switches on the failure modes the service must
 * survive: a stall, a 401, a signature over another hash.
 */
export type CscCredentialSpec = {
  /** CSC v2 signatureQualifier, e.g. eu_eidas_qes, eu_eidas_aes; omitted: none declared. */
  signatureQualifier?: string;
  key?: 'RSA' | 'EC';
  description?: string;
  /** The CSC key.status; `disabled` makes the credential unusable. */
  keyStatus?: 'enabled' | 'disabled';
};

export type CscFailures = {
  /** Never answer this kind of request (the client's timeout must end it). */
  stall?: 'signHash' | 'token' | 'list';
  /** Answer 401: on signHash (the credential token refused), or every service-token call (credentials/list and info). */
  unauthorized?: 'signHash' | 'service';
  /** signHash signs SHA-256 of the hash instead of the hash: a valid signature over another hash. */
  wrongHash?: boolean;
  /** oauth2/authorize refuses (redirects with error=access_denied). */
  refuseAuthorization?: boolean;
  /** credentials/list answers ids only, so the client must ask credentials/info for each. */
  listWithoutInfo?: boolean;
  /** ECDSA signatures as raw r||s instead of DER. */
  rawEcdsa?: boolean;
};

export type CscTestServer = {
  /** CSC_BASE_URL: the API is under `${url}/csc/v2/`, the OAuth 2.0 endpoints under `${url}/oauth2/`. */
  url: string;
  clientId: string;
  clientSecret: string;
  /** The test CA's certificate (PEM), which issued every credential's certificate. */
  caCertificatePem: string;
  /** Adds credentials for a user (userID at the provider); returns their credential ids in order. */
  addCredentials(userId: string, commonName: string, specs: CscCredentialSpec[]): Promise<string[]>;
  /** The certificate (DER) of a credential. */
  certificateOf(credentialId: string): Uint8Array;
  /** Switches failure modes on (replacing the previous ones); `fail({})` restores normal service. */
  fail(failures: CscFailures): void;
  /**
   * What a signer's browser does with an authorizeUrl: GET it and read the redirect. Returns the code and state the
   * provider sends to redirect_uri, or its error.
   */
  authorize(
    authorizeUrl: string,
  ): Promise<{ redirect: string; code: string | null; state: string | null; error: string | null }>;
  /** Requests served so far, as "METHOD path". */
  requests: string[];
  /** signHash calls that produced signatures. */
  signatures(): number;
  close(): Promise<void>;
};

type Credential = {
  id: string;
  userId: string;
  spec: CscCredentialSpec;
  privateKey: crypto.KeyObject;
  certificateDer: Uint8Array;
};

type Grant = {
  credentialId: string;
  hashes: string[];
  redirectUri: string;
  codeChallenge: string | null;
  expiresAt: number;
  used: boolean;
};
type CredentialToken = { credentialId: string; hashes: string[]; expiresAt: number; used: boolean };

const OID_SHA256 = '2.16.840.1.101.3.4.2.1';

export async function startCscServer(options: { redirectUris?: string[] } = {}): Promise<CscTestServer> {
  const clientId = 'signature-service-test';
  const clientSecret = crypto.randomBytes(16).toString('hex');
  const ec: webcrypto.EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
  const caKeys = await crypto.subtle.generateKey(ec, false, ['sign', 'verify']);
  const notBefore = new Date(Date.now() - 86_400_000);
  const notAfter = new Date(Date.now() + 365 * 86_400_000);
  const ca = await issueCertificate({
    commonName: 'Test CSC Qualified CA',
    organization: 'CSC Test Provider',
    publicKey: caKeys.publicKey,
    signingKey: caKeys.privateKey,
    notBefore,
    notAfter,
    isCa: true,
    keyUsage: ['keyCertSign', 'cRLSign'],
  });
  const caDer = certificateToDer(ca);
  const credentials = new Map<string, Credential>();
  const serviceTokens = new Map<string, number>();
  const grants = new Map<string, Grant>();
  const credentialTokens = new Map<string, CredentialToken>();
  const requests: string[] = [];
  let failures: CscFailures = {};
  let signed = 0;
  let base = '';

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', base);
      requests.push(`${request.method} ${url.pathname}`);
      try {
        route(request, url, Buffer.concat(chunks).toString('utf8'), response);
      } catch (error) {
        json(response, 500, { error: 'server_error', error_description: (error as Error).message });
      }
    });
  });

  function json(response: http.ServerResponse, status: number, body: unknown) {
    const text = JSON.stringify(body);
    response
      .writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
      .end(text);
  }

  function bearer(request: http.IncomingMessage): string | null {
    return /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? null;
  }

  function serviceAuthorized(request: http.IncomingMessage): boolean {
    if (failures.unauthorized === 'service') return false;
    const expiresAt = serviceTokens.get(bearer(request) ?? '');
    return expiresAt !== undefined && expiresAt > Date.now();
  }

  function credentialInfo(credential: Credential) {
    const certificate = pkijs.Certificate.fromBER(credential.certificateDer);
    return {
      description: credential.spec.description ?? `Test ${credential.spec.key ?? 'RSA'} credential`,
      ...(credential.spec.signatureQualifier ? { signatureQualifier: credential.spec.signatureQualifier } : {}),
      key: {
        status: credential.spec.keyStatus ?? 'enabled',
        algo: credential.spec.key === 'EC' ? ['1.2.840.10045.2.1'] : ['1.2.840.113549.1.1.1'],
        len: credential.spec.key === 'EC' ? 256 : 2048,
        ...(credential.spec.key === 'EC' ? { curve: '1.2.840.10045.3.1.7' } : {}),
      },
      cert: {
        status: 'valid',
        certificates: [
          Buffer.from(credential.certificateDer).toString('base64'),
          Buffer.from(caDer).toString('base64'),
        ],
        issuerDN: 'CN=Test CSC Qualified CA, O=CSC Test Provider',
        serialNumber: Buffer.from(certificate.serialNumber.valueBlock.valueHexView).toString('hex'),
        subjectDN: `CN=${credential.userId}`,
        validFrom: certificate.notBefore.value.toISOString(),
        validTo: certificate.notAfter.value.toISOString(),
      },
      auth: { mode: 'oauth2code' },
      scal: '2',
      multisign: 10,
      lang: 'en-US',
    };
  }

  function route(request: http.IncomingMessage, url: URL, body: string, response: http.ServerResponse) {
    const path = url.pathname;
    if (failures.stall === 'signHash' && path === '/csc/v2/signatures/signHash') return;
    if (failures.stall === 'token' && path === '/oauth2/token') return;
    if (failures.stall === 'list' && path === '/csc/v2/credentials/list') return;

    if (request.method === 'POST' && path === '/csc/v2/info') {
      json(response, 200, {
        specs: '2.0.0.2',
        name: 'CSC Test Provider',
        logo: `${base}/logo.png`,
        region: 'EU',
        lang: 'en-US',
        description: 'A CSC v2 service for tests',
        authType: ['oauth2code'],
        oauth2: base,
        methods: [
          'info',
          'credentials/list',
          'credentials/info',
          'signatures/signHash',
          'oauth2/authorize',
          'oauth2/token',
        ],
      });
      return;
    }

    if (request.method === 'GET' && path === '/oauth2/authorize') {
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri') ?? '';
      if (
        q.get('client_id') !== clientId ||
        !redirectUri ||
        (options.redirectUris && !options.redirectUris.includes(redirectUri))
      ) {
        json(response, 400, { error: 'invalid_request', error_description: 'unknown client or redirect_uri' });
        return;
      }
      const redirect = new URL(redirectUri);
      const state = q.get('state');
      if (state !== null) redirect.searchParams.set('state', state);
      const credential = credentials.get(q.get('credentialID') ?? '');
      const hashes = (q.get('hashes') ?? '').split(',').filter(Boolean);
      const problem =
        q.get('response_type') !== 'code'
          ? 'response_type must be code'
          : q.get('scope') !== 'credential'
            ? 'scope must be credential'
            : !credential
              ? 'unknown credentialID'
              : hashes.length === 0 || !hashes.every((h) => /^[A-Za-z0-9_-]{43}$/.test(h))
                ? 'hashes must be base64url SHA-256 values'
                : Number(q.get('numSignatures')) !== hashes.length
                  ? 'numSignatures must equal the number of hashes'
                  : q.get('hashAlgorithmOID') !== OID_SHA256
                    ? 'hashAlgorithmOID must be SHA-256'
                    : null;
      if (problem || failures.refuseAuthorization) {
        redirect.searchParams.set('error', problem ? 'invalid_request' : 'access_denied');
        redirect.searchParams.set('error_description', problem ?? 'the user refused the authorization');
      } else {
        const code = crypto.randomBytes(18).toString('base64url');
        grants.set(code, {
          credentialId: credential!.id,
          // Kept as standard base64, the form signHash carries.
          hashes: hashes.map((h) => Buffer.from(h, 'base64url').toString('base64')),
          redirectUri,
          codeChallenge: q.get('code_challenge_method') === 'S256' ? q.get('code_challenge') : null,
          expiresAt: Date.now() + 60_000,
          used: false,
        });
        redirect.searchParams.set('code', code);
      }
      response.writeHead(302, { location: redirect.toString() }).end();
      return;
    }

    if (request.method === 'POST' && path === '/oauth2/token') {
      const form = new URLSearchParams(body);
      if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
        json(response, 401, { error: 'invalid_client' });
        return;
      }
      if (form.get('grant_type') === 'client_credentials') {
        const token = crypto.randomBytes(18).toString('base64url');
        serviceTokens.set(token, Date.now() + 3_600_000);
        json(response, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
        return;
      }
      if (form.get('grant_type') === 'authorization_code') {
        const grant = grants.get(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const refused = !grant
          ? 'unknown code'
          : grant.used
            ? 'the code was already used'
            : grant.expiresAt < Date.now()
              ? 'the code expired'
              : grant.redirectUri !== form.get('redirect_uri')
                ? 'redirect_uri differs'
                : grant.codeChallenge !== null &&
                    crypto.createHash('sha256').update(verifier).digest('base64url') !== grant.codeChallenge
                  ? 'PKCE verification failed'
                  : null;
        if (grant) grant.used = true;
        if (refused) {
          json(response, 400, { error: 'invalid_grant', error_description: refused });
          return;
        }
        const token = crypto.randomBytes(18).toString('base64url');
        credentialTokens.set(token, {
          credentialId: grant!.credentialId,
          hashes: grant!.hashes,
          expiresAt: Date.now() + 300_000,
          used: false,
        });
        json(response, 200, { access_token: token, token_type: 'Bearer', expires_in: 300 });
        return;
      }
      json(response, 400, { error: 'unsupported_grant_type' });
      return;
    }

    const input = (() => {
      try {
        return JSON.parse(body || '{}') as Record<string, any>;
      } catch {
        return null;
      }
    })();
    if (!input) {
      json(response, 400, { error: 'invalid_request', error_description: 'the body is not JSON' });
      return;
    }

    if (request.method === 'POST' && path === '/csc/v2/credentials/list') {
      if (!serviceAuthorized(request)) {
        json(response, 401, { error: 'invalid_token' });
        return;
      }
      const mine = [...credentials.values()].filter((c) => c.userId === input.userID);
      json(response, 200, {
        credentialIDs: mine.map((c) => c.id),
        ...(input.credentialInfo && !failures.listWithoutInfo
          ? { credentialInfos: mine.map((c) => ({ credentialID: c.id, ...credentialInfo(c) })) }
          : {}),
      });
      return;
    }

    if (request.method === 'POST' && path === '/csc/v2/credentials/info') {
      if (!serviceAuthorized(request)) {
        json(response, 401, { error: 'invalid_token' });
        return;
      }
      const credential = credentials.get(input.credentialID);
      if (!credential) {
        json(response, 400, { error: 'invalid_request', error_description: 'Invalid parameter credentialID' });
        return;
      }
      json(response, 200, credentialInfo(credential));
      return;
    }

    if (request.method === 'POST' && path === '/csc/v2/signatures/signHash') {
      const token = credentialTokens.get(bearer(request) ?? '');
      if (failures.unauthorized === 'signHash' || !token || token.used || token.expiresAt < Date.now()) {
        json(response, 401, { error: 'invalid_token', error_description: 'the credential authorization is not valid' });
        return;
      }
      const hashes: unknown = input.hashes;
      const sameHashes =
        Array.isArray(hashes) &&
        hashes.length === token.hashes.length &&
        [...hashes].sort().join() === [...token.hashes].sort().join();
      if (input.credentialID !== token.credentialId || !sameHashes || input.hashAlgorithmOID !== OID_SHA256) {
        json(response, 400, {
          error: 'invalid_request',
          error_description: 'the request does not match the authorization (credentialID, hashes, hashAlgorithmOID)',
        });
        return;
      }
      token.used = true;
      const credential = credentials.get(token.credentialId)!;
      const signatures = (hashes as string[]).map((h) => {
        let digest = Buffer.from(h, 'base64');
        if (failures.wrongHash) digest = crypto.createHash('sha256').update(digest).digest();
        return signDigest(credential, digest).toString('base64');
      });
      signed += signatures.length;
      json(response, 200, { signatures });
      return;
    }

    json(response, 404, { error: 'invalid_request', error_description: `no ${request.method} ${path}` });
  }

  function signDigest(credential: Credential, digest: Buffer): Buffer {
    if (credential.spec.key === 'EC') {
      const { r, s } = ecdsaSignDigest(credential.privateKey, digest);
      return failures.rawEcdsa ? Buffer.concat([toBytes(r, 32), toBytes(s, 32)]) : derEcdsa(r, s);
    }
    // PKCS#1 v1.5: the DigestInfo of SHA-256 with the digest, padded and encrypted with the private key.
    const digestInfo = Buffer.concat([Buffer.from('3031300d060960864801650304020105000420', 'hex'), digest]);
    return crypto.privateEncrypt(
      { key: credential.privateKey, padding: crypto.constants.RSA_PKCS1_PADDING },
      digestInfo,
    );
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    clientId,
    clientSecret,
    caCertificatePem: `-----BEGIN CERTIFICATE-----\n${Buffer.from(caDer).toString('base64')}\n-----END CERTIFICATE-----\n`,
    requests,
    signatures: () => signed,
    fail(next) {
      failures = { ...next };
    },
    certificateOf(credentialId) {
      const credential = credentials.get(credentialId);
      if (!credential) throw new Error(`no credential ${credentialId}`);
      return credential.certificateDer;
    },
    async addCredentials(userId, commonName, specs) {
      const ids: string[] = [];
      for (const spec of specs) {
        const keys =
          spec.key === 'EC'
            ? await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])
            : await crypto.subtle.generateKey(
                {
                  name: 'RSASSA-PKCS1-v1_5',
                  modulusLength: 2048,
                  publicExponent: new Uint8Array([1, 0, 1]),
                  hash: 'SHA-256',
                },
                true,
                ['sign', 'verify'],
              );
        const certificate = await issueCertificate({
          commonName,
          organization: 'CSC Test Provider',
          publicKey: keys.publicKey,
          issuer: { certificate: ca, privateKey: caKeys.privateKey },
          notBefore,
          notAfter,
          isCa: false,
          keyUsage: ['digitalSignature', 'nonRepudiation'],
        });
        const id = `cred-${crypto.randomBytes(6).toString('hex')}`;
        credentials.set(id, {
          id,
          userId,
          spec,
          privateKey: crypto.KeyObject.from(keys.privateKey),
          certificateDer: certificateToDer(certificate),
        });
        ids.push(id);
      }
      return ids;
    },
    async authorize(authorizeUrl) {
      const response = await fetch(authorizeUrl, { redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status !== 302 || !location)
        throw new Error(`authorize answered ${response.status}: ${await response.text()}`);
      const redirect = new URL(location);
      return {
        redirect: location,
        code: redirect.searchParams.get('code'),
        state: redirect.searchParams.get('state'),
        error: redirect.searchParams.get('error'),
      };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

// ECDSA over P-256 computed on a given digest (Node signs only data it hashes itself): the provider receives hashes.
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const A = P - 3n;
const G = {
  x: 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n,
  y: 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n,
};
type Point = { x: bigint; y: bigint } | null;

function mod(a: bigint, m: bigint): bigint {
  const r = a % m;
  return r < 0n ? r + m : r;
}

function inverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [mod(a, m), m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return mod(oldS, m);
}

function add(p: Point, q: Point): Point {
  if (!p) return q;
  if (!q) return p;
  if (p.x === q.x && mod(p.y + q.y, P) === 0n) return null;
  const lambda =
    p.x === q.x && p.y === q.y
      ? mod((3n * p.x * p.x + A) * inverse(2n * p.y, P), P)
      : mod((q.y - p.y) * inverse(q.x - p.x, P), P);
  const x = mod(lambda * lambda - p.x - q.x, P);
  return { x, y: mod(lambda * (p.x - x) - p.y, P) };
}

function multiply(k: bigint, point: Point): Point {
  let result: Point = null;
  let addend = point;
  while (k > 0n) {
    if (k & 1n) result = add(result, addend);
    addend = add(addend, addend);
    k >>= 1n;
  }
  return result;
}

function ecdsaSignDigest(privateKey: crypto.KeyObject, digest: Buffer): { r: bigint; s: bigint } {
  const d = BigInt(`0x${Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url').toString('hex')}`);
  const e = BigInt(`0x${digest.toString('hex')}`);
  for (;;) {
    const k = mod(BigInt(`0x${crypto.randomBytes(40).toString('hex')}`), N - 1n) + 1n;
    const r = mod(multiply(k, G)!.x, N);
    const s = mod(inverse(k, N) * (e + r * d), N);
    if (r !== 0n && s !== 0n) return { r, s };
  }
}

function toBytes(value: bigint, length: number): Buffer {
  return Buffer.from(value.toString(16).padStart(length * 2, '0'), 'hex');
}

function derEcdsa(r: bigint, s: bigint): Buffer {
  const integer = (v: bigint) => {
    let bytes = toBytes(v, 32);
    while (bytes.length > 1 && bytes[0] === 0 && bytes[1] < 0x80) bytes = bytes.subarray(1);
    if (bytes[0] >= 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
    return Buffer.concat([Buffer.from([0x02, bytes.length]), bytes]);
  };
  const body = Buffer.concat([integer(r), integer(s)]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
}
