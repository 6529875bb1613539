import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A random secret of `bytes` bytes kept in `file` (base64url, mode 0600), created on first use. It is written
 * aside and linked into place, so instances starting together on one DATA_DIR agree on the first one linked
 * and none reads a half-written file.
 */
export function loadOrCreateKeyFile(file: string, bytes: number): Buffer {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  if (!fs.existsSync(file)) {
    const temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(temporary, crypto.randomBytes(bytes).toString('base64url'), { mode: 0o600 });
    try {
      fs.linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(temporary, { force: true });
    }
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
}
