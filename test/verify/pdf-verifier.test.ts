import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPdfVerifier, VerificationLimitError } from '../../src/platform/crypto/pdf-verifier.ts';
import { loadSealIdentity } from '../../src/platform/crypto/seal-identity.ts';
import { QueueFullError } from '../../src/platform/pdf/bounded-queue.ts';
import { TooManySignaturesError, UnreadablePdfError } from '../../src/platform/pdf/read-signatures.ts';
import { sealPdf } from '../../src/platform/pdf/seal-pdf.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { makeFieldTreeBombPdf } from '../helpers/signature-bombs.ts';

// A budget of 150 ms of CPU time: the field tree bomb needs far more, a one-page file far less, on any machine.
const verifier = createPdfVerifier({ workers: 1, maxWaiting: 1, cpuLimitMs: 150 });
afterAll(() => verifier.close());

describe('the PDF verifier (worker threads)', () => {
  it("answers a file's signatures, moves the bytes it is given to the worker, and says what is not a PDF", async () => {
    const pdf = new Uint8Array(await makePdf(1));
    expect(await verifier.verify(pdf, [], 50)).toEqual([]);
    expect(pdf.byteLength).toBe(0);
    await expect(verifier.verify(new TextEncoder().encode('%PDF-1.7\nnot really'), [], 50)).rejects.toBeInstanceOf(
      UnreadablePdfError,
    );
  });

  it('stops a file that costs more CPU time than a verification may use, then verifies the next one on a fresh worker', async () => {
    const stopped = await verifier.verify(makeFieldTreeBombPdf(), [], 50).catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(VerificationLimitError);
    expect((stopped as VerificationLimitError).limit).toBe('cpu');
    expect(await verifier.verify(await makePdf(1), [], 50)).toEqual([]);
  }, 60_000);

  it('refuses at once what cannot wait: one running, one waiting, the third QueueFullError', async () => {
    const bomb = makeFieldTreeBombPdf(20_000, 2);
    const running = [verifier.verify(new Uint8Array(bomb), [], 50), verifier.verify(new Uint8Array(bomb), [], 50)].map(
      (p) => p.catch((error: unknown) => error),
    );
    await expect(verifier.verify(await makePdf(1), [], 50)).rejects.toBeInstanceOf(QueueFullError);
    await Promise.all(running);
  }, 60_000);

  it('stops counting at one signature past the limit', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-verifier-'));
    try {
      const sealed = await sealPdf(await makePdf(1), await loadSealIdentity(dir));
      await expect(verifier.verify(sealed, [], 0)).rejects.toBeInstanceOf(TooManySignaturesError);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
