import crypto from 'node:crypto';
import path from 'node:path';
import { loadOrCreateKeyFile } from './key-file.ts';

/** Encrypts stored credentials (organization mail settings, CSC tokens) at rest. */
export type SecretBox = {
  encrypt(plaintext: string): string;
  /** Throws when the value was not made by a key this box holds, or was altered. */
  decrypt(sealed: string): string;
};

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * SECRETS_KEY: base64 keys, comma-separated, the first encrypting and all decrypting, so a key can be
 * rotated by putting the new one first and dropping the old once nothing holds values under it. Unset: one
 * key generated into DATA_DIR/keys/secrets-key.
 */
export function loadSecretsKeys(dataDir: string, configured: string | undefined): Uint8Array[] {
  if (!configured) return [new Uint8Array(loadOrCreateKeyFile(path.join(dataDir, 'keys', 'secrets-key'), KEY_BYTES))];
  return configured.split(',').map((text) => {
    const key = Buffer.from(text.trim(), 'base64');
    if (key.length !== KEY_BYTES) throw new Error(`SECRETS_KEY: each key must be ${KEY_BYTES} bytes in base64`);
    return new Uint8Array(key);
  });
}

/**
 * AES-256-GCM; a value reads `v1.<key id>.<iv>.<ciphertext and tag>` (base64url), the key id being the
 * first 8 bytes of SHA-256 of the key, so a value names the key it needs without revealing it.
 */
export function createSecretBox(keys: Uint8Array[]): SecretBox {
  if (keys.length === 0) throw new Error('A secret box needs at least one key');
  const byId = new Map(keys.map((key) => [keyId(key), key]));
  const currentId = keyId(keys[0]);
  return {
    encrypt(plaintext) {
      const iv = crypto.randomBytes(IV_BYTES);
      const cipher = crypto.createCipheriv('aes-256-gcm', keys[0], iv);
      const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return [VERSION, currentId, iv.toString('base64url'), sealed.toString('base64url')].join('.');
    },
    decrypt(value) {
      const [version, id, iv, sealed, ...rest] = value.split('.');
      if (version !== VERSION || !id || !iv || !sealed || rest.length > 0) throw new Error('Not an encrypted secret');
      const key = byId.get(id);
      if (!key) throw new Error(`The secret was encrypted under key ${id}, which SECRETS_KEY no longer holds`);
      const bytes = Buffer.from(sealed, 'base64url');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

function keyId(key: Uint8Array): string {
  return crypto.createHash('sha256').update(key).digest().subarray(0, 8).toString('base64url');
}
