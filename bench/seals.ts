// Seal drain: 100 completed envelopes (a 1-page PDF, one signer with a drawn signature) whose seal jobs are
// queued in one transaction, as a burst of completions would queue them. Reports the time from that commit
// until every seal is SEALED (goal: at most 5 s), and until their completion mails (2 per envelope, the sealed
// PDF attached, written as .eml files) are delivered too.
// Run: npm run bench:seals   (DATABASE_URL=postgres://... npm run bench:seals uses a scratch database there)
// BENCH_SEALS (default 100) overrides the count.
import os from 'node:os';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { findDefaultPackage } from '../src/modules/billing/billing.repo.ts';
import { createAccount } from '../src/modules/users/accounts.ts';
import { SEAL_JOB } from '../src/modules/signing/completion.ts';
import { documents, fields, mailOutbox, recipients, users, workflows } from '../src/platform/db/schema/index.ts';
import { makePdf } from '../test/helpers/pdf-fixtures.ts';
import { pngDataUrl } from '../test/helpers/ceremony.ts';
import { startBenchServer } from './bench-server.ts';

const SEALS = Number(process.env.BENCH_SEALS ?? 100);
const server = await startBenchServer({ name: 'seals', overrides: { log: () => {} } });
const { built } = server;
const { db, jobs, blobs } = built.platform;
const kind = built.platform.database.kind;

async function account(name: string, email: string) {
  const plan = await db.transaction((tx) => findDefaultPackage(tx));
  return db.transaction(async (tx) => {
    const created = await createAccount(tx, { name, email, passwordHash: 'x' }, plan!);
    await tx.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, created.user.id));
    return created;
  });
}

/** COMPLETED, seal PENDING, signature filled: the state a final signature commits, minus its seal job. */
async function completedEnvelopes(count: number): Promise<number[]> {
  const { user: owner, organizationId } = await account('Bench Owner', `owner-${Date.now()}@bench.example`);
  const { user: signer } = await account('Ada Signer', `signer-${Date.now()}@bench.example`);
  const source = await blobs.put(await makePdf(1));
  const signature = pngDataUrl(120, 40);
  const ids: number[] = [];
  await db.transaction(async (tx) => {
    for (let n = 0; n < count; n++) {
      const now = new Date();
      const [workflow] = await tx
        .insert(workflows)
        .values({
          ownerUserId: owner.id,
          organizationId,
          name: `Bench contract ${n}`,
          sequence: 'UNORDERED',
          signType: 'COUNTERSIGN',
          status: 'COMPLETED',
          sentAt: now,
          statusAt: now,
          completedAt: now,
          sealStatus: 'PENDING',
        })
        .returning();
      const [document] = await tx
        .insert(documents)
        .values({
          workflowId: workflow.id,
          name: `Bench contract ${n}`,
          blobKey: source.key,
          size: source.size,
          pages: 1,
          pageSizes: [{ width: 612, height: 792, rotation: 0 }],
        })
        .returning();
      const [row] = await tx
        .insert(recipients)
        .values({
          workflowId: workflow.id,
          userId: signer.id,
          name: 'Ada Signer',
          email: signer.email,
          role: 'SIGNER',
          color: '#1A56DB',
          status: 'SIGNED',
          actedAt: now,
        })
        .returning();
      await tx.insert(fields).values({
        workflowId: workflow.id,
        documentId: document.id,
        recipientId: row.id,
        pageNo: 1,
        box: { x: 72, y: 500, width: 180, height: 50 },
        fieldType: 'SIGNATURE',
        fieldRequired: true,
        value: signature,
      });
      ids.push(workflow.id);
    }
  });
  return ids;
}

async function queueSeals(ids: number[]) {
  await db.transaction(async (tx) => {
    for (const workflowId of ids) await jobs.send(tx, SEAL_JOB, { workflowId });
  });
  jobs.notify(SEAL_JOB);
}

async function until(probe: () => Promise<boolean>) {
  while (!(await probe())) await new Promise((resolve) => setTimeout(resolve, 20));
}

async function sealedCount(ids: number[]): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(workflows)
    .where(and(inArray(workflows.id, ids), eq(workflows.sealStatus, 'SEALED')));
  return row.n;
}

try {
  // Warm-up: seal keys are created on first use, fonts and code paths load.
  const warm = await completedEnvelopes(2);
  await queueSeals(warm);
  await until(async () => (await sealedCount(warm)) === warm.length);
  await jobs.drain();

  const ids = await completedEnvelopes(SEALS);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await queueSeals(ids);
  await until(async () => (await sealedCount(ids)) === ids.length);
  const sealedSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  await until(async () => {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(mailOutbox)
      .where(and(inArray(mailOutbox.workflowId, ids), eq(mailOutbox.status, 'SENT')));
    return row.n === ids.length * 2;
  });
  const mailedSeconds = (performance.now() - started) / 1000;
  console.log(
    `${kind} seals: ${SEALS} queued at once, all SEALED in ${sealedSeconds.toFixed(2)} s (${(SEALS / sealedSeconds).toFixed(0)} seals/s); their ${SEALS * 2} completion mails delivered by ${mailedSeconds.toFixed(2)} s; ` +
      `service CPU until SEALED ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
  );
} finally {
  await server.close();
}
