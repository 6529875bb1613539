// Seal cost against the floor of hashing the same bytes: sealPdf (PAdES B-B, incremental) versus one
// SHA-256 of the whole file with node:crypto, on a ~1 MB and a ~20 MB PDF (pages carrying incompressible
// images, as a scanned document does). Goal: seal within 3x hashing + 10 ms.
// Run: npm run bench:seal
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadSealIdentity } from '../src/platform/crypto/seal-identity.ts';
import type { SealIdentity } from '../src/platform/crypto/seal-identity.ts';
import { sealPdf } from '../src/platform/pdf/seal-pdf.ts';
import { buildPdf } from './image-pdf.ts';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Hash and seal alternate within each run, so load from other processes hits both alike. CPU time (user +
 * system, this process) is reported beside wall time because a busy machine inflates only the latter.
 */
async function measure(runs: number, pdf: Uint8Array, identity: SealIdentity) {
  const wall = { hash: [] as number[], seal: [] as number[] };
  const cpu = { hash: [] as number[], seal: [] as number[] };
  const sample = async (kind: 'hash' | 'seal', fn: () => unknown) => {
    const usage = process.cpuUsage();
    const start = performance.now();
    await fn();
    wall[kind].push(performance.now() - start);
    const used = process.cpuUsage(usage);
    cpu[kind].push((used.user + used.system) / 1000);
  };
  for (let i = 0; i < runs; i++) {
    await sample('hash', () => crypto.createHash('sha256').update(pdf).digest());
    await sample('seal', () => sealPdf(pdf, identity));
  }
  return {
    wall: { hash: median(wall.hash), seal: median(wall.seal) },
    cpu: { hash: median(cpu.hash), seal: median(cpu.seal) },
  };
}

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-seal-'));
try {
  const identity = await loadSealIdentity(dataDir);
  for (const [label, pages, imageBytes, runs] of [['~1 MB', 5, 200_000, 15], ['~20 MB', 100, 200_000, 9]] as const) {
    const pdf = await buildPdf(pages, imageBytes);
    await sealPdf(pdf, identity); // warm-up: JIT and key import
    const { wall, cpu } = await measure(runs, pdf, identity);
    const verdict = (m: { hash: number; seal: number }) =>
      `sha256 ${m.hash.toFixed(1)} ms, sealPdf ${m.seal.toFixed(1)} ms, budget ${(3 * m.hash + 10).toFixed(1)} ms: ${m.seal <= 3 * m.hash + 10 ? 'within' : 'OVER'}`;
    console.log(`${label} (${(pdf.length / 1e6).toFixed(1)} MB, ${pages} pages), medians of ${runs}:`);
    console.log(`  wall: ${verdict(wall)}`);
    console.log(`  cpu:  ${verdict(cpu)}`);
  }
} finally {
  await fs.rm(dataDir, { recursive: true, force: true });
}
