import { describe, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import type { Tx } from '../../src/platform/db/client.ts';
import { findOrganizationPlan } from '../../src/modules/billing/entitlements.repo.ts';
import {
  findLiveWorkflow,
  findLiveWorkflowWithRecipient,
  lockLiveWorkflowWithRecipientOfDocument,
} from '../../src/modules/workflows/workflows.repo.ts';
import { createDraftWorkflow } from '../helpers/factories.ts';
import { draftForSending } from '../helpers/signing.ts';
import { mailOutbox, recipients } from '../../src/platform/db/schema/index.ts';

/**
 * The row locks that serialize a send (the organization's plan) and every action on a workflow are FOR NO KEY UPDATE:
 * they exclude each other as FOR UPDATE does, but another transaction writing a row that refers to the locked row (its
 * foreign key checked at commit with FOR KEY SHARE) commits without waiting for the lock's holder. Under FOR UPDATE the
 * whole organization's writes queued behind each send (bench/README.md "Lifecycle throughput"). A workflow read with
 * one of its recipient rows in one statement locks both, so that it sees the row as the lock's holder left it. Only
 * PostgreSQL has concurrent transactions; the embedded database runs one at a time.
 */
const sleep = (ms: number, value?: string) => new Promise((resolve) => setTimeout(resolve, ms, value));

/** A transaction holding the organization's plan lock and the workflow's row lock until `release()`. */
async function holdLocks(t: TestApp, organizationId: number, workflowId: number) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked!: () => void;
  const taken = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const done = t.platform.db.transaction(async (tx) => {
    await findOrganizationPlan(tx, organizationId, { lock: true });
    await findLiveWorkflow(tx, workflowId, true);
    locked();
    await held;
  });
  await Promise.race([taken, done]);
  return { release, done };
}

describe.runIf(Boolean(process.env.DATABASE_URL))(
  'row locks that serialize sends and workflow actions (PostgreSQL)',
  () => {
    test('a held plan or workflow lock does not hold up the commit of a row referring to them', async ({
      app: t,
      owner,
    }) => {
      const { workflow } = await createDraftWorkflow(t, owner);
      const holder = await holdLocks(t, owner.organizationId, workflow.id);
      // A mail of the organization about the workflow: both foreign keys are checked at this commit.
      const insert = t.platform.db.transaction(async (tx) => {
        await tx.insert(mailOutbox).values({
          organizationId: owner.organizationId,
          workflowId: workflow.id,
          toAddress: 'lock@example.com',
          subject: 's',
          textBody: 't',
          htmlBody: '<p>t</p>',
          kind: 'TEST',
        });
      });
      const outcome = await Promise.race([insert.then(() => 'committed'), sleep(5_000, 'waited for the lock')]);
      holder.release();
      await Promise.all([insert, holder.done]);
      expect(outcome).toBe('committed');
    });

    test('a second locker of the plan or the workflow waits for the first', async ({ app: t, owner }) => {
      const { workflow } = await createDraftWorkflow(t, owner);
      for (const lock of [
        (tx: Tx) => findOrganizationPlan(tx, owner.organizationId, { lock: true }),
        (tx: Tx) => findLiveWorkflow(tx, workflow.id, true),
      ]) {
        const holder = await holdLocks(t, owner.organizationId, workflow.id);
        let second = false;
        const waiting = t.platform.db.transaction(async (tx) => {
          await lock(tx);
          second = true;
        });
        await sleep(300);
        const before = second;
        holder.release();
        await Promise.all([waiting, holder.done]);
        expect(before).toBe(false);
        expect(second).toBe(true);
      }
    });

    test('a workflow read locked with its recipient row sees the row as a holder of the workflow lock committed it (a delegation while it waited)', async ({
      app: t,
      owner,
    }) => {
      const {
        workflow,
        document,
        rows: [row],
      } = await draftForSending(t, owner, { recipients: [{ name: 'Dee Legate' }] });
      for (const read of [
        (tx: Tx) => findLiveWorkflowWithRecipient(tx, workflow.id, row.id, true),
        (tx: Tx) => lockLiveWorkflowWithRecipientOfDocument(tx, workflow.id, row.id, document.id),
      ]) {
        await t.platform.db.update(recipients).set({ status: 'SENT' }).where(eq(recipients.id, row.id));
        let release!: () => void;
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        let locked!: () => void;
        const taken = new Promise<void>((resolve) => {
          locked = resolve;
        });
        const holder = t.platform.db.transaction(async (tx) => {
          await findLiveWorkflow(tx, workflow.id, true);
          await tx.update(recipients).set({ status: 'DELEGATED' }).where(eq(recipients.id, row.id));
          locked();
          await held;
        });
        await taken;
        const reader = t.platform.db.transaction(async (tx) => read(tx));
        await sleep(300);
        release();
        await holder;
        expect((await reader)?.recipient.status).toBe('DELEGATED');
      }
    });
  },
);
