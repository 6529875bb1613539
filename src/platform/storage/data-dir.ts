import fs from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds the database, live signing links and codes (outbox .eml files), uploaded contracts and the
 * platform's private keys, so nothing in it is for anyone but the service's own user: directories 0700, files
 * 0600. Code that creates files there passes these modes explicitly; the process umask (main.ts) covers what
 * third-party code creates (PGlite's data files).
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** The umask that makes anything created without an explicit mode owner-only. */
export const PRIVATE_UMASK = 0o077;

/**
 * Creates DATA_DIR owner-only and takes group and other permissions away from everything already inside it
 * (a data directory created by an older version, or copied in with a loose umask). Symbolic links are not
 * followed, so nothing outside DATA_DIR is changed. Returns how many entries were fixed.
 */
export function restrictDataDir(dataDir: string): number {
  fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  let fixed = 0;
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if (stat.isSymbolicLink()) return;
    const loose = stat.mode & 0o077;
    if (stat.isDirectory()) {
      if (loose || (stat.mode & PRIVATE_DIR_MODE) !== PRIVATE_DIR_MODE) {
        fs.chmodSync(entry, (stat.mode & 0o700) | PRIVATE_DIR_MODE);
        fixed++;
      }
      for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
    } else if (loose) {
      fs.chmodSync(entry, stat.mode & 0o700);
      fixed++;
    }
  };
  visit(dataDir);
  return fixed;
}
