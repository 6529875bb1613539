import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rangeDigests, type ByteRange } from '../../src/platform/pdf/range-digests.ts';

const direct = (file: Uint8Array, [a, b, c, d]: ByteRange) =>
  crypto
    .createHash('sha256')
    .update(file.subarray(a, a + b))
    .update(file.subarray(c, c + d))
    .digest('hex');

describe('rangeDigests', () => {
  it('equals hashing each range on its own, for nested incremental ranges given in any order and for a stray one', () => {
    const file = crypto.randomBytes(100_000);
    const ranges: ByteRange[] = [
      [0, 90_000, 95_000, 5_000], // the last revision, covering the file
      [0, 10_000, 12_000, 3_000], // the first
      [0, 40_000, 41_000, 9_000], // the second
      [0, 5_000, 50_000, 1_000], // overlaps nothing it could share: hashed on its own
      [0, 10_000, 11_000, 500], // the same prefix as the first
    ];
    expect(rangeDigests(file, ranges, 'sha256').map((d) => d.toString('hex'))).toEqual(
      ranges.map((r) => direct(file, r)),
    );
  });
});
