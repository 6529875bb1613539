// Templates under load: 100 templates of one organization and 100,000 workflows made from them (one template, the
// "heavy" one, holds 20% of them; the others ~800 each), each with a recipient row and a signing session of field
// events (5 rows), inserted in bulk; then autocannon against a running app, each scenario alone (1 connection) and
// under load (32 connections).
// Run: node bench/templates.ts (Node 24: node_modules/.bin/node; DATABASE_URL=postgres://... uses a scratch database on that server)
// BENCH_WORKFLOWS and BENCH_SECONDS override the sizes; BENCH_ONLY (a regular expression on the scenario names) picks scenarios.
import { sql } from 'drizzle-orm';
import { findDefaultPackage } from '../src/modules/billing/billing.repo.ts';
import { createAccount } from '../src/modules/users/accounts.ts';
import { startBenchServer } from './bench-server.ts';
import { backendPids, formatLoad, measureHttp } from './http-load.ts';

const WORKFLOWS = Number(process.env.BENCH_WORKFLOWS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null;
const TEMPLATES = 100;
const server = await startBenchServer({ name: 'templates' });
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
  const owner = me.user.id;
  const org = me.organizationId;

  const started = performance.now();
  await db.transaction(async (tx) => {
    // One hidden snapshot workflow per template: a document, a recipient slot and three fields.
    await tx.execute(sql`insert into workflows (owner_user_id, organization_id, name, sequence, sign_type, deleted_at)
      select ${owner}, ${org}, 'Snapshot ' || g, 'UNORDERED', 'COUNTERSIGN', now() from generate_series(1, ${TEMPLATES}) g`);
    await tx.execute(sql`insert into documents (workflow_id, name, blob_key, size, pages, page_sizes)
      select id, 'Contract.pdf', 'bench', 1024, 1, '[]'::jsonb from workflows where deleted_at is not null`);
    await tx.execute(sql`insert into recipients (workflow_id, user_id, name, email, role, color)
      select id, ${owner}, 'Bench Owner', 'bench-owner@example.com', 'SIGNER', '#FF0000' from workflows where deleted_at is not null`);
    await tx.execute(sql`insert into fields (workflow_id, document_id, recipient_id, page_no, box, field_type, label)
      select w.id, d.id, r.id, 1, '{"x":10,"y":10,"width":100,"height":20}'::jsonb, t, t
      from workflows w join documents d on d.workflow_id = w.id join recipients r on r.workflow_id = w.id,
        unnest(array['SIGNATURE','TEXT','DATE']) t where w.deleted_at is not null`);
    await tx.execute(sql`insert into templates (organization_id, owner_user_id, name, workflow_id, source_workflow_id, snapshot_at)
      select ${org}, ${owner}, 'Template ' || w.id, w.id, w.id, now() - interval '400 days' from workflows w where w.deleted_at is not null order by w.id`);
    // The workflows made from them: template 1 ("heavy") 20%, the rest round-robin; statuses cycle.
    await tx.execute(sql`insert into workflows (owner_user_id, organization_id, name, sequence, sign_type, status, template_id, sent_at, completed_at, created_at)
      select ${owner}, ${org}, 'Made ' || g, 'UNORDERED', 'COUNTERSIGN', (array['DRAFT','SENT','COMPLETED','VOID','COMPLETED'])[1 + g % 5],
        (select min(id) from templates) + case when g % 5 = 0 then 0 else 1 + g % ${TEMPLATES - 1} end,
        case when g % 5 <> 1 then now() - (g % 1000) * interval '1 hour' end,
        case when g % 5 in (2, 4) then now() - (g % 1000) * interval '1 hour' + (g % 400) * interval '1 hour' end,
        now() - (g % 1000) * interval '1 hour'
      from generate_series(0, ${WORKFLOWS - 1}) g`);
    await tx.execute(sql`insert into recipients (workflow_id, user_id, name, email, role, color, status)
      select id, ${owner}, 'Bench Owner', 'bench-owner@example.com', 'SIGNER', '#FF0000', 'SENT' from workflows where template_id is not null`);
    // One session per sent workflow: SESSION_START, then per template field VIEWED (and FILLED for the first two).
    await tx.execute(sql`insert into field_events (session_id, workflow_id, recipient_id, template_id, placeholder_key, type, at)
      select 's' || w.id, w.id, r.id, w.template_id, null, 'SESSION_START', w.sent_at
      from workflows w join recipients r on r.workflow_id = w.id where w.template_id is not null and w.sent_at is not null`);
    // field_id names the snapshot's field (the made workflows carry no field rows here): only the dedupe key reads it.
    await tx.execute(sql`insert into field_events (session_id, workflow_id, recipient_id, field_id, template_id, placeholder_key, type, at)
      select 's' || w.id, w.id, r.id, f.id, w.template_id, 'field-' || f.id, e.type, w.sent_at + interval '1 minute'
      from workflows w join recipients r on r.workflow_id = w.id join templates t on t.id = w.template_id join fields f on f.workflow_id = t.workflow_id,
        (values ('FIELD_VIEWED'), ('FIELD_FILLED')) e(type)
      where w.template_id is not null and w.sent_at is not null and (e.type = 'FIELD_VIEWED' or f.field_type <> 'DATE')`);
  });
  await db.execute(sql`vacuum analyze`);
  const [{ n }] = (await db.execute<{ n: number }>(sql`select count(*)::int as n from field_events`)).rows;
  console.log(
    `${kind}: inserted ${TEMPLATES} templates, ${WORKFLOWS} workflows made from them and ${n} field events in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const ids = (await db.execute<{ id: number }>(sql`select id from templates order by id`)).rows.map((r) => r.id);
  const heavy = ids[0];
  const typical = ids[1];
  const address = await server.listen();
  const headers = { authorization: `Bearer ${token}` };
  const cpu = { databasePids: () => backendPids(built.platform.database) };
  const scenarios = [
    ['list, first page', '/organization/v1/templates?page=0&size=20'],
    ['all (id, name)', '/organization/v1/templates/all'],
    ['completion', `/organization/v1/templates/${typical}/analytics`],
    ['analytics/full', `/organization/v1/templates/${typical}/analytics/full`],
    ['time to sign', `/organization/v1/templates/${typical}/time-to-sign`],
    ['field drop-off', `/workflow/v1/templates/${typical}/field-drop-off`],
    ['completion, heavy (20k)', `/organization/v1/templates/${heavy}/analytics`],
    ['analytics/full, heavy', `/organization/v1/templates/${heavy}/analytics/full`],
    ['field drop-off, heavy', `/workflow/v1/templates/${heavy}/field-drop-off`],
    // Answers are kept per process until the template changes (src/platform/db/notified-cache.ts): here one of its
    // workflows changes status 10 times a second during the load, each change forgetting the template's answers.
    ['analytics/full, 10 writes/s', `/organization/v1/templates/${typical}/analytics/full`],
    ['list, first page, 10 writes/s', '/organization/v1/templates?page=0&size=20'],
  ] as const;
  const changing = (
    await db.execute<{ id: number }>(sql`select id from workflows where template_id = ${typical} order by id limit 1`)
  ).rows[0].id;
  let flips = 0;
  const write = (label: string) =>
    label.startsWith('list')
      ? db.execute(sql`update templates set description = ${`changed ${++flips}`} where id = ${typical}`)
      : db.execute(sql`update workflows set status = ${++flips % 2 ? 'COMPLETED' : 'SENT'} where id = ${changing}`);
  for (const [label, url] of scenarios) {
    if (ONLY && !ONLY.test(label)) continue;
    const check = await built.app.inject({ method: 'GET', url, headers });
    if (check.statusCode !== 200) throw new Error(`${url} answered ${check.statusCode}: ${check.body}`);
    const body = check.json();
    const shape = Array.isArray(body)
      ? `${body.length} items`
      : 'totalElements' in body
        ? `totalElements ${body.totalElements}`
        : 'counts' in body
          ? `total ${body.counts.total}`
          : 'sampleSize' in body
            ? `sample ${body.sampleSize}`
            : `sessions ${body.totalSessions}`;
    // Load from a separate process (bench/http-load.ts), as a client sees the service.
    const churn = label.includes('writes/s') ? setInterval(() => void write(label), 100) : null;
    const alone = await measureHttp(
      { url: address, paths: [url], connections: 1, seconds: Math.max(2, SECONDS / 4), headers },
      cpu,
    );
    const result = await measureHttp(
      { url: address, paths: [url], connections: CONNECTIONS, seconds: SECONDS, headers },
      cpu,
    );
    if (churn) clearInterval(churn);
    console.log(
      `${kind} ${label.padEnd(30)} alone p50 ${String(alone.p50).padStart(3)} ms | ${CONNECTIONS} connections: ${formatLoad(result)}  (${shape})`,
    );
  }
  // Requests the load process abandoned at its deadline may still be running: let them finish before closing.
  await new Promise((resolve) => setTimeout(resolve, 500));
} finally {
  await server.close();
}
