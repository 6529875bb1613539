import { Secret, TOTP } from 'otpauth';

/** RFC 6238 defaults every authenticator app understands: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** One step either side of now is accepted, for clocks that drift a little. */
const WINDOW = 1;
export const TOTP_ISSUER = 'Signature Service';

/** A fresh 160-bit secret, base32 as authenticator apps expect. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpUrl(secret: string, accountEmail: string): string {
  return totp(secret, accountEmail).toString();
}

/** RUNTIME.md: `tOtp` is a number or a string of 6 digits; a number is left-padded with zeros. */
export function normalizeTotpCode(code: number | string): string {
  return typeof code === 'number' ? String(code).padStart(DIGITS, '0') : code;
}

/**
 * The 30-second step the code belongs to, or null when it matches no step within the window. The caller
 * records the step so the same code is accepted once.
 */
export function matchTotpStep(secret: string, code: number | string, now: number = Date.now()): number | null {
  const token = normalizeTotpCode(code);
  if (!/^[0-9]{6}$/.test(token)) return null;
  const delta = totp(secret, '').validate({ token, timestamp: now, window: WINDOW });
  if (delta === null) return null;
  return Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

function totp(secret: string, label: string): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
  });
}
