// Power Survey at scale, on a real SMTP peer on loopback (smtp-server, in a process of its own: bench/smtp-peer.ts):
//  1. dispatch: a survey of BENCH_RECIPIENTS (default 10,000) recipients is commenced; timed from the commence call
//     until every child exists and the peer has accepted every commence mail (goal on PostgreSQL: <= 30 s);
//  2. a second commence: answers 202 and creates nothing (children, commence mails, debits);
//  3. CSV export of every child with includeFields, streamed over a real socket: peak RSS growth (goal < 50 MB);
//  4. kill -9 mid-dispatch: a service process (this script with the argument `serve`) is killed while it dispatches
//     a second survey, a new one is started on the same database, and the dispatch must finish with no duplicate.
// Run: npm run bench:survey   (DATABASE_URL=postgres://... npm run bench:survey uses a scratch database there;
// phase 4 needs PostgreSQL: the embedded database belongs to one process).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { findDefaultPackage } from '../src/modules/billing/billing.repo.ts';
import { createAccount } from '../src/modules/users/accounts.ts';
import {
  documents,
  fields,
  organizations,
  packages,
  recipients,
  users,
  workflows,
} from '../src/platform/db/schema/index.ts';
import type { Db } from '../src/platform/db/client.ts';
import type { TokenSigner } from '../src/platform/auth/jwt.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/app.ts';
import { makePdf } from '../test/helpers/pdf-fixtures.ts';
import { startBenchServer } from './bench-server.ts';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 10_000);

if (process.argv[2] === 'serve') {
  // Phase 4's service process: the app on the given database, its job workers running, until killed.
  const config = {
    ...loadConfig({}),
    dataDir: process.env.BENCH_DATA_DIR!,
    databaseUrl: process.env.BENCH_DATABASE_URL,
    smtpUrl: process.env.BENCH_SMTP_URL,
    logLevel: 'warn' as const,
    port: 0,
  };
  const built = await buildApp(config, { log: () => {} });
  if (process.env.BENCH_COMMENCE) {
    const survey = await seedSurvey(built.platform.db, built.platform.blobs, built.platform.tokens, RECIPIENTS);
    const res = await built.app.inject({
      method: 'POST',
      url: `/workflow/v1/${survey.workflowId}/commence`,
      headers: { authorization: `Bearer ${survey.token}`, 'content-type': 'application/json' },
      payload: '{}',
    });
    if (res.statusCode !== 202) throw new Error(`commence: ${res.statusCode} ${res.body}`);
    process.stdout.write(`COMMENCED ${survey.workflowId}\n`);
  }
  process.stdout.write('READY\n');
  await new Promise(() => {});
}

// The SMTP peer runs in a process of its own (bench/smtp-peer.ts), as a real mail server would: in this process its
// parsing of 10,000 mails shared the service's event loop.
let received = 0;
const peer = fork(path.join(import.meta.dirname, 'smtp-peer.ts'));
const peerPort = await new Promise<number>((resolve) => {
  peer.on('message', (message: { port?: number; received?: number }) => {
    if (message.port !== undefined) resolve(message.port);
    if (message.received !== undefined) received = message.received;
  });
});
const smtpUrl = `smtp://127.0.0.1:${peerPort}`;

const server = await startBenchServer({
  name: 'survey',
  config: { smtpUrl, mailFrom: 'bench@example.com', jobPollSeconds: 0.5 },
  overrides: { log: () => {} },
});
const { built } = server;
const { db } = built.platform;
const kind = built.platform.database.kind;

