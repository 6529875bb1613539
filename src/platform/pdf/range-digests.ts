import crypto from 'node:crypto';

export type ByteRange = [number, number, number, number];

/**
 * The digests of several signatures' byte ranges over one file, reading the file once. Incremental signatures
 * share their prefix: each signed range is "everything before my /Contents" plus a short tail after it, and
 * every later revision contains the earlier ones. So one running hash moves through the file, and at each
 * signature's /Contents it is copied and the copy finishes with that signature's tail. A 20 MB file with three
 * signatures costs about one SHA-256 of the file instead of three. Ranges must be sound (checked by the caller).
 */
export function rangeDigests(file: Uint8Array, ranges: ByteRange[], algorithm: string): Buffer[] {
  const order = ranges.map((range, index) => ({ range, index })).sort((x, y) => x.range[1] - y.range[1]);
  const digests: Buffer[] = new Array(ranges.length);
  const running = crypto.createHash(algorithm);
  let position = 0;
  for (const { range, index } of order) {
    const [start1, length1, start2, length2] = range;
    if (start1 !== 0 || length1 < position) {
      // Not a prefix of what is already hashed (a hand-made file): hash this one on its own.
      digests[index] = crypto.createHash(algorithm).update(file.subarray(start1, start1 + length1)).update(file.subarray(start2, start2 + length2)).digest();
      continue;
    }
    running.update(file.subarray(position, length1));
    position = length1;
    digests[index] = running.copy().update(file.subarray(start2, start2 + length2)).digest();
  }
  return digests;
}
