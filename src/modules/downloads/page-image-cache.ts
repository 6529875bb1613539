/**
 * Page pictures recently drawn, by file key, page and width, least recently used out first, up to a byte budget.
 * A picture costs a worker render (tens to hundreds of milliseconds of CPU); signers of one envelope, and a signer
 * reloading, ask for the same ones. Concurrent asks for one picture share one render.
 */
export class PageImageCache {
  private readonly entries = new Map<string, Uint8Array>();
  private readonly pending = new Map<string, Promise<Uint8Array>>();
  private bytes = 0;
  private readonly maxBytes: number;

  constructor(maxBytes = 32 * 1024 * 1024) {
    this.maxBytes = maxBytes;
  }

  async get(key: string, render: () => Promise<Uint8Array>): Promise<Uint8Array> {
    const hit = this.entries.get(key);
    if (hit) {
      // Re-inserted: a Map iterates in insertion order, so the first entry is the least recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    let running = this.pending.get(key);
    if (!running) {
      running = render()
        .then((image) => {
          this.store(key, image);
          return image;
        })
        .finally(() => this.pending.delete(key));
      this.pending.set(key, running);
    }
    return running;
  }

  private store(key: string, image: Uint8Array): void {
    if (image.byteLength > this.maxBytes / 4) return;
    this.entries.set(key, image);
    this.bytes += image.byteLength;
    for (const [oldest, value] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= value.byteLength;
    }
  }
}