try {
  // 1. Dispatch.
  const survey = await seedSurvey(db, built.platform.blobs, built.platform.tokens, RECIPIENTS);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await commence(survey.workflowId, survey.token, 202);
  let dispatched = 0;
  let childrenSeconds = 0;
  let nextReport = 10;
  while (dispatched < RECIPIENTS || received < RECIPIENTS) {
    await sleep(50);
    if (dispatched < RECIPIENTS) dispatched = await countChildren(db, survey.workflowId);
    const elapsed = (performance.now() - started) / 1000;
    if (dispatched >= RECIPIENTS && childrenSeconds === 0) childrenSeconds = elapsed;
    if (elapsed >= nextReport) {
      console.log(`  after ${nextReport} s: ${dispatched} children, ${received} mails at the peer`);
      nextReport += 10;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `  every child existed after ${childrenSeconds.toFixed(1)} s; the last mail arrived ${(seconds - childrenSeconds).toFixed(1)} s later`,
  );
  const cpu = process.cpuUsage(cpuBefore);
  console.log(
    `${kind} survey dispatch: ${RECIPIENTS} children created and ${received} commence mails accepted by the SMTP peer in ${seconds.toFixed(1)} s ` +
      `(${(RECIPIENTS / seconds).toFixed(0)}/s; CPU of this process ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`,
  );

  // 2. A second commence.
  const creditsBefore = await creditsOf(db, survey.organizationId);
  await commence(survey.workflowId, survey.token, 202);
  await built.platform.jobs.drain(undefined, 120_000);
  await sleep(500);
  const check = await duplicates(db, survey.workflowId);
  console.log(
    `second commence: 202; children ${check.children} (distinct recipients ${check.distinct}), commence mails queued ${check.mails}, peer received ${received}, ` +
      `credits debited again ${creditsBefore - (await creditsOf(db, survey.organizationId))}`,
  );
  if (check.children !== RECIPIENTS || check.distinct !== RECIPIENTS || check.mails !== RECIPIENTS)
    throw new Error('duplicate or missing children after a second commence');

  // 3. CSV export, streamed over a socket.
  await fillAnswers(db, survey.workflowId);
  const base = await server.listen();
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const exportStarted = performance.now();
  const response = await fetch(`${base}/document/v1/power-survey/${survey.workflowId}/export.csv?includeFields=true`, {
    headers: { authorization: `Bearer ${survey.token}` },
  });
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines += 1;
  }
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(
    `CSV export: ${response.status}, ${lines - 1} rows, ${(bytes / 1e6).toFixed(1)} MB in ${((performance.now() - exportStarted) / 1000).toFixed(2)} s; ` +
      `peak RSS growth ${((peak - rssBefore) / 1e6).toFixed(1)} MB (goal < 50 MB; service and client in one process)`,
  );
  if (lines - 1 !== RECIPIENTS) throw new Error('CSV row count');

  // 4. kill -9 mid-dispatch.
  if (kind === 'postgres' && process.env.BENCH_SKIP_KILL !== '1') {
    const {
      rows: [{ name }],
    } = await built.platform.database.sql.executeSql('select current_database() as name');
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    await killDuringDispatch(url.toString());
  }
} finally {
  await server.close();
  peer.kill();
}

async function killDuringDispatch(databaseUrl: string): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sig-bench-survey-kill-'));
  const before = received;
  const env = { ...process.env, BENCH_DATA_DIR: dataDir, BENCH_DATABASE_URL: databaseUrl, BENCH_SMTP_URL: smtpUrl };
  const first = serve({ ...env, BENCH_COMMENCE: '1' });
  const parentId = Number((await first.line(/^COMMENCED (\d+)/))[1]);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const count = async () =>
    Number(
      (await client.query('select count(*)::int as n from workflows where parent_workflow_id = $1', [parentId])).rows[0]
        .n,
    );
  while ((await count()) < RECIPIENTS / 3) await sleep(20);
  first.process.kill('SIGKILL');
  const atKill = await count();
  const killedAt = performance.now();
  const second = serve(env);
  await second.line(/^READY/);
  while ((await count()) < RECIPIENTS) await sleep(100);
  const recovered = (performance.now() - killedAt) / 1000;
  await sleep(2000);
  const {
    rows: [result],
  } = await client.query(
    `select count(*)::int as children, count(distinct parent_recipient_id)::int as distinct,
      (select count(*) from mail_outbox m where m.kind = 'COMMENCE' and m.workflow_id in (select id from workflows where parent_workflow_id = $1))::int as mails
    from workflows where parent_workflow_id = $1`,
    [parentId],
  );
  second.process.kill('SIGKILL');
  await client.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(
    `kill -9 mid-dispatch at ${atKill} of ${RECIPIENTS} children: a new process finished the dispatch ${recovered.toFixed(1)} s after the kill; ` +
      `children ${result.children} (distinct recipients ${result.distinct}), commence mails queued ${result.mails}, peer received ${received - before} more mails`,
  );
  if (result.children !== RECIPIENTS || result.distinct !== RECIPIENTS || result.mails !== RECIPIENTS)
    throw new Error('duplicate or missing children after kill -9');
}

function serve(env: NodeJS.ProcessEnv): { process: ChildProcess; line(pattern: RegExp): Promise<RegExpMatchArray> } {
  const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, 'serve'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let buffer = '';
  const waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (const waiter of [...waiters]) {
      const match = buffer
        .split('\n')
        .map((l) => waiter.pattern.exec(l))
        .find(Boolean);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  });
  return {
    process: child,
    line: (pattern) =>
      new Promise((resolve) => {
        waiters.push({ pattern, resolve });
        child.stdout!.emit('data', Buffer.alloc(0));
      }),
  };
}

