import { createRemoteJWKSet, jwtVerify, errors as joseErrors, type JWTPayload } from 'jose';

/** Asymmetric algorithms only: `none` and HMAC (a key the client could know) never verify a provider's token. */
const ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];
/** Clock difference tolerated on exp, iat and nbf. */
export const ID_TOKEN_CLOCK_TOLERANCE_SECONDS = 30;

export type VerifiedIdToken = { subject: string; email: string; expiresAt: Date; name: string | null };

/** Why a token was refused (the caller answers 401 and counts the failure); `unreachable` when the provider could not be asked. */
export class IdTokenRejected extends Error {
  readonly unreachable: boolean;
  constructor(message: string, unreachable = false) {
    super(message);
    this.unreachable = unreachable;
    this.name = 'IdTokenRejected';
  }
}

export type IdTokenVerifier = { verify(token: string, expectedNonce?: string): Promise<VerifiedIdToken> };

/**
 * Verifies ID tokens of the social provider IDP_ISSUER: signature by a key of the issuer's JWKS (found through
 * its discovery document, keys cached and refetched when an unknown key id appears), `iss` = the issuer,
 * `aud` = IDP_CLIENT_ID (and `azp` too when several audiences are named), `exp`, the nonce when the caller gives
 * one, and a verified `email`.
 */
export function createIdTokenVerifier(settings: { issuer: string; clientId: string }): IdTokenVerifier {
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | null = null;

  function keySet() {
    keys ??= discoverJwksUri(settings.issuer)
      .then((uri) => createRemoteJWKSet(new URL(uri), { timeoutDuration: 10_000 }))
      .catch((error: unknown) => {
        keys = null;
        throw new IdTokenRejected(`The identity provider cannot be reached: ${(error as Error).message}`, true);
      });
    return keys;
  }

  return {
    async verify(token, expectedNonce) {
      const jwks = await keySet();
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, jwks, {
          issuer: settings.issuer,
          audience: settings.clientId,
          algorithms: ALGORITHMS,
          clockTolerance: ID_TOKEN_CLOCK_TOLERANCE_SECONDS,
          requiredClaims: ['sub', 'exp', 'iat'],
        }));
      } catch (error) {
        if (error instanceof joseErrors.JWKSTimeout)
          throw new IdTokenRejected('The identity provider did not answer', true);
        if (error instanceof joseErrors.JOSEError || error instanceof TypeError)
          throw new IdTokenRejected(`The ID token was refused: ${(error as Error).message}`);
        throw error;
      }
      if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== settings.clientId)
        throw new IdTokenRejected('The ID token was issued to another party (azp)');
      if (expectedNonce !== undefined && payload.nonce !== expectedNonce)
        throw new IdTokenRejected('The ID token does not carry the expected nonce');
      if (typeof payload.email !== 'string' || payload.email.length === 0)
        throw new IdTokenRejected('The ID token names no email');
      if (payload.email_verified !== true && payload.email_verified !== 'true')
        throw new IdTokenRejected('The provider has not verified this email (email_verified)');
      return {
        subject: payload.sub!,
        email: payload.email,
        expiresAt: new Date(payload.exp! * 1000),
        name: typeof payload.name === 'string' ? payload.name : null,
      };
    },
  };
}

async function discoverJwksUri(issuer: string): Promise<string> {
  const response = await fetch(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, {
    signal: AbortSignal.timeout(10_000),
    redirect: 'error',
  });
  if (!response.ok) throw new Error(`discovery answered ${response.status}`);
  const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
  if (metadata.issuer !== issuer) throw new Error('the discovery document names another issuer');
  if (typeof metadata.jwks_uri !== 'string') throw new Error('the discovery document names no jwks_uri');
  return metadata.jwks_uri;
}
