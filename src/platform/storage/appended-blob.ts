import { Readable } from 'node:stream';
import type { HashedParts } from './blob-store.ts';

/**
 * A blob kept as another stored blob followed by the bytes appended to it. A signed or sealed PDF is its source
 * byte for byte plus an incremental update of a few kilobytes, so storing it whole would copy the source (20 MB
 * for a scanned contract) for every signature and seal: twice the disk and the write. Kept as `<key>.appended`: a
 * header line `base <base key> <base size>\n`, then the appended bytes. The key stays the SHA-256 of the whole
 * file, so readers see no difference; the base is never removed (blobs are immutable and never deleted).
 */
export const APPENDED_SUFFIX = '.appended';

/** The longest header a reader looks for: "base " + 64 hex + " " + a size + "\n". */
export const APPENDED_HEADER_MAX = 96;

export type AppendedHeader = { baseKey: string; baseSize: number; headerLength: number };

/** The parts to write for `whole` kept over its base: the header, then everything after the base's bytes. */
export function appendedParts(whole: HashedParts & { base: NonNullable<HashedParts['base']> }): Uint8Array[] {
  return [Buffer.from(`base ${whole.base.key} ${whole.base.size}\n`, 'latin1'), ...whole.parts.slice(1)];
}

/** Whether `whole` can be kept over its base: it names one, and its first part is exactly that many bytes. */
export function keepsBase(whole: HashedParts): whole is HashedParts & { base: NonNullable<HashedParts['base']> } {
  return whole.base !== undefined && whole.parts.length > 1 && whole.parts[0].byteLength === whole.base.size;
}

export function parseAppendedHeader(start: Uint8Array, key: string): AppendedHeader {
  const text = Buffer.from(start.buffer, start.byteOffset, Math.min(start.byteLength, APPENDED_HEADER_MAX)).toString(
    'latin1',
  );
  const match = /^base ([0-9a-f]{64}) (\d{1,15})\n/.exec(text);
  if (!match) throw new Error(`blob ${key} is kept over a base but its header is unreadable`);
  return { baseKey: match[1], baseSize: Number(match[2]), headerLength: match[0].length };
}

/** The base's stream followed by the appended bytes' stream, as one byte stream; both are destroyed when it is. */
export function concatStreams(first: Readable, second: Readable): Readable {
  async function* chain() {
    try {
      for await (const chunk of first) yield chunk as Buffer;
      for await (const chunk of second) yield chunk as Buffer;
    } finally {
      first.destroy();
      second.destroy();
    }
  }
  return Readable.from(chain(), { objectMode: false });
}
