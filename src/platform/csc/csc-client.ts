import crypto from 'node:crypto';
import type { Outbound, OutboundRequest } from '../outbound/outbound.ts';
import { OutboundError } from '../outbound/outbound.ts';
import { parseCredentialInfo, type CscCredential } from './csc-credential.ts';
import { CscError } from './csc-error.ts';

/**
 * A client of a remote signing service speaking the Cloud Signature Consortium API v2 (connector CSC_2):
 * `info` for the OAuth 2.0 endpoints, a service token by the client-credentials grant (to list a user's
 * credentials), `credentials/list` and `credentials/info`, the authorization URL for scope `credential` bound to
 * the hashes to sign, the code exchange for the credential access token (in v2 that token stands for the SAD),
 * and `signatures/signHash`. Every request goes through the outbound rules (OUTBOUND_ALLOW_PRIVATE) with a
 * timeout; nothing here knows about workflows.
 */
export type CscClientSettings = {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** $PUBLIC_URL/csc/callback: where the provider sends the signer back with ?code=&state=. */
  redirectUri: string;
  /** Per request, up to the response head and again for each idle gap of the body. */
  timeoutMs: number;
};

export type CscClient = {
  /** The user's credentials at the provider, each with its certificate chain and what it may sign (qualifiers). */
  listCredentials(userId: string): Promise<CscCredential[]>;
  /** One credential, by id, with its certificate chain. */
  credentialInfo(credentialId: string): Promise<CscCredential>;
  /** The provider's authorization URL for scope `credential`, bound to these SHA-256 hashes (one per signature). */
  authorizeUrl(request: {
    credentialId: string;
    hashes: Uint8Array[];
    state: string;
    codeChallenge: string;
    description?: string;
  }): Promise<string>;
  /** Exchanges the code the provider sent back for the credential access token (scope `credential`). */
  exchangeCode(code: string, codeVerifier: string): Promise<string>;
  /** signatures/signHash with the credential access token: one signature value per hash, in order. */
  signHashes(request: {
    accessToken: string;
    credential: Pick<CscCredential, 'credentialId' | 'signAlgo'>;
    hashes: Uint8Array[];
  }): Promise<Uint8Array[]>;
};

/** OID of SHA-256, the one hash this service asks for. */
export const SHA256_OID = '2.16.840.1.101.3.4.2.1';
/** How long the provider's info answer (its OAuth 2.0 base) is reused. */
const INFO_TTL_MS = 10 * 60 * 1000;
/** A service token is renewed this long before the expiry the provider announced. */
const TOKEN_MARGIN_MS = 30_000;
/** Answers are JSON with a few certificates; nothing legitimate comes near this. */
const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

type Json = Record<string, unknown>;

