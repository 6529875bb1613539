import crypto from 'node:crypto';

/**
 * Business-app client secrets. A secret is 256 random bits, so a SHA-256 digest resists guessing as well as
 * a slow hash would, and checking it costs nothing under load. The business-apps registration uses
 * `newClientSecret()` and stores only `hashClientSecret(secret)` in business_apps.secret_hash.
 */
export function newClientSecret(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function hashClientSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function clientSecretMatches(secret: string, secretHash: string): boolean {
  const actual = Buffer.from(hashClientSecret(secret), 'hex');
  const expected = Buffer.from(secretHash, 'hex');
  return expected.length === actual.length && crypto.timingSafeEqual(actual, expected);
}
