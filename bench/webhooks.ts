// Webhook drain: BENCH_EVENTS events (default 100) on one workflow, each for BENCH_APPS business apps (default 10)
// of its organization = 1,000 deliveries, written by recordActivity in one transaction and delivered by the
// webhook.deliver job to a real https receiver on loopback (bench/webhook-receiver.ts, its own process; a new TLS
// connection per delivery, as the outbound client makes them). The receiver checks every X-Signature-256.
// Reports deliveries per second from the commit to the last request received. Goal: at least 200 deliveries/s.
// The receiver's self-signed certificate is trusted the way an operator trusts a private CA, through
// NODE_EXTRA_CA_CERTS (the bench runs itself again with it set): the outbound client's `ca` option, meant for
// tests, builds a TLS context with every root certificate per request and would measure that instead.
// Run: npm run bench:webhooks   (DATABASE_URL=postgres://... npm run bench:webhooks uses a scratch database there)
import { execFileSync, fork, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { findDefaultPackage } from '../src/modules/billing/billing.repo.ts';
import { createAccount } from '../src/modules/users/accounts.ts';
import { recordActivity } from '../src/modules/activities/activities.service.ts';
import { createOutbound } from '../src/platform/outbound/outbound.ts';
import { businessApps, webhookDeliveries, workflows } from '../src/platform/db/schema/index.ts';
import { startBenchServer } from './bench-server.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100);
const APPS = Number(process.env.BENCH_APPS ?? 10);
const TOTAL = EVENTS * APPS;

const certDir = process.env.BENCH_WEBHOOK_CERT_DIR;
if (!certDir) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sig-bench-webhook-ca-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=hooks.bench.test',
        '-addext',
        'subjectAltName=DNS:hooks.bench.test',
      ],
      { stdio: 'ignore' },
    );
    const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_WEBHOOK_CERT_DIR: dir, NODE_EXTRA_CA_CERTS: path.join(dir, 'cert.pem') },
    });
    process.exitCode = child.status ?? 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
} else {
  await run();
}

async function run(): Promise<void> {
  let received = 0;
  let badSignatures = 0;
  let allReceived: () => void = () => {};
  const receiver: ChildProcess = fork(path.join(import.meta.dirname, 'webhook-receiver.ts'), { env: process.env });
  const port = await new Promise<number>((resolve) => {
    receiver.on('message', (message: { port?: number; validSignature?: boolean }) => {
      if (message.port) resolve(message.port);
      if (message.validSignature === undefined) return;
      received += 1;
      if (!message.validSignature) badSignatures += 1;
      if (received >= TOTAL) allReceived();
    });
  });

  const server = await startBenchServer({
    name: 'webhooks',
    config: { outboundAllowPrivate: true },
    overrides: { log: () => {}, outbound: createOutbound({ allowPrivate: true, resolve: async () => ['127.0.0.1'] }) },
  });
  const { built } = server;
  const { db } = built.platform;
  try {
    const { organizationId, userId } = await db.transaction(async (tx) => {
      const created = await createAccount(
        tx,
        { name: 'Bench Owner', email: 'bench-owner@example.com', passwordHash: 'x' },
        (await findDefaultPackage(tx))!,
      );
      return { organizationId: created.organizationId, userId: created.user.id };
    });
    const secrets: Record<string, string> = {};
    for (let i = 0; i < APPS; i++) {
      const secret = `whsec_${crypto.randomBytes(32).toString('base64url')}`;
      secrets[`/app${i}`] = secret;
      await db.insert(businessApps).values({
        organizationId,
        clientId: `bench-${i}`,
        appName: `Bench ${i}`,
        callbackUrl: `https://hooks.bench.test:${port}/app${i}`,
        secretHash: 'x',
        webhookSecret: built.platform.secrets.encrypt(secret),
      });
    }
    receiver.send({ secrets });
    const [workflow] = await db
      .insert(workflows)
      .values({
        ownerUserId: userId,
        organizationId,
        name: 'Bench envelope',
        sequence: 'UNORDERED',
        signType: 'COUNTERSIGN',
        status: 'SENT',
      })
      .returning();

    const done = new Promise<void>((resolve) => {
      allReceived = resolve;
    });
    const writeStarted = performance.now();
    await db.transaction(async (tx) => {
      for (let i = 0; i < EVENTS; i++) {
        await recordActivity(tx, {
          workflowId: workflow.id,
          kind: 'SIGNED',
          action: 'Signed',
          sentence: `Signer ${i} signed`,
          userId,
          status: 'SIGNED',
        });
      }
    });
    const writeSeconds = (performance.now() - writeStarted) / 1000;
    const cpuBefore = process.cpuUsage();
    const committedAt = performance.now();
    await done;
    const seconds = (performance.now() - committedAt) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    await built.platform.jobs.drain();
    const [delivered] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.workflowId, workflow.id), eq(webhookDeliveries.status, 'DELIVERED')));
    console.log(
      `${built.platform.database.kind} webhook drain: ${TOTAL} deliveries (${EVENTS} events x ${APPS} apps) in ${seconds.toFixed(2)} s = ` +
        `${(TOTAL / seconds).toFixed(0)} deliveries/s (receiver got ${received}, bad signatures ${badSignatures}, DELIVERED rows ${delivered.n}); ` +
        `${EVENTS} activities and their delivery rows written in ${writeSeconds.toFixed(2)} s; CPU of the service process ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s; ` +
        `load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
    );
    if (badSignatures > 0 || delivered.n !== TOTAL) process.exitCode = 1;
  } finally {
    await server.close();
    receiver.send({ stop: true });
  }
}