export function createCscClient(settings: CscClientSettings, outbound: Outbound): CscClient {
  const apiBase = `${settings.baseUrl.replace(/\/+$/, '')}/csc/v2/`;
  let info: { oauth2: string; fetchedAt: number } | null = null;
  let serviceToken: { token: string; expiresAt: number } | null = null;

  /** One POST/GET under the outbound rules; the provider is the operator's choice, so any port and http on loopback (config) are fine. */
  async function send(
    url: string,
    request: Omit<OutboundRequest, 'url' | 'policy' | 'maxBytes' | 'timeoutMs' | 'maxRedirects'>,
  ): Promise<{ status: number; body: Json | null; text: string }> {
    let response;
    try {
      response = await outbound.request({
        url,
        ...request,
        policy: { requireHttps: false },
        maxRedirects: 0,
        maxBytes: MAX_RESPONSE_BYTES,
        timeoutMs: settings.timeoutMs,
      });
    } catch (error) {
      throw unavailable(url, error);
    }
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of response.body) chunks.push(chunk as Buffer);
    } catch (error) {
      throw unavailable(url, error);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    return { status: response.status, body: parseJson(text), text };
  }

  function unavailable(url: string, error: unknown): CscError {
    const reason = error instanceof OutboundError ? `${error.failure}: ${error.message}` : (error as Error).message;
    return new CscError('UNAVAILABLE', `The CSC provider (${new URL(url).host}) could not be reached: ${reason}`);
  }

  async function postApi(
    method: string,
    body: Json,
    token: string,
  ): Promise<{ status: number; body: Json | null; text: string }> {
    return send(`${apiBase}${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
  }

  /** The OAuth 2.0 base URI from `info` (CSC v2: `oauth2`), its endpoints being `<base>/oauth2/authorize` and `<base>/oauth2/token`. */
  async function oauth2Base(): Promise<string> {
    if (info && Date.now() - info.fetchedAt < INFO_TTL_MS) return info.oauth2;
    const response = await send(`${apiBase}info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{}',
    });
    if (response.status !== 200 || !response.body)
      throw new CscError(
        'UNAVAILABLE',
        `The CSC provider's info answered ${response.status} ${excerpt(response.text)}`,
      );
    const authTypes = Array.isArray(response.body.authType) ? response.body.authType : [];
    const oauth2 = response.body.oauth2;
    if (typeof oauth2 !== 'string' || !authTypes.includes('oauth2code')) {
      throw new CscError(
        'UNAVAILABLE',
        "The CSC provider's info names no OAuth 2.0 authorization server (oauth2, authType oauth2code), which remote signing needs",
      );
    }
    let base: URL;
    try {
      base = new URL(oauth2);
    } catch {
      throw new CscError('UNAVAILABLE', `The CSC provider's oauth2 base is not a URL: ${excerpt(oauth2)}`);
    }
    // The codes and tokens of the signer travel to this server: it must be https unless the provider itself is plain http on loopback (tests, development).
    if (
      base.protocol !== 'https:' &&
      !(base.protocol === 'http:' && new URL(settings.baseUrl).protocol === 'http:' && isLoopback(base.hostname))
    ) {
      throw new CscError('UNAVAILABLE', `The CSC provider's OAuth 2.0 server must be https: ${base.origin}`);
    }
    info = { oauth2: base.toString().replace(/\/+$/, ''), fetchedAt: Date.now() };
    return info.oauth2;
  }

  async function tokenRequest(
    form: Record<string, string>,
  ): Promise<{ status: number; body: Json | null; text: string }> {
    const base = await oauth2Base();
    return send(`${base}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        ...form,
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
      }).toString(),
    });
  }

  async function accessToken(): Promise<string> {
    if (serviceToken && serviceToken.expiresAt - TOKEN_MARGIN_MS > Date.now()) return serviceToken.token;
    const response = await tokenRequest({ grant_type: 'client_credentials', scope: 'service' });
    const token = response.body?.access_token;
    if (response.status !== 200 || typeof token !== 'string') {
      throw new CscError(
        'UNAVAILABLE',
        `The CSC provider refused this service's client credentials: ${response.status} ${oauthReason(response)}`,
      );
    }
    serviceToken = { token, expiresAt: Date.now() + lifetimeMs(response.body?.expires_in) };
    return token;
  }

  /**
   * A service call with the cached service token; a 401 means the token was revoked or expired early, so it is
   * dropped and the call made once more with a fresh one. A second 401 is the provider refusing this service.
   */
  async function serviceCall(method: string, body: Json): Promise<{ status: number; body: Json | null; text: string }> {
    for (let attempt = 1; ; attempt += 1) {
      const response = await postApi(method, body, await accessToken());
      if (response.status !== 401) return response;
      serviceToken = null;
      if (attempt >= 2)
        throw new CscError(
          'UNAVAILABLE',
          `The CSC provider refused this service's token for ${method}: 401 ${oauthReason(response)}`,
        );
    }
  }

  async function credentialInfo(credentialId: string): Promise<CscCredential> {
    const response = await serviceCall('credentials/info', {
      credentialID: credentialId,
      certificates: 'chain',
      certInfo: true,
      authInfo: true,
    });
    if (response.status === 400 || response.status === 404) {
      throw new CscError(
        'REFUSED',
        `The CSC provider does not know credential ${credentialId}: ${oauthReason(response)}`,
      );
    }
    if (response.status !== 200 || !response.body)
      throw new CscError('UNAVAILABLE', `credentials/info answered ${response.status} ${excerpt(response.text)}`);
    return parseCredentialInfo(credentialId, response.body);
  }

  return {
    async listCredentials(userId) {
      const response = await serviceCall('credentials/list', {
        userID: userId,
        credentialInfo: true,
        certificates: 'chain',
        certInfo: true,
        authInfo: true,
        onlyValid: true,
      });
      if (response.status !== 200 || !response.body)
        throw new CscError('UNAVAILABLE', `credentials/list answered ${response.status} ${excerpt(response.text)}`);
      const ids = response.body.credentialIDs;
      if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string'))
        throw new CscError('UNAVAILABLE', 'credentials/list answered without credentialIDs');
      const infos = Array.isArray(response.body.credentialInfos) ? (response.body.credentialInfos as Json[]) : null;
      const credentials: CscCredential[] = [];
      for (const id of ids as string[]) {
        // v2 providers may send every credential's info with the list (credentialInfo: true); others are asked one by one.
        const inline = infos?.find((entry) => entry?.credentialID === id);
        credentials.push(inline ? parseCredentialInfo(id, inline) : await credentialInfo(id));
      }
      return credentials;
    },

    credentialInfo,

    async authorizeUrl(request) {
      const url = new URL(`${await oauth2Base()}/oauth2/authorize`);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: settings.clientId,
        redirect_uri: settings.redirectUri,
        scope: 'credential',
        credentialID: request.credentialId,
        numSignatures: String(request.hashes.length),
        // CSC v2: base64url hash values, comma-separated, that the authorization (and so signHash) is bound to.
        hashes: request.hashes.map((hash) => Buffer.from(hash).toString('base64url')).join(','),
        hashAlgorithmOID: SHA256_OID,
        state: request.state,
        code_challenge: request.codeChallenge,
        code_challenge_method: 'S256',
        ...(request.description ? { description: request.description.slice(0, 500) } : {}),
      }).toString();
      return url.toString();
    },

    async exchangeCode(code, codeVerifier) {
      const response = await tokenRequest({
        grant_type: 'authorization_code',
        code,
        redirect_uri: settings.redirectUri,
        code_verifier: codeVerifier,
      });
      const token = response.body?.access_token;
      if (response.status === 200 && typeof token === 'string') return token;
      if (response.status >= 400 && response.status < 500) {
        throw new CscError(
          'REFUSED',
          `The CSC provider refused the authorization code: ${response.status} ${oauthReason(response)}`,
        );
      }
      throw new CscError(
        'UNAVAILABLE',
        `The CSC provider's token endpoint answered ${response.status} ${excerpt(response.text)}`,
      );
    },

    async signHashes({ accessToken: token, credential, hashes }) {
      const response = await postApi(
        'signatures/signHash',
        {
          credentialID: credential.credentialId,
          hashes: hashes.map((hash) => Buffer.from(hash).toString('base64')),
          hashAlgorithmOID: SHA256_OID,
          signAlgo: credential.signAlgo,
          operationMode: 'S',
        },
        token,
      );
      if (response.status >= 400 && response.status < 500) {
        throw new CscError('REFUSED', `The CSC provider refused to sign: ${response.status} ${oauthReason(response)}`);
      }
      if (response.status !== 200 || !response.body)
        throw new CscError('UNAVAILABLE', `signatures/signHash answered ${response.status} ${excerpt(response.text)}`);
      const signatures = response.body.signatures;
      if (
        !Array.isArray(signatures) ||
        signatures.length !== hashes.length ||
        !signatures.every((s) => typeof s === 'string')
      ) {
        throw new CscError(
          'REFUSED',
          `signatures/signHash answered ${Array.isArray(signatures) ? signatures.length : 'no'} signatures for ${hashes.length} hashes`,
        );
      }
      return (signatures as string[]).map((value) => new Uint8Array(Buffer.from(value, 'base64')));
    },
  };
}

/** PKCE (RFC 7636): a verifier kept by the service and the S256 challenge sent with the authorization request. */
export function createPkcePair(): { verifier: string; challenge: string } {
  const verifier = crypto.randomBytes(32).toString('base64url');
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
}

function isLoopback(hostname: string): boolean {
  return ['localhost', '127.0.0.1', '[::1]', '::1'].includes(hostname);
}

function parseJson(text: string): Json | null {
  try {
    const value = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

function lifetimeMs(expiresIn: unknown): number {
  const seconds = Number(expiresIn);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 300_000;
}

/** The OAuth/CSC error of an answer (`error`, `error_description`), else an excerpt of its text. */
function oauthReason(response: { body: Json | null; text: string }): string {
  const error = response.body?.error;
  if (typeof error === 'string') {
    const description = response.body?.error_description;
    return excerpt(typeof description === 'string' ? `${error}: ${description}` : error);
  }
  return excerpt(response.text || 'no details');
}

function excerpt(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
