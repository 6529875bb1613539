/**
 * Buffers for reading large stored files, kept and lent again. Each fresh 20 MB buffer is external memory V8 counts
 * towards its next full collection: the seal job's read of a 20 MB source started a mark-compact in most seals, and its
 * 20-50 ms of marking steps landed in that seal (bench:seal part 2: answer → downloadable 64-76 ms; with the read
 * buffer reused, 25-38 ms in every run). Files under `minBytes` get a fresh buffer (they cost V8 little); at most
 * `keep` buffers are kept, so the memory held is bounded by `keep` × the largest file read (2 × 25 MB uploads).
 */
export type ReadBuffers = { lease(): ReadBufferLease };

/** One reader's buffer: `into` for BlobStore.get; `release` once nothing reads the bytes any more. */
export type ReadBufferLease = { into(size: number): Uint8Array; release(): void };

export function createReadBuffers(options: { minBytes: number; keep: number }): ReadBuffers {
  const free: Buffer[] = [];
  return {
    lease() {
      let held: Buffer | null = null;
      return {
        into(size) {
          if (size < options.minBytes) return new Uint8Array(size);
          if (held && held.length < size) held = null;
          if (!held) {
            const fits = free.findIndex((buffer) => buffer.length >= size);
            // Rounded up to a megabyte, so a slightly larger file next time still fits.
            held = fits >= 0 ? free.splice(fits, 1)[0] : Buffer.allocUnsafeSlow(Math.ceil(size / 2 ** 20) * 2 ** 20);
          }
          return new Uint8Array(held.buffer, held.byteOffset, held.length);
        },
        release() {
          if (held && free.length < options.keep) free.push(held);
          held = null;
        },
      };
    },
  };
}
