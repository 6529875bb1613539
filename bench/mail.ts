// Mail drain: 1,000 mails queued in one transaction, delivered by the mail.deliver job to a real SMTP
// peer on loopback (smtp-server, in this process). Reports mails per second from the commit to the last
// message accepted by the peer. Goal: at least 200 mails/s on PostgreSQL.
// Run: npm run bench:mail   (DATABASE_URL=postgres://... npm run bench:mail uses a scratch database there)
// BENCH_MAILS (default 1000) overrides the count.
import os from 'node:os';
import { SMTPServer } from 'smtp-server';
import { eq, sql } from 'drizzle-orm';
import { mailOutbox } from '../src/platform/db/schema/index.ts';
import { startBenchServer } from './bench-server.ts';

const MAILS = Number(process.env.BENCH_MAILS ?? 1000);

let received = 0;
let onReceived: (() => void) | null = null;
const peer = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  // A real relay would look the client up; on loopback that lookup is the peer's cost, not the service's.
  disableReverseLookup: true,
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => {
      received += 1;
      onReceived?.();
      callback();
    });
  },
});
await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
const port = (peer.server.address() as { port: number }).port;

const server = await startBenchServer({
  name: 'mail',
  config: { smtpUrl: `smtp://127.0.0.1:${port}${process.env.BENCH_SMTP_QUERY ?? ''}`, mailFrom: 'bench@example.com' },
  overrides: { log: () => {} },
});
const { built } = server;
const { db, outbox } = built.platform;
const kind = built.platform.database.kind;

try {
  const allReceived = new Promise<void>((resolve) => {
    onReceived = () => {
      if (received >= MAILS) resolve();
    };
  });
  await db.transaction(async (tx) => {
    for (let i = 0; i < MAILS; i++) {
      await outbox.enqueue(tx, {
        to: `reader${i}@bench.example`,
        subject: `Bench mail ${i}`,
        text: `Hello ${i}\nhttps://example.test/sign/abc${i}`,
        kind: 'BENCH',
      });
    }
  });
  const cpuBefore = process.cpuUsage();
  const committedAt = performance.now();
  outbox.notify();
  await allReceived;
  const seconds = (performance.now() - committedAt) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  await built.platform.jobs.drain();
  const [sent] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, 'SENT'));
  console.log(
    `${kind} mail drain: ${MAILS} mails in ${seconds.toFixed(2)} s = ${(MAILS / seconds).toFixed(0)} mails/s (peer received ${received}, outbox SENT ${sent.n}); ` +
      `CPU of this process (service and SMTP peer) ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
  );
} finally {
  await server.close();
  await new Promise<void>((resolve) => peer.close(() => resolve()));
}
