// Document list under load: 100,000 workflows owned by one user (plus 2,000 where that user is a recipient),
// inserted in bulk, then autocannon against a running app: each scenario alone (1 connection) and under load
// (32 connections, ~10 s).
// Run: npm run bench:list   (DATABASE_URL=postgres://... npm run bench:list uses a scratch database on that server)
// BENCH_WORKFLOWS and BENCH_SECONDS override the sizes.
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { findDefaultPackage } from '../src/modules/billing/billing.repo.ts';
import { createAccount } from '../src/modules/users/accounts.ts';
import { startBenchServer } from './bench-server.ts';

const WORKFLOWS = Number(process.env.BENCH_WORKFLOWS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const server = await startBenchServer({ name: 'list' });
const { built } = server;
const { db } = built.platform;
const kind = built.platform.database.kind;

try {
  const plan = await db.transaction((tx) => findDefaultPackage(tx));
  const account = (email: string, name: string) => db.transaction((tx) => createAccount(tx, { name, email, passwordHash: 'x' }, plan!));
  const me = await account('bench-owner@example.com', 'Bench Owner');
  const other = await account('bench-other@example.com', 'Other Sender');
  // Verified addresses, as a real user's would be: an unverified account's list skips what others sent it.
  await db.execute(sql`update users set email_verified_at = now() where id in (${me.user.id}, ${other.user.id})`);
  const token = await built.platform.tokens.sign({ sub: String(me.user.id), type: 'USER', organizationId: me.organizationId }, 3600);

  const started = performance.now();
  await db.transaction(async (tx) => {
    // Statuses cycle DRAFT, SENT, COMPLETED, VOID; 1% deleted; the newest rows get the highest ids.
    await tx.execute(sql`insert into workflows (owner_user_id, organization_id, name, sequence, sign_type, status, sent_at, deleted_at, created_at)
      select ${me.user.id}, ${me.organizationId}, 'Agreement ' || g, 'UNORDERED', 'COUNTERSIGN',
        (array['DRAFT','SENT','COMPLETED','VOID'])[1 + g % 4],
        case when g % 4 <> 0 then now() - (${WORKFLOWS} - g) * interval '1 minute' end,
        case when g % 100 = 0 then now() end,
        now() - (${WORKFLOWS} - g) * interval '1 minute'
      from generate_series(1, ${WORKFLOWS}) g`);
    await tx.execute(sql`insert into workflows (owner_user_id, organization_id, name, sequence, sign_type, status, sent_at)
      select ${other.user.id}, ${other.organizationId}, 'Incoming ' || g, 'UNORDERED', 'COUNTERSIGN', 'SENT', now()
      from generate_series(1, 2000) g`);
    await tx.execute(sql`insert into documents (workflow_id, name, blob_key, size, pages, page_sizes)
      select id, name || '.pdf', 'bench', 1024, 1, '[]'::jsonb from workflows`);
    // Two recipients per own workflow (the other user), the bench user on every incoming one.
    await tx.execute(sql`insert into recipients (workflow_id, user_id, name, email, role, color, use_digital_cert, status)
      select w.id, ${other.user.id}, 'Other Sender', 'bench-other@example.com', 'SIGNER', '#FF0000', w.id % 10 = 0, 'SENT'
      from workflows w, generate_series(1, 2) r where w.owner_user_id = ${me.user.id}`);
    await tx.execute(sql`insert into recipients (workflow_id, user_id, name, email, role, color, status)
      select w.id, ${me.user.id}, 'Bench Owner', 'bench-owner@example.com', 'SIGNER', '#00FF00', case when w.id % 2 = 0 then 'SENT' else 'SIGNED' end
      from workflows w where w.owner_user_id = ${other.user.id}`);
  });
  await db.execute(sql`vacuum analyze`);
  console.log(`${kind}: inserted ${WORKFLOWS} + 2000 workflows, documents and recipients in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const address = await server.listen();
  const headers = { authorization: `Bearer ${token}` };
  const scenarios = [
    ['list, first page', '/document/v1?page=0&size=20'],
    ['list, status + search', '/document/v1?status=Completed&searchValue=agreement%201&page=0&size=20'],
    ['list, Pending (own row)', '/document/v1?status=Pending&page=0&size=20'],
    ['list, page 200', '/document/v1?page=200&size=20'],
    ['status counts', '/document/v1/count/documents-status'],
  ] as const;
  for (const [label, url] of scenarios) {
    const check = await built.app.inject({ method: 'GET', url, headers });
    if (check.statusCode !== 200) throw new Error(`${url} answered ${check.statusCode}: ${check.body}`);
    const body = check.json();
    const shape = 'totalElements' in body ? `totalElements ${body.totalElements}, ${body.content.length} items` : JSON.stringify(body);
    // One connection first: the latency of a request on its own, without queueing behind 31 others.
    const alone = await autocannon({ url: `${address}${url}`, connections: 1, duration: Math.max(2, SECONDS / 4), headers });
    const result = await autocannon({ url: `${address}${url}`, connections: 32, duration: SECONDS, headers });
    console.log(`${kind} ${label.padEnd(24)} alone p50 ${String(alone.latency.p50).padStart(3)} ms | 32 connections: p50 ${String(result.latency.p50).padStart(4)} ms  `
      + `p99 ${String(result.latency.p99).padStart(4)} ms  ${result.requests.average.toFixed(0).padStart(4)} req/s  non-2xx ${result.non2xx}  errors ${result.errors}  (${shape})`);
  }
} finally {
  await server.close();
}
