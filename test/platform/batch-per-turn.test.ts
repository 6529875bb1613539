import { describe, expect, it } from 'vitest';
import { batchPerTurn } from '../../src/platform/db/batch-per-turn.ts';

describe('batchPerTurn', () => {
  it('runs the calls of one event-loop turn as one flush and answers each its own result', async () => {
    const flushes: number[][] = [];
    const double = batchPerTurn(async (inputs: number[]) => {
      flushes.push(inputs);
      return inputs.map((input) => input * 2);
    });
    const first = await Promise.all([double(1), double(2), double(3)]);
    expect(first).toEqual([2, 4, 6]);
    // A call after the flush began starts a new batch.
    expect(await double(5)).toBe(10);
    expect(flushes).toEqual([[1, 2, 3], [5]]);
  });

  it('rejects every call of a batch whose flush fails, and the next batch runs again', async () => {
    let fail = true;
    const echo = batchPerTurn(async (inputs: string[]) => {
      if (fail) throw new Error('database gone');
      return inputs;
    });
    const outcomes = await Promise.allSettled([echo('a'), echo('b')]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await echo('c')).toBe('c');
  });
});
