import crypto from 'node:crypto';

export type ByteRange = [number, number, number, number];

/**
 * The digests of several signatures' byte ranges over one file, reading the file once. Incremental signatures
 * share their prefix: each signed range is "everything before my /Contents" plus a short tail after it, and
 * every later revision contains the earlier ones. So one running hash moves through the file, and at each
 * signature's /Contents it is copied and the copy finishes with that signature's tail. A 20 MB file with three
 * signatures costs about one SHA-256 of the file instead of three. A range named twice is hashed once, and its
 * digest answered for both. Ranges must be sound (checked by the caller: signed-ranges.ts, whose nested,
 * non-overlapping ranges keep this within two passes over the file).
 */
export function rangeDigests(file: Uint8Array, ranges: ByteRange[], algorithm: string): Buffer[] {
  const distinct = new Map<string, { range: ByteRange; digest?: Buffer }>();
  for (const range of ranges) if (!distinct.has(range.join(' '))) distinct.set(range.join(' '), { range });
  const order = [...distinct.values()].sort((x, y) => x.range[1] - y.range[1]);
  const running = crypto.createHash(algorithm);
  let position = 0;
  for (const item of order) {
    const [start1, length1, start2, length2] = item.range;
    if (start1 !== 0 || length1 < position) {
      // Not a prefix of what is already hashed (a hand-made file): hash this one on its own.
      item.digest = crypto
        .createHash(algorithm)
        .update(file.subarray(start1, start1 + length1))
        .update(file.subarray(start2, start2 + length2))
        .digest();
      continue;
    }
    running.update(file.subarray(position, length1));
    position = length1;
    item.digest = running
      .copy()
      .update(file.subarray(start2, start2 + length2))
      .digest();
  }
  return ranges.map((range) => distinct.get(range.join(' '))!.digest!);
}
