import crypto from 'node:crypto';
import path from 'node:path';
import { loadOrCreateKeyFile } from '../crypto/key-file.ts';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

export type TokenType = 'USER' | 'GUEST' | 'CLIENT';

export type AccessClaims = {
  sub: string;
  type: TokenType;
  /** GUEST: the recipient row the token acts as. */
  recipientId?: number;
  /** GUEST: the one workflow the token reaches. */
  workflowId?: number;
  /** USER and CLIENT: the organization the token acts in. */
  organizationId?: number;
  /** CLIENT: the business app. */
  appId?: number;
  /** The session (refresh-token family) the token was issued in; steps verified per session (recipient password) hang on it. */
  sid?: string;
};

export type TokenSigner = {
  sign(claims: AccessClaims, lifetimeSeconds: number): Promise<string>;
  /** Returns null for a missing, malformed, tampered or expired token. */
  verify(token: string): Promise<(AccessClaims & { exp: number }) | null>;
};

const ISSUER = 'signature-service';

/**
 * HS256 with a secret from configuration, or generated once into DATA_DIR/keys so tokens survive a restart
 * and instances sharing DATA_DIR agree.
 */
export function loadTokenSecret(dataDir: string, configured: string | undefined): Uint8Array {
  if (configured) return new TextEncoder().encode(configured);
  return new Uint8Array(loadOrCreateKeyFile(path.join(dataDir, 'keys', 'jwt-secret'), 48));
}

/** How many verified tokens are remembered (about 300 bytes each). */
const VERIFIED_CACHE_SIZE = 10_000;

export function createTokenSigner(secret: Uint8Array): TokenSigner {
  // A client sends the same access token with every request until it expires: its signature is checked once, then
  // the claims are taken from here until `exp` (jose's HMAC through WebCrypto cost ~12% of a list request's CPU).
  // Only tokens that verified are kept, so a tampered token (another string) is always checked.
  const verified = new Map<string, AccessClaims & { exp: number }>();
  const remember = (token: string, claims: AccessClaims & { exp: number }) => {
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
    verified.set(token, claims);
  };
  return {
    async sign(claims, lifetimeSeconds) {
      const { sub, ...rest } = claims;
      return new SignJWT(rest)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(sub)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setJti(crypto.randomUUID())
        .setExpirationTime(Math.floor(Date.now() / 1000) + lifetimeSeconds)
        .sign(secret);
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        if (known.exp > Date.now() / 1000) return known;
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, secret, { issuer: ISSUER, algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || !['USER', 'GUEST', 'CLIENT'].includes(payload.type as string))
          return null;
        const claims = Object.freeze(payload) as unknown as AccessClaims & { exp: number };
        if (typeof claims.exp === 'number') remember(token, claims);
        return claims;
      } catch (error) {
        if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
        throw error;
      }
    },
  };
}
