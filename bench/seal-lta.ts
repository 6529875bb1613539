// Long-term seal cost: the platform seal with a TSA (PAdES B-LTA: B-T signature, DSS with the chain and the
// platform CA's CRL, document time-stamp) on a ~20 MB PDF, against 3x one SHA-256 of the file + 10 ms + the
// TSA round trips (two: the signature time-stamp and the document time-stamp), measured alone beside it.
// Run: node_modules/.bin/node bench/seal-lta.ts   (the TSA is the tests' RFC 3161 responder on 127.0.0.1)
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { requestTimestampForDigest } from '../src/platform/crypto/timestamp-client.ts';
import { IncrementalPdf } from '../src/platform/pdf/incremental-update.ts';
import { appendSignature, appendSignatureTo } from '../src/platform/signing/append-signature.ts';
import { createPlatformSeal } from '../src/platform/signing/platform-seal.ts';
import { startTsaServer } from '../test/helpers/tsa-server.ts';
import { buildPdf } from '../test/helpers/pdf-fixtures.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const time = async (fn: () => unknown) => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-seal-lta-'));
const tsa = await startTsaServer();
try {
  const seal = createPlatformSeal({ dataDir, tsaUrl: tsa.url, publicUrl: 'https://sign.example.test' });
  const pdf = await buildPdf(100, 200_000);
  // Warm-up: keys, CRL, JIT (the first seals run 2-3x slower).
  for (let i = 0; i < 5; i++) await appendSignature(pdf, await seal.signer({}));
  const samples = { hash: [] as number[], tsa: [] as number[], seal: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    samples.hash.push(await time(() => crypto.createHash('sha256').update(pdf).digest()));
    samples.tsa.push(await time(() => requestTimestampForDigest(tsa.url, crypto.randomBytes(32))));
    const signer = await seal.signer({ reason: 'Workflow completed' });
    // As the seal job does: on one parse, kept as hashed parts for the blob store (never joined).
    samples.seal.push(
      await time(async () => (await appendSignatureTo(await IncrementalPdf.open(pdf), signer)).hashedParts()),
    );
  }
  const hash = median(samples.hash);
  const roundTrip = median(samples.tsa);
  const sealMs = median(samples.seal);
  const budget = 3 * hash + 10 + 2 * roundTrip;
  console.log(
    `${(pdf.length / 1e6).toFixed(1)} MB, medians of ${RUNS}: sha256 ${hash.toFixed(1)} ms, TSA round trip ${roundTrip.toFixed(1)} ms, ` +
      `B-LTA seal ${sealMs.toFixed(1)} ms, budget 3x sha256 + 10 ms + 2 round trips = ${budget.toFixed(1)} ms: ${sealMs <= budget ? 'within' : 'OVER'}; ` +
      `load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
  );
} finally {
  await tsa.close();
  await fs.rm(dataDir, { recursive: true, force: true });
}
