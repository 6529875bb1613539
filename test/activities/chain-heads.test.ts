import { describe, expect } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow } from '../helpers/factories.ts';
import { activities } from '../../src/platform/db/schema/index.ts';
import {
  recordActivities,
  recordActivity,
  verifyChain,
  type ActivityInput,
} from '../../src/modules/activities/activities.service.ts';

/**
 * activities.service.ts keeps the head a transaction wrote, so its next append to that chain skips the advisory
 * lock and the head query. These tests check that the chain stays one unbroken line wherever the head moves behind
 * the transaction's back: a savepoint appending and releasing, a savepoint rolling back, batches and single appends
 * mixed, and other transactions appending concurrently.
 */
const entry = (workflowId: number, n: string): ActivityInput => ({
  workflowId,
  kind: 'COMMENT_ADDED',
  action: 'Comment added',
  sentence: `entry ${n}`,
});

async function chain(t: TestApp, workflowId: number) {
  return t.platform.db
    .select()
    .from(activities)
    .where(eq(activities.workflowId, workflowId))
    .orderBy(asc(activities.id));
}

describe('the activity chain appended several times in one transaction', () => {
  test('single and batch appends, a savepoint that appends and releases, one that rolls back: one unbroken chain', async ({
    app: t,
    owner,
  }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const other = (await createDraftWorkflow(t, owner)).workflow;
    await t.platform.db.transaction(async (tx) => {
      await recordActivity(tx, entry(workflow.id, 'a'));
      await recordActivity(tx, entry(workflow.id, 'b'));
      await recordActivities(tx, [entry(workflow.id, 'c'), entry(other.id, 'x'), entry(workflow.id, 'd')]);
      // A savepoint appends and is released: the parent's next append must chain onto the savepoint's row.
      await tx.transaction(async (savepoint) => {
        await recordActivity(savepoint, entry(workflow.id, 'e'));
      });
      await recordActivity(tx, entry(workflow.id, 'f'));
      // A savepoint appends and rolls back: the parent's next append chains onto f, not onto the row that vanished.
      await tx
        .transaction(async (savepoint) => {
          await recordActivity(savepoint, entry(workflow.id, 'gone'));
          savepoint.rollback();
        })
        .catch(() => {});
      await recordActivity(tx, entry(workflow.id, 'g'));
      await recordActivities(tx, [entry(other.id, 'y')]);
    });
    const rows = await chain(t, workflow.id);
    expect(rows.map((row) => row.sentence)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((n) => `entry ${n}`));
    expect(verifyChain(rows)).toEqual([]);
    const others = await chain(t, other.id);
    expect(others.map((row) => row.sentence)).toEqual(['entry x', 'entry y']);
    expect(verifyChain(others)).toEqual([]);
  });

  test('a rolled-back transaction leaves no head behind, and concurrent transactions each append twice: one unbroken chain', async ({
    app: t,
    owner,
  }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    await t.platform.db
      .transaction(async (tx) => {
        await recordActivity(tx, entry(workflow.id, 'lost 1'));
        await recordActivity(tx, entry(workflow.id, 'lost 2'));
        tx.rollback();
      })
      .catch(() => {});
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.platform.db.transaction(async (tx) => {
          await recordActivity(tx, entry(workflow.id, `${i}.1`));
          await recordActivities(tx, [entry(workflow.id, `${i}.2`)]);
          await recordActivity(tx, entry(workflow.id, `${i}.3`));
        }),
      ),
    );
    const rows = await chain(t, workflow.id);
    expect(rows).toHaveLength(24);
    expect(rows.some((row) => row.sentence.startsWith('entry lost'))).toBe(false);
    expect(verifyChain(rows)).toEqual([]);
    // Each transaction's three appends are consecutive: it held the chain's lock from its first append to its commit.
    for (let i = 0; i < rows.length; i += 3) {
      const prefix = rows[i].sentence.slice(0, -2);
      expect(rows.slice(i, i + 3).map((row) => row.sentence)).toEqual([`${prefix}.1`, `${prefix}.2`, `${prefix}.3`]);
    }
  });
});
