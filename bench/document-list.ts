// Document list and status counts under load (issue 15, item 1): every filter, folders, searches (cached and a new
// term each request), a deep page and the status counts, each alone (1 connection) and under load from a separate
// process (32 connections on PostgreSQL, 4 on the embedded database), in two layouts:
//   one     BENCH_WORKFLOWS workflows of one owner (the worst case), plus 2,000 others' workflows where the owner is
//           a recipient (Pending, Viewed, Signed), a seventh of them in a folder, 1% deleted;
//   spread  the same number of workflows over 1,000 owners, each workflow with two recipients among the others.
// Goals: p99 <= 20 ms at 32 connections on PostgreSQL over 100,000; <= 50 ms at 4 connections embedded over 10,000.
// The scenarios marked "10 writes/s" change the owner's list ten times a second during the load.
// Run: npm run bench:list   (DATABASE_URL=postgres://... uses a scratch database on that server)
// BENCH_WORKFLOWS (default 100,000 on PostgreSQL, 10,000 embedded), BENCH_SECONDS (10), BENCH_CONNECTIONS,
// BENCH_LAYOUT (one, spread, or both: the default on PostgreSQL; embedded: one), BENCH_ONLY (a regular expression on
// the scenario names), BENCH_EXPLAIN=1 (print each scenario's query plans instead of loading it).
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../src/platform/db/client.ts';
import {
  countByStatus,
  countList,
  findListItems,
  findListPage,
  isSnapshotCurrent,
  searchList,
  SEARCH_WALK_LIMIT,
  type ListCriteria,
} from '../src/modules/documents/document-list.repo.ts';
import { LIST_FILTERS } from '../src/modules/documents/document-list.service.ts';
import { createSearchProbes } from '../src/modules/documents/search-probe.ts';
import { findDefaultPackage } from '../src/modules/billing/billing.repo.ts';
import { createAccount } from '../src/modules/users/accounts.ts';
import { startBenchServer } from './bench-server.ts';
import { backendPids, formatLoad, measureHttp } from './http-load.ts';

const postgres = Boolean(process.env.DATABASE_URL);
const WORKFLOWS = Number(process.env.BENCH_WORKFLOWS ?? (postgres ? 100_000 : 10_000));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? (postgres ? 32 : 4));
const LAYOUTS = (process.env.BENCH_LAYOUT ?? (postgres ? 'one,spread' : 'one')).split(',').map((s) => s.trim()) as (
  | 'one'
  | 'spread'
)[];
const EXPLAIN = process.env.BENCH_EXPLAIN === '1';
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null;
const OWNERS = 1000;
const INCOMING = 2000;

for (const layout of LAYOUTS) await runLayout(layout);

