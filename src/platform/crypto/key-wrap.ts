import crypto from 'node:crypto';
import { hashRaw } from '@node-rs/argon2';

/**
 * A private key stored under a password: AES-256-GCM with a key derived from the password by argon2id (its own
 * random salt). Nothing else can open it, not even the service's SECRETS_KEY: the key is usable only while its
 * owner supplies the password. A wrong password fails the GCM tag check.
 */
export type WrappedKey = {
  kdf: KdfParams;
  /** base64 */
  iv: string;
  ciphertext: string;
  tag: string;
};

export type KdfParams = {
  algorithm: 'argon2id';
  memoryCost: number;
  timeCost: number;
  parallelism: number;
  salt: string;
};

/**
 * OWASP's argon2id minimum (19 MiB, 2 passes, 1 lane), the same cost as account passwords: a guess costs an
 * attacker who holds the database as much as one against a password hash, and the online guesses are capped
 * by the brute-force limits.
 */
const KDF_DEFAULTS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const SALT_BYTES = 16;
const IV_BYTES = 12;
/** Associated data: binds the ciphertext to what it is, so it cannot be replayed as another kind of secret. */
const AAD = Buffer.from('signer-key:pkcs8:v1');
/** Algorithm.Argon2id: the package's enum is a const enum, which type stripping cannot inline. */
const ARGON2ID = 2;

export async function wrapKey(secret: Uint8Array, password: string): Promise<WrappedKey> {
  const kdf: KdfParams = {
    algorithm: 'argon2id',
    ...KDF_DEFAULTS,
    salt: crypto.randomBytes(SALT_BYTES).toString('base64'),
  };
  const key = await deriveKey(password, kdf);
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(AAD);
  const ciphertext = Buffer.concat([cipher.update(secret), cipher.final()]);
  return {
    kdf,
    iv: iv.toString('base64'),
    ciphertext: ciphertext.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
  };
}

/** The secret, or null when the password is wrong (or the stored value was altered). */
export async function unwrapKey(wrapped: WrappedKey, password: string): Promise<Uint8Array | null> {
  if (wrapped.kdf.algorithm !== 'argon2id') throw new Error(`Unknown key derivation ${String(wrapped.kdf.algorithm)}`);
  const key = await deriveKey(password, wrapped.kdf);
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(wrapped.iv, 'base64'));
    decipher.setAAD(AAD);
    decipher.setAuthTag(Buffer.from(wrapped.tag, 'base64'));
    return new Uint8Array(
      Buffer.concat([decipher.update(Buffer.from(wrapped.ciphertext, 'base64')), decipher.final()]),
    );
  } catch {
    return null;
  }
}

function deriveKey(password: string, kdf: KdfParams): Promise<Buffer> {
  return hashRaw(password, {
    algorithm: ARGON2ID,
    memoryCost: kdf.memoryCost,
    timeCost: kdf.timeCost,
    parallelism: kdf.parallelism,
    outputLen: 32,
    salt: Buffer.from(kdf.salt, 'base64'),
  });
}
