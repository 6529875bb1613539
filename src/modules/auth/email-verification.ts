import crypto from 'node:crypto';

/**
 * Email verification codes: 256 random bits (base64url, 43 characters) mailed once; only their SHA-256 digest
 * is stored (users.email_verification_hash), so a database reader cannot verify an address. A code is good for
 * one thing only, verifying that one account's address, and for EMAIL_VERIFICATION_DAYS; a newer code
 * replaces it. Reopening a used link within its lifetime answers 200 again (a person may click twice).
 */
export const EMAIL_VERIFICATION_DAYS = 7;

export function newEmailVerificationCode(now: Date = new Date()): { code: string; codeHash: string; expiresAt: Date } {
  const code = crypto.randomBytes(32).toString('base64url');
  return {
    code,
    codeHash: hashEmailVerificationCode(code),
    expiresAt: new Date(now.getTime() + EMAIL_VERIFICATION_DAYS * 24 * 3600 * 1000),
  };
}

export function hashEmailVerificationCode(code: string): string {
  return crypto.createHash('sha256').update(code, 'utf8').digest('hex');
}

/** Only what newEmailVerificationCode produces can match, so anything else is refused before a query. */
export function isWellFormedVerificationCode(code: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(code);
}

export function emailVerificationLink(publicUrl: string, code: string): string {
  return `${publicUrl}/verify-email/${code}`;
}
