import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { loadSealIdentity, type SealIdentity } from '../../src/platform/crypto/seal-identity.ts';
import { sealPdf } from '../../src/platform/pdf/seal-pdf.ts';
import { readSignatures, type PdfSignatureEntry } from '../../src/platform/pdf/read-signatures.ts';
import { RANGE_PROBLEMS, signedRangeProblems } from '../../src/platform/pdf/signed-ranges.ts';

let dir: string;
let identity: SealIdentity;
let twice: Uint8Array;
let entries: PdfSignatureEntry[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signed-ranges-'));
  identity = await loadSealIdentity(dir);
  twice = await sealPdf(await sealPdf(await makePdf(1), identity), identity);
  entries = await readSignatures(twice);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const withRange = (entry: PdfSignatureEntry, byteRange: PdfSignatureEntry['byteRange']): PdfSignatureEntry => ({
  ...entry,
  byteRange,
});

describe('signedRangeProblems', () => {
  it('finds nothing wrong with the incremental signatures this service writes, nor after bytes were appended', () => {
    expect(entries).toHaveLength(2);
    expect(signedRangeProblems(twice, entries)).toEqual([null, null]);
    const appended = new Uint8Array(Buffer.concat([Buffer.from(twice), Buffer.from('\n% appended\n')]));
    expect(signedRangeProblems(appended, entries)).toEqual([null, null]);
  });

  it('refuses a range that does not start the file, runs past it, or leaves a gap too small for /Contents', () => {
    const [first] = entries;
    const [, a, b, c] = first.byteRange;
    for (const range of [
      [1, a - 1, b, c],
      [0, a, b, twice.length],
      [0, a, a + 1, c],
    ] as PdfSignatureEntry['byteRange'][]) {
      expect(signedRangeProblems(twice, [withRange(first, range)]), range.join(' ')).toEqual([
        RANGE_PROBLEMS.malformed,
      ]);
    }
  });

  it('refuses a gap that holds more than the /Contents hex string, or another part of the file', () => {
    const [first] = entries;
    const [, a, b, c] = first.byteRange;
    // The gap widened over the " /M <...>" that follows /Contents (bytes left unsigned inside the revision).
    const after = Buffer.from(twice).indexOf('>>', b);
    expect(signedRangeProblems(twice, [withRange(first, [0, a, after, c - (after - b)])])).toEqual([
      RANGE_PROBLEMS.notOwnContents,
    ]);
    // A gap elsewhere: the second signature's /Contents, claimed by the first dictionary.
    const [, a2, b2, c2] = entries[1].byteRange;
    expect(signedRangeProblems(twice, [withRange(first, [0, a2, b2, c2])])).toEqual([RANGE_PROBLEMS.notOwnContents]);
    // The right gap, but the dictionary is not the object the field names (another object number).
    expect(
      signedRangeProblems(twice, [{ ...first, ref: { objectNumber: first.ref!.objectNumber + 100, generation: 0 } }]),
    ).toEqual([RANGE_PROBLEMS.notOwnContents]);
    expect(signedRangeProblems(twice, [{ ...first, ref: null }])).toEqual([RANGE_PROBLEMS.notOwnContents]);
  });

  it("refuses a range that stops short of its revision's %%EOF or runs into the next revision", () => {
    const [first] = entries;
    const [, a, b, c] = first.byteRange;
    expect(signedRangeProblems(twice, [withRange(first, [0, a, b, c - 10])])).toEqual([RANGE_PROBLEMS.notRevision]);
    expect(signedRangeProblems(twice, [withRange(first, [0, a, b, c + 10])])).toEqual([RANGE_PROBLEMS.notRevision]);
  });
});