/**
 * The owner (a fresh account whose plan allows `count` survey recipients and has the credits), its DRAFT survey:
 * one document, an unassigned SIGNATURE and a labelled TEXT field, and `count` guest SIGNER recipients, inserted in bulk.
 */
async function seedSurvey(
  db: Db,
  blobs: { put(bytes: Uint8Array): Promise<{ key: string; size: number }> },
  tokens: TokenSigner,
  count: number,
) {
  const stamp = crypto.randomBytes(4).toString('hex');
  const { user, organizationId } = await db.transaction(async (tx) =>
    createAccount(
      tx,
      { name: 'Bench Owner', email: `owner-${stamp}@bench.example`, passwordHash: null },
      (await findDefaultPackage(tx))!,
    ),
  );
  const [org] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  await db.update(packages).set({ powerSurveyRecipientLimit: 1_000_000 }).where(eq(packages.id, org.packageId));
  await db
    .update(organizations)
    .set({ credits: 10 * count + 1000 })
    .where(eq(organizations.id, organizationId));
  const blob = await blobs.put(await makePdf(1));
  const [workflow] = await db
    .insert(workflows)
    .values({ ownerUserId: user.id, organizationId, name: 'Bench survey', sequence: 'SURVEY', signType: 'POWERSURVEY' })
    .returning();
  const [document] = await db
    .insert(documents)
    .values({
      workflowId: workflow.id,
      name: 'Bench survey',
      blobKey: blob.key,
      size: blob.size,
      pages: 1,
      pageSizes: [{ width: 612, height: 792, rotation: 0 }],
    })
    .returning();
  await db.insert(fields).values([
    {
      workflowId: workflow.id,
      documentId: document.id,
      pageNo: 1,
      box: { x: 72, y: 72, width: 150, height: 40 },
      fieldType: 'SIGNATURE',
      fieldRequired: true,
    },
    {
      workflowId: workflow.id,
      documentId: document.id,
      pageNo: 1,
      box: { x: 72, y: 140, width: 150, height: 40 },
      fieldType: 'TEXT',
      fieldRequired: true,
      label: 'Comment',
    },
  ]);
  for (let start = 0; start < count; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, count - start) }, (_, i) => ({
      email: `r${start + i}-${stamp}@bench.example`,
      name: 'Bench Respondent',
      isGuest: true,
    }));
    const made = await db.insert(users).values(batch).returning({ id: users.id, email: users.email });
    await db.insert(recipients).values(
      made.map((u) => ({
        workflowId: workflow.id,
        userId: u.id,
        name: 'Bench Respondent',
        email: u.email,
        role: 'SIGNER',
        color: '#1A56DB',
      })),
    );
  }
  const token = await tokens.sign({ sub: String(user.id), type: 'USER', organizationId }, 3600);
  return { workflowId: workflow.id, organizationId, token };
}

async function commence(workflowId: number, token: string, expected: number): Promise<void> {
  const res = await built.app.inject({
    method: 'POST',
    url: `/workflow/v1/${workflowId}/commence`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ title: 'Bench survey' }),
  });
  if (res.statusCode !== expected) throw new Error(`commence: ${res.statusCode} ${res.body}`);
}

async function countChildren(db: Db, parentId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(workflows)
    .where(eq(workflows.parentWorkflowId, parentId));
  return row.n;
}

async function duplicates(db: Db, parentId: number) {
  const result =
    await db.execute(sql`select count(*)::int as children, count(distinct parent_recipient_id)::int as distinct,
      (select count(*) from mail_outbox m where m.kind = 'COMMENCE' and m.workflow_id in (select id from workflows where parent_workflow_id = ${parentId}))::int as mails
    from workflows where parent_workflow_id = ${parentId}`);
  return result.rows[0] as { children: number; distinct: number; mails: number };
}

/** Every child's answer filled in (as if each had responded), so the export carries the field column. */
async function fillAnswers(db: Db, parentId: number): Promise<void> {
  await db.execute(sql`update fields set value = 'An answer of some length, like people write, ' || id, filled_at = now()
    where label = 'Comment' and workflow_id in (select id from workflows where parent_workflow_id = ${parentId})`);
}

async function creditsOf(db: Db, organizationId: number): Promise<number> {
  const [row] = await db
    .select({ credits: organizations.credits })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row.credits;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