async function runLayout(layout: 'one' | 'spread') {
  const server = await startBenchServer({ name: 'list' });
  const { built } = server;
  const { db } = built.platform;
  const kind = built.platform.database.kind;
  try {
    const plan = await db.transaction((tx) => findDefaultPackage(tx));
    const me = await db.transaction((tx) =>
      createAccount(tx, { name: 'Bench Owner', email: 'bench-owner@example.com', passwordHash: 'x' }, plan!),
    );
    const token = await built.platform.tokens.sign(
      { sub: String(me.user.id), type: 'USER', organizationId: me.organizationId },
      3600,
    );
    const started = performance.now();
    const folderId = await db.transaction(async (tx) => {
      // Everyone else: plain rows (only the bench owner signs in), verified addresses as a real user's would be
      // (an unverified account's list skips what others sent it).
      await tx.execute(sql`update users set email_verified_at = now() where id = ${me.user.id}`);
      await tx.execute(
        sql`insert into users (email, name, email_verified_at) select 'user' || g || '@bench.example.com', 'User ' || g, now() from generate_series(1, ${OWNERS}) g`,
      );
      await tx.execute(sql`insert into organizations (name, owner_user_id, package_id, package_expires_at)
        select u.name, u.id, ${plan!.id}, now() + interval '1 year' from users u where u.organization_id is null`);
      await tx.execute(
        sql`update users u set organization_id = o.id from organizations o where o.owner_user_id = u.id and u.organization_id is null`,
      );
      const [folder] = (
        await tx.execute<{ id: number }>(
          sql`insert into folders (user_id, name) values (${me.user.id}, 'Bench folder') returning id`,
        )
      ).rows;
      if (layout === 'one') await seedOneOwner(tx, me.user.id, me.organizationId, folder.id);
      else await seedSpread(tx, me.user.id, folder.id);
      return folder.id;
    });
    await db.execute(sql`vacuum analyze`);
    const [{ entries }] = (
      await db.execute<{ entries: number }>(sql`select count(*)::int as entries from workflow_list_entries`)
    ).rows;
    console.log(
      `${kind}, layout ${layout}: ${WORKFLOWS} workflows${layout === 'one' ? ` of one owner + ${INCOMING} incoming` : ` over ${OWNERS} owners`}, ` +
        `documents, recipients and ${entries} list entries in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const address = await server.listen();
    const headers = { authorization: `Bearer ${token}` };
    const cpu = { databasePids: () => backendPids(built.platform.database) };
    const scenarios: Scenario[] = [
      { label: 'All, first page', query: {} },
      ...['Draft', 'Sent', 'Completed', 'Voided', 'Approved', 'Pending', 'Signed', 'Viewed'].map((status) => ({
        label: status,
        query: { status },
      })),
      { label: 'folder', query: { folderID: folderId } },
      { label: 'folder + Sent', query: { folderID: folderId, status: 'Sent' } },
      { label: 'folder + Pending', query: { folderID: folderId, status: 'Pending' } },
      { label: 'search, common term', query: { searchValue: 'agreement 1' } },
      { label: 'search, rare term', query: { searchValue: 'lease' } },
      { label: 'search, no match', query: { searchValue: 'zebra' } },
      { label: 'search + Completed', query: { status: 'Completed', searchValue: 'agreement 1' } },
      // A new term each request: never a cached search (more terms than a run makes requests).
      { label: 'search, new term each time', query: { searchValue: 'agreement 54321' }, fresh: true },
      { label: 'page 200', query: { page: 200 } },
      { label: 'status counts', query: null },
      // Pages and counts are kept per process per user until the database announces a change to the user's list
      // (migration 0026): with the owner's workflows changing 10 times a second, each change empties the owner's
      // answers and the next requests read again.
      { label: 'All, first page, 10 writes/s', query: {}, writes: true },
      { label: 'Sent, 10 writes/s', query: { status: 'Sent' }, writes: true },
      { label: 'status counts, 10 writes/s', query: null, writes: true },
    ];
    // A write the owner's list shows: one of the 20 newest workflows renamed, or one of their recipients viewing.
    let written = 0;
    const write = async () => {
      written++;
      const [{ id }] = (
        await db.execute<{ id: number }>(
          sql`select max(workflow_id) - ${written % 20} as id from workflow_list_entries where user_id = ${me.user.id}`,
        )
      ).rows;
      if (written % 2 === 0)
        await db.execute(sql`update workflows set name = ${`Agreement renamed ${written}`} where id = ${id}`);
      else
        await db.execute(
          sql`update recipients set status = case when status = 'SENT' then 'VIEWED' else 'SENT' end where workflow_id = ${id} and user_id <> ${me.user.id}`,
        );
    };
    for (const scenario of scenarios) {
      if (ONLY && !ONLY.test(scenario.label)) continue;
      const paths = scenario.fresh
        ? Array.from({ length: 200_000 }, (_, i) => listUrl({ searchValue: `agreement ${(i * 7919) % 100_000}` }))
        : [scenario.query ? listUrl(scenario.query) : '/document/v1/count/documents-status'];
      const check = await built.app.inject({ method: 'GET', url: paths[0], headers });
      if (check.statusCode !== 200) throw new Error(`${paths[0]} answered ${check.statusCode}: ${check.body}`);
      const body = check.json();
      const shape =
        'totalElements' in body ? `total ${body.totalElements}, ${body.content.length} items` : JSON.stringify(body);
      if (EXPLAIN) {
        console.log(`\n=== ${kind} ${layout} ${scenario.label}\n${await explain(db, me.user.id, scenario.query)}`);
        continue;
      }
      // One connection first: the latency of a request on its own, without queueing behind the others.
      // A new term each request: the load takes terms the run alone did not (each run starts at its list's first path).
      const alone = await measureHttp(
        {
          url: address,
          paths: scenario.fresh ? paths.slice(0, paths.length / 2) : paths,
          connections: 1,
          seconds: Math.max(2, SECONDS / 4),
          headers,
        },
        cpu,
      );
      const churn = scenario.writes ? setInterval(() => void write(), 100) : null;
      const loaded = await measureHttp(
        {
          url: address,
          paths: scenario.fresh ? paths.slice(paths.length / 2) : paths,
          connections: CONNECTIONS,
          seconds: SECONDS,
          headers,
        },
        cpu,
      );
      if (churn) clearInterval(churn);
      console.log(
        `${kind} ${layout.padEnd(6)} ${scenario.label.padEnd(28)} alone p50 ${String(alone.p50).padStart(3)} ms | ${CONNECTIONS} connections: ${formatLoad(loaded)}  (${shape})`,
      );
    }
    // Requests the load process abandoned at its deadline may still be running: let them finish before closing.
    await new Promise((resolve) => setTimeout(resolve, 500));
  } finally {
    await server.close();
  }
}

type ListQuery = { status?: string; folderID?: number; searchValue?: string; page?: number };
type Scenario = { label: string; query: ListQuery | null; fresh?: boolean; writes?: boolean };

function listUrl(query: ListQuery): string {
  const params = new URLSearchParams({ size: '20' });
  for (const [name, value] of Object.entries(query)) params.set(name, String(value));
  return `/document/v1?${params}`;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statements a scenario runs (each once before, so caches are warm): the repo's own
 * queries, sent through a database wrapper that explains instead of answering.
 */
async function explain(db: Db, userId: number, query: ListQuery | null): Promise<string> {
  const plans: string[] = [];
  const answer = { rows: [{ ids: [], total: 0, snapshot: '1:1:', verified: true, current: true, items: [] }] };
  const explainText = async (text: string, params: unknown[]) => {
    const pool = (
      db as unknown as {
        $client: { query(text: string, values: unknown[]): Promise<{ rows: Record<string, string>[] }> };
      }
    ).$client;
    await pool.query(text, params);
    const result = await pool.query(`explain (analyze, buffers) ${text}`, params);
    plans.push(result.rows.map((row) => Object.values(row)[0]).join('\n'));
    return answer;
  };
  const dialect = (db as unknown as { dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } } })
    .dialect;
  // The repo's statements go through db.execute or executePrepared (session.prepareQuery): both are explained.
  const explaining = {
    dialect,
    session: {
      prepareQuery: (built: { sql: string; params: unknown[] }) => ({
        execute: () => explainText(built.sql, built.params),
      }),
    },
    execute: async (statement: SQL) => {
      const built = dialect.sqlToQuery(statement);
      return explainText(built.sql, built.params);
    },
  } as unknown as Db;
  if (!query) {
    await countByStatus(explaining, userId);
    return plans.join('\n');
  }
  const criteria: ListCriteria = {
    userId,
    filter: LIST_FILTERS[(query.status ?? 'ALL').toUpperCase()],
    folderId: query.folderID,
    search: query.searchValue,
  };
  if (criteria.search) {
    // The part of the term the service would ask the index for (search-probe.ts), from the same stats.
    const probes = createSearchProbes(db);
    await probes.refresh();
    const estimate = probes.estimate(criteria.search);
    criteria.searchProbe = estimate?.probe;
    criteria.indexCost = estimate?.cost;
  }
  const offset = (query.page ?? 0) * 20;
  if (criteria.search) {
    const found = await searchList(db, criteria, 20, offset);
    // Walk or index, as the real caller's list decides (the explaining wrapper answers every count with 0).
    const walkLimit = (await countList(db, { ...criteria, search: undefined })) <= SEARCH_WALK_LIMIT ? Infinity : -1;
    const how =
      walkLimit > 0
        ? 'walking the entries'
        : `through the trigram index, asking it for ${JSON.stringify(criteria.searchProbe ?? criteria.search)}`;
    plans.push(`-- a search, first time (${how}): page ids and total in one statement`);
    await searchList(explaining, criteria, 20, offset, walkLimit);
    plans.push('-- the same search again: is the cached answer current?');
    await isSnapshotCurrent(explaining, userId, found.snapshot);
    plans.push("-- then the page's items");
    await findListItems(explaining, userId, found.ids);
  } else {
    await findListPage(explaining, criteria, 20, offset);
    await countList(explaining, criteria);
  }
  return plans.join('\n');
}

/**
 * The worst case: every workflow one owner's. Statuses cycle DRAFT, SENT, COMPLETED, VOID, APPROVED; 1% deleted; every
 * seventh filed in the folder; every 500th named "Lease …" (a rare search term); the newest rows get the highest ids.
 * Two recipients on each (another user); the owner also signs every 50th of their own SENT ones (Pending on their
 * own). Then INCOMING workflows of another user where the owner is a recipient: SENT, VIEWED or SIGNED.
 */
async function seedOneOwner(tx: Tx, me: number, organizationId: number, folderId: number) {
  const [{ id: other }] = (
    await tx.execute<{ id: number }>(sql`select id from users where email = 'user1@bench.example.com'`)
  ).rows;
  await tx.execute(sql`insert into workflows (owner_user_id, organization_id, name, sequence, sign_type, status, folder_id, sent_at, deleted_at, created_at)
    select ${me}, ${organizationId}, case when g % 500 = 0 then 'Lease ' else 'Agreement ' end || g, 'UNORDERED', 'COUNTERSIGN',
      (array['DRAFT','SENT','COMPLETED','VOID','APPROVED'])[1 + g % 5], case when g % 7 = 0 then ${folderId}::int end,
      case when g % 5 <> 0 then now() - (${WORKFLOWS} - g) * interval '1 minute' end,
      case when g % 100 = 1 then now() end,
      now() - (${WORKFLOWS} - g) * interval '1 minute'
    from generate_series(1, ${WORKFLOWS}) g`);
  await tx.execute(sql`insert into workflows (owner_user_id, organization_id, name, sequence, sign_type, status, sent_at)
    select ${other}, (select organization_id from users where id = ${other}), 'Incoming ' || g, 'UNORDERED', 'COUNTERSIGN', 'SENT', now()
    from generate_series(1, ${INCOMING}) g`);
  await tx.execute(sql`insert into documents (workflow_id, name, blob_key, size, pages, page_sizes)
    select id, name || '.pdf', 'bench', 1024, 1, '[]'::jsonb from workflows`);
  await tx.execute(sql`insert into recipients (workflow_id, user_id, name, email, role, color, use_digital_cert, status)
    select w.id, ${other}, 'User 1', 'user1@bench.example.com', 'SIGNER', '#FF0000', w.id % 10 = 0, case when w.status = 'DRAFT' then 'PENDING' else 'SENT' end
    from workflows w, generate_series(1, 2) r where w.owner_user_id = ${me}`);
  await tx.execute(sql`insert into recipients (workflow_id, user_id, name, email, role, color, status)
    select w.id, ${me}, 'Bench Owner', 'bench-owner@example.com', 'SIGNER', '#00FF00', 'SENT'
    from workflows w where w.owner_user_id = ${me} and w.status = 'SENT' and w.id % 50 = 1`);
  await tx.execute(sql`insert into recipients (workflow_id, user_id, name, email, role, color, status)
    select w.id, ${me}, 'Bench Owner', 'bench-owner@example.com', 'SIGNER', '#00FF00', (array['SENT','VIEWED','SIGNED','SENT'])[1 + w.id % 4]
    from workflows w where w.owner_user_id = ${other}`);
}

/** The same number of workflows over OWNERS owners (the bench owner one of them), two recipients each among the others. */
async function seedSpread(tx: Tx, me: number, folderId: number) {
  await tx.execute(sql`insert into workflows (owner_user_id, organization_id, name, sequence, sign_type, status, folder_id, sent_at, deleted_at, created_at)
    select o.id, o.organization_id, case when g % 500 = 0 then 'Lease ' else 'Agreement ' end || g, 'UNORDERED', 'COUNTERSIGN',
      (array['DRAFT','SENT','COMPLETED','VOID','APPROVED'])[1 + (g / ${OWNERS}) % 5], case when o.id = ${me} and g % 7 = 0 then ${folderId}::int end,
      case when (g / ${OWNERS}) % 5 <> 0 then now() - (${WORKFLOWS} - g) * interval '1 minute' end,
      case when g % 100 = 1 then now() end,
      now() - (${WORKFLOWS} - g) * interval '1 minute'
    from generate_series(0, ${WORKFLOWS - 1}) g
    join (select id, organization_id, row_number() over (order by id) - 1 as k from users where id = ${me} or email like 'user%@bench.example.com' order by id limit ${OWNERS}) o
      on o.k = g % ${OWNERS}`);
  await tx.execute(sql`insert into documents (workflow_id, name, blob_key, size, pages, page_sizes)
    select id, name || '.pdf', 'bench', 1024, 1, '[]'::jsonb from workflows`);
  // Recipients: two other owners per workflow, their rows' statuses following the workflow's.
  await tx.execute(sql`with people as (select id, email, name, row_number() over (order by id) - 1 as k from users where id = ${me} or email like 'user%@bench.example.com')
    insert into recipients (workflow_id, user_id, name, email, role, color, status)
    select w.id, p.id, p.name, p.email, 'SIGNER', '#FF0000',
      case when w.status = 'DRAFT' then 'PENDING' when w.status = 'SENT' then (array['SENT','VIEWED','SIGNED'])[1 + (w.id + r) % 3] else 'SIGNED' end
    from workflows w join people o on o.id = w.owner_user_id cross join generate_series(1, 2) r
    join people p on p.k = (o.k + r * 7) % ${OWNERS}`);
}
