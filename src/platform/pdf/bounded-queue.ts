/** The waiting line is full: the caller should answer 503 with Retry-After rather than wait without bound. */
export class QueueFullError extends Error {
  constructor(message = 'too much work is already waiting') {
    super(message);
    this.name = 'QueueFullError';
  }
}

/**
 * At most `maxRunning` tasks at once and at most `maxWaiting` more waiting their turn; a task beyond that is
 * refused at once with QueueFullError. Heavy work (conversions, renders) is bounded this way so a burst of
 * uploads costs a bounded amount of memory and every accepted request finishes in bounded time.
 */
export class BoundedQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly maxRunning: number;
  private readonly maxWaiting: number;

  constructor(maxRunning: number, maxWaiting: number) {
    this.maxRunning = maxRunning;
    this.maxWaiting = maxWaiting;
  }

  get size(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.maxRunning) {
      if (this.waiting.length >= this.maxWaiting) throw new QueueFullError();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}
