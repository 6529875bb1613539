import crypto from 'node:crypto';
import path from 'node:path';
import { loadOrCreateKeyFile } from '../../platform/crypto/key-file.ts';

/**
 * The opaque code of a signing link (SPEC.md "Guest token"): recipient id, workflow id and expiry, sealed
 * with AES-256-GCM. Only the service can mint one, and any change to a code makes it unreadable, so a code
 * cannot be guessed or edited into another recipient's.
 */
export type SigningCodes = {
  mint(recipientId: number, workflowId: number, expiresAt: Date): string;
  /** The sealed content, or null for garbage, a tampered code, a code sealed with another key, or an expired code. */
  open(code: string, now?: Date): { recipientId: number; workflowId: number; expiresAt: Date } | null;
};

/** How long a signing link can be redeemed (again and again) after it was mailed. */
export const SIGNING_LINK_DAYS = 30;

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
// version, recipientId (u32), workflowId (u32), expiresAt in ms (u64)
const PLAIN_BYTES = 4 + 4 + 8;
const CODE_BYTES = 1 + IV_BYTES + PLAIN_BYTES + TAG_BYTES;
// Binds the ciphertext to its purpose, so a blob sealed for something else with the same key never opens here.
const AAD = Buffer.from('signing-link-code');

export function createSigningCodes(key: Uint8Array): SigningCodes {
  if (key.length !== 32) throw new Error('A signing-code key has 32 bytes');
  const keyBuffer = Buffer.from(key);
  return {
    mint(recipientId, workflowId, expiresAt) {
      const plain = Buffer.alloc(PLAIN_BYTES);
      plain.writeUInt32BE(recipientId, 0);
      plain.writeUInt32BE(workflowId, 4);
      plain.writeBigUInt64BE(BigInt(expiresAt.getTime()), 8);
      const iv = crypto.randomBytes(IV_BYTES);
      const cipher = crypto.createCipheriv('aes-256-gcm', keyBuffer, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from([VERSION, ...AAD]));
      const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, sealed, cipher.getAuthTag()]).toString('base64url');
    },
    open(code, now = new Date()) {
      if (typeof code !== 'string' || !/^[A-Za-z0-9_-]+$/.test(code)) return null;
      const bytes = Buffer.from(code, 'base64url');
      // Re-encoding must give the same text: rejects non-canonical spellings of the same bytes.
      if (bytes.length !== CODE_BYTES || bytes.toString('base64url') !== code || bytes[0] !== VERSION) return null;
      const iv = bytes.subarray(1, 1 + IV_BYTES);
      const sealed = bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + PLAIN_BYTES);
      const tag = bytes.subarray(1 + IV_BYTES + PLAIN_BYTES);
      let plain: Buffer;
      try {
        const decipher = crypto.createDecipheriv('aes-256-gcm', keyBuffer, iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from([VERSION, ...AAD]));
        decipher.setAuthTag(tag);
        plain = Buffer.concat([decipher.update(sealed), decipher.final()]);
      } catch {
        return null;
      }
      const expiresAt = new Date(Number(plain.readBigUInt64BE(8)));
      if (expiresAt.getTime() <= now.getTime()) return null;
      return { recipientId: plain.readUInt32BE(0), workflowId: plain.readUInt32BE(4), expiresAt };
    },
  };
}

/**
 * The signing-code key, generated once into DATA_DIR/keys so links survive a restart and instances sharing
 * DATA_DIR agree (as loadTokenSecret does for access tokens).
 */
export function loadSigningCodeKey(dataDir: string): Uint8Array {
  const file = path.join(dataDir, 'keys', 'signing-code-key');
  const key = loadOrCreateKeyFile(file, 32);
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
  return new Uint8Array(key);
}

/** The link a mail carries: `$PUBLIC_URL/sign/<code>`, valid SIGNING_LINK_DAYS from `now` (RUNTIME.md "Mail"). */
export function signingLink(
  codes: SigningCodes,
  publicUrl: string,
  recipient: { id: number; workflowId: number },
  now: Date = new Date(),
): { url: string; expiresAt: Date } {
  const expiresAt = new Date(now.getTime() + SIGNING_LINK_DAYS * 24 * 3600 * 1000);
  return { url: `${publicUrl}/sign/${codes.mint(recipient.id, recipient.workflowId, expiresAt)}`, expiresAt };
}
