// Member and role lists under load: 100 organizations, each with 50 members (the owner and 49 others, 5 of them
// invited) and 20 roles, inserted in bulk; then autocannon against a running app, one owner's lists: each scenario
// alone (1 connection) and under load (32 connections, ~10 s). Goal: p99 <= 20 ms at 32 connections on PostgreSQL.
// Run: npm run bench:org-lists   (DATABASE_URL=postgres://... uses a scratch database on that server)
// BENCH_SECONDS overrides the duration; BENCH_ONLY (a regular expression on the scenario names) picks scenarios;
// DATABASE_POOL_SIZE the service's pool (bench-server.ts).
import { sql } from 'drizzle-orm';
import { findDefaultPackage } from '../src/modules/billing/billing.repo.ts';
import { createAccount } from '../src/modules/users/accounts.ts';
import { startBenchServer } from './bench-server.ts';
import { backendPids, formatLoad, measureHttp } from './http-load.ts';

const ORGANIZATIONS = 100;
const MEMBERS = 50;
const ROLES = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null;
const server = await startBenchServer({ name: 'org-lists' });
const { built } = server;
const { db } = built.platform;
const kind = built.platform.database.kind;

try {
  const started = performance.now();
  const plan = await db.transaction((tx) => findDefaultPackage(tx));
  const owners: { userId: number; organizationId: number }[] = [];
  for (let o = 1; o <= ORGANIZATIONS; o++) {
    const { user, organizationId } = await db.transaction((tx) =>
      createAccount(tx, { name: 'Bench Owner', email: `owner${o}@bench.example.com`, passwordHash: 'x' }, plan!),
    );
    owners.push({ userId: user.id, organizationId });
  }
  await db.transaction(async (tx) => {
    await tx.execute(sql`insert into roles (organization_id, name, description, status, signature_settings, permissions)
      select o.id, 'Role ' || lpad(r::text, 2, '0'), 'Description of role ' || r, case when r % 5 = 0 then 'INACTIVE' else 'ACTIVE' end,
        '{"allowSignElectronic":true,"allowSignAdvanced":false,"allowSignQualified":false,"allowDocSend":true,"allowDocUseTemplates":true,"quotaElectronic":100,"quotaAdvanced":0,"quotaQualified":0}'::jsonb,
        '[{"moduleName":"USERS","accessRights":{"canView":true,"canAdd":false,"canEdit":false,"canDelete":false}}]'::jsonb
      from organizations o, generate_series(1, ${ROLES}) r`);
    await tx.execute(sql`insert into users (email, name, is_guest, organization_id)
      select 'member' || o.id || '-' || m || '@bench.example.com', 'Member ' || m, m > ${MEMBERS - 6}, o.id
      from organizations o, generate_series(1, ${MEMBERS - 1}) m`);
    await tx.execute(sql`insert into memberships (organization_id, user_id, role_id, status, name, invited_at, joined_at)
      select u.organization_id, u.id,
        (select r.id from roles r where r.organization_id = u.organization_id order by r.id offset (u.id % ${ROLES}) limit 1),
        case when u.is_guest then 'INVITED' else 'ACTIVE' end, u.name, now(), case when u.is_guest then null else now() end
      from users u where u.email like 'member%@bench.example.com'`);
  });
  await db.execute(sql`vacuum analyze`);
  console.log(
    `${kind}: ${ORGANIZATIONS} organizations x ${MEMBERS} members x ${ROLES} roles inserted in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const me = owners[Math.floor(ORGANIZATIONS / 2)];
  const token = await built.platform.tokens.sign(
    { sub: String(me.userId), type: 'USER', organizationId: me.organizationId },
    3600,
  );
  const address = await server.listen();
  const headers = { authorization: `Bearer ${token}` };
  const cpu = { databasePids: () => backendPids(built.platform.database) };
  // Lists are kept per process until the organization changes (src/platform/db/notified-cache.ts): the churn
  // scenarios write to the organization 10 times a second while loading, each write forgetting its pages.
  const scenarios = [
    ['members, first page', '/organization/v1/users?page=0&size=20'],
    ['members, first page, 10 writes/s', '/organization/v1/users?page=0&size=20'],
    ['members, all 50', '/organization/v1/users?page=0&size=50'],
    ['members, search', '/organization/v1/users?searchValue=member%204&size=20'],
    ['roles, first page', '/user/v1/roles?page=0&size=20'],
    ['roles, search + status', '/user/v1/roles?searchValue=role%201&status=ACTIVE&size=20'],
    ['roles, available', '/user/v1/roles/available'],
    ['roles, first page, 10 writes/s', '/user/v1/roles?page=0&size=20'],
  ] as const;
  // A member's signature count, as signing writes it (entitlements.repo.ts).
  const write = () =>
    db.execute(sql`update memberships set used_electronic = used_electronic + 1
    where id = (select min(id) from memberships where organization_id = ${me.organizationId} and not is_owner)`);
  for (const [label, url] of scenarios) {
    if (ONLY && !ONLY.test(label)) continue;
    const check = await built.app.inject({ method: 'GET', url, headers });
    if (check.statusCode !== 200) throw new Error(`${url} answered ${check.statusCode}: ${check.body}`);
    const body = check.json();
    const shape = Array.isArray(body)
      ? `${body.length} items`
      : `totalElements ${body.totalElements}, ${body.content.length} items`;
    // Load from a separate process (bench/http-load.ts), as a client sees the service.
    const churn = label.includes('writes/s') ? setInterval(() => void write(), 100) : null;
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
      `${kind} ${label.padEnd(33)} alone p50 ${String(alone.p50).padStart(3)} ms | ${CONNECTIONS} connections: ${formatLoad(result)}  (${shape})`,
    );
  }
  // Requests the load process abandoned at its deadline may still be running: let them finish before closing.
  await new Promise((resolve) => setTimeout(resolve, 500));
} finally {
  await server.close();
}
