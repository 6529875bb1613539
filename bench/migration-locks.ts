// How long an upgrade's migrations hold their tables, on PostgreSQL at size: loads the upgrade fixture (a database
// of the earliest release this one upgrades, test/upgrade/fixture/) into a scratch database, multiplies its
// envelopes to BENCH_WORKFLOWS (default 100,000) with bulk SQL (every envelope table: workflows, documents,
// recipients, fields, activities, mail_outbox; ids shifted, references with them), then
//   1. times each statement of every migration the fixture lacks, in a transaction rolled back, and
//   2. runs today's migrator (openDatabase, one transaction, as the service does at start) while a probe per table the
//      migrations touch writes to it every 20 ms, and reports the longest a write waited.
// Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/migration-locks.ts
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, migrationsFolder } from '../src/platform/db/client.ts';
import { fixtureSql } from '../test/upgrade/fixture.ts';

const WORKFLOWS = Number(process.env.BENCH_WORKFLOWS ?? 100_000);
const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ENVELOPE_TABLES = ['workflows', 'documents', 'recipients', 'fields', 'activities', 'mail_outbox'];

const name = `sig_bench_migrations_${Date.now()}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`create database "${name}"`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;
const client = new pg.Client({ connectionString: url.toString() });
await client.connect();
try {
  await client.query(fixtureSql());
  await client.query("select pg_catalog.set_config('search_path', 'public', false)");
  const seeded = await seed(client);
  console.log(`seeded in ${seeded.seconds.toFixed(1)} s:`, seeded.rows);

  const applied = Number((await client.query('select count(*) as n from drizzle.__drizzle_migrations')).rows[0].n);
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const pending = journal.entries.slice(applied);
  console.log(`\n1. each statement of the ${pending.length} migrations after the fixture's ${applied}, rolled back:`);
  await client.query('begin');
  for (const { tag } of pending) {
    const text = fs.readFileSync(path.join(migrationsFolder, `${tag}.sql`), 'utf8');
    for (const statement of text
      .split('--> statement-breakpoint')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const start = performance.now();
      await client.query(statement);
      const ms = performance.now() - start;
      console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${tag}: ${firstLine(statement)}`);
    }
  }
  await client.query('rollback');

  console.log('\n2. the migrator at start, with a write to each touched table every 20 ms:');
  const touched = ['business_apps', 'mail_outbox', 'signer_keys', 'organizations', 'users', 'workflows'];
  const probes = await Promise.all(touched.map((table) => probe(url.toString(), table)));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const start = performance.now();
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
  const total = performance.now() - start;
  await new Promise((resolve) => setTimeout(resolve, 300));
  const waits = await Promise.all(probes.map((stop) => stop()));
  await database.close();
  console.log(`  migrator (open, lock, ${pending.length} migrations, commit): ${total.toFixed(0)} ms`);
  for (const [i, table] of touched.entries())
    console.log(`  ${table.padEnd(14)} longest write ${waits[i].max.toFixed(1)} ms over ${waits[i].count} writes`);
} finally {
  await client.end();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
}

function firstLine(statement: string): string {
  const line = statement.split('\n').find((l) => !l.startsWith('--')) ?? statement;
  return line.length > 110 ? `${line.slice(0, 107)}...` : line;
}

/** Copies the fixture's envelopes until there are WORKFLOWS, shifting ids and the references between them. */
async function seed(db: pg.Client): Promise<{ seconds: number; rows: Record<string, number> }> {
  const start = performance.now();
  const base = Number((await db.query('select count(*) as n from workflows')).rows[0].n);
  const copies = Math.ceil(WORKFLOWS / base) - 1;
  let stride = 0;
  for (const table of ENVELOPE_TABLES)
    stride = Math.max(stride, Number((await db.query(`select coalesce(max(id), 0) as n from ${table}`)).rows[0].n));
  stride += 1;
  // Columns that hold an id of one of the envelope tables: the foreign keys, read from the catalogue.
  const references = await db.query(
    `select kcu.table_name, kcu.column_name from information_schema.referential_constraints rc
       join information_schema.key_column_usage kcu on kcu.constraint_name = rc.constraint_name
       join information_schema.constraint_column_usage ccu on ccu.constraint_name = rc.unique_constraint_name
      where ccu.table_name = any($1) and kcu.table_schema = 'public'`,
    [ENVELOPE_TABLES],
  );
  const shifted = new Set(references.rows.map((r) => `${r.table_name}.${r.column_name}`));
  const rows: Record<string, number> = {};
  for (const table of ENVELOPE_TABLES) {
    const columns = (
      await db.query(
        `select column_name from information_schema.columns
          where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER' order by ordinal_position`,
        [table],
      )
    ).rows.map((r) => r.column_name as string);
    const values = columns.map((c) =>
      c === 'id' || shifted.has(`${table}.${c}`) ? `"${c}" + g * ${stride}` : `"${c}"`,
    );
    // In slices, so one statement's transition tables (the list triggers) stay a few thousand rows.
    const slice = Math.max(1, Math.floor(5000 / base));
    for (let from = 1; from <= copies; from += slice) {
      const to = Math.min(copies, from + slice - 1);
      await db.query(
        `insert into ${table} (${columns.map((c) => `"${c}"`).join(', ')}) overriding system value
         select ${values.join(', ')} from ${table}, generate_series(${from}, ${to}) g where ${table}.id < ${stride}`,
      );
    }
    await db.query(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`);
    rows[table] = Number((await db.query(`select count(*) as n from ${table}`)).rows[0].n);
  }
  await db.query('analyze');
  return { seconds: (performance.now() - start) / 1000, rows };
}

/** Takes a writer's lock on `table` every 20 ms until stopped; answers the longest write and how many ran. */
async function probe(connectionString: string, table: string): Promise<() => Promise<{ max: number; count: number }>> {
  const connection = new pg.Client({ connectionString });
  await connection.connect();
  let running = true;
  let max = 0;
  let count = 0;
  const loop = (async () => {
    while (running) {
      const start = performance.now();
      // The lock a write takes (ROW EXCLUSIVE): it waits exactly as long as an insert or update would.
      await connection.query(`begin; lock table ${table} in row exclusive mode; commit`);
      max = Math.max(max, performance.now() - start);
      count += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return async () => {
    running = false;
    await loop;
    await connection.end();
    return { max, count };
  };
}
