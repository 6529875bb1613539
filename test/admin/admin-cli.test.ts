import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { unzipSync } from 'fflate';
import { packages, users } from '../../src/platform/db/schema/index.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, type TestUser } from '../helpers/factories.ts';
import { freePort } from '../helpers/free-port.ts';
import { setWorkflow } from '../helpers/envelope-states.ts';
import { waitForSeal } from '../helpers/ceremony.ts';
import { organizationRow } from '../billing/organization-callers.ts';

/**
 * `npm run admin -- <command>` (scripts/admin.ts) run as a child process against a real listening service: it
 * reads ADMIN_TOKEN and PUBLIC_URL (or --url), prints tables or --json, and exits non-zero with the error body's
 * description when the service refuses.
 */
const ADMIN_TOKEN = crypto.randomBytes(24).toString('hex');
const SCRIPT = path.join(import.meta.dirname, '..', '..', 'scripts', 'admin.ts');
let t: TestApp;
let baseUrl: string;
let owner: TestUser;

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({ adminToken: ADMIN_TOKEN, publicUrl: baseUrl });
  await t.app.listen({ port, host: '127.0.0.1' });
  owner = await createUser(t, {
    name: 'Cleo Client',
    email: `cleo-${crypto.randomBytes(3).toString('hex')}@cli.example`,
  });
}, 120_000);
afterAll(async () => t?.close());

type Run = { code: number; stdout: string; stderr: string };

function admin(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  const base: Record<string, string | undefined> = {
    ...process.env,
    ADMIN_TOKEN,
    PUBLIC_URL: baseUrl,
    PORT: undefined,
    ...env,
  };
  const childEnv = Object.fromEntries(
    Object.entries(base).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { env: childEnv, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

async function presetId(name: string): Promise<number> {
  const [row] = await t.platform.db.select().from(packages).where(eq(packages.name, name));
  return row.id;
}

describe('npm run admin', { timeout: 120_000 }, () => {
  it('help lists the commands; bad usage exits 2 without calling the service', async () => {
    const help = await admin(['help']);
    expect(help.code).toBe(0);
    for (const command of [
      'grant <orgId> <pkgId>',
      'renew <orgId>',
      'orgs [search]',
      'users [search]',
      'awaiting-seal',
      'reseal <workflowId>',
      'disable-user <userId>',
      'enable-user <userId>',
      'disable-org <orgId>',
      'enable-org <orgId>',
      'queues',
      'export <orgId>',
    ])
      expect(help.stdout).toContain(command);
    for (const args of [['grant', '1'], ['grant', 'one', '2'], ['renew', '0'], ['frobnicate'], ['orgs', '--bogus']]) {
      const run = await admin(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^admin: /);
    }
    const noToken = await admin(['orgs'], { ADMIN_TOKEN: undefined });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('ADMIN_TOKEN is not set');
  });

  it('grant and renew a package: a readable answer, or --json; the organization is on it', async () => {
    const enterprise = await presetId('Enterprise');
    const grant = await admin(['grant', String(owner.organizationId), String(enterprise)]);
    expect(grant.code, grant.stderr).toBe(0);
    expect(grant.stdout).toContain(`Organization ${owner.organizationId} is on Enterprise (package ${enterprise}).`);
    expect(grant.stdout).toContain('Credits: 10000');
    expect(await organizationRow(t, owner.organizationId)).toMatchObject({ packageId: enterprise, credits: 10000 });
    const renew = await admin(['renew', String(owner.organizationId), '--json']);
    expect(renew.code, renew.stderr).toBe(0);
    expect(JSON.parse(renew.stdout)).toMatchObject({
      orgId: owner.organizationId,
      package: { name: 'Enterprise' },
      credits: 10000,
    });
  });

  it('orgs, org, users and packages print tables (or JSON), found by search', async () => {
    const orgs = await admin(['orgs', owner.email]);
    expect(orgs.code, orgs.stderr).toBe(0);
    const [header, rule, row, , footer] = orgs.stdout.trimEnd().split('\n');
    expect(header.split(/\s{2,}/)).toEqual(['id', 'name', 'owner', 'package', 'credits', 'expires', 'plan', 'members']);
    expect(rule).toMatch(/^-+( +-+)+$/);
    expect(row.split(/\s{2,}/).slice(0, 3)).toEqual([
      String(owner.organizationId),
      "Cleo Client's organization",
      owner.email,
    ]);
    expect(footer).toBe('1 shown of 1.');
    const json = JSON.parse((await admin(['orgs', owner.email, '--json'])).stdout);
    expect(json).toMatchObject({ totalElements: 1, content: [{ id: owner.organizationId }] });
    expect((await admin(['orgs', 'no such organization anywhere'])).stdout).toContain('Nothing found (0 in all).');
    expect((await admin(['org', String(owner.organizationId)])).stdout).toMatch(
      new RegExp(`owner\\.email\\s+${owner.email.replace(/\./g, '\\.')}`),
    );

    const users = await admin(['users', owner.email, '--page', '0', '--size', '5']);
    expect(users.code, users.stderr).toBe(0);
    expect(users.stdout).toContain(`${owner.organizationId} Cleo Client's organization (owner)`);
    const pkgs = await admin(['packages']);
    expect(pkgs.stdout).toMatch(/Enterprise\s+yes\s+ACTIVE\s+10000\s+\$0\.3\s+365/);
  });

  it('awaiting-seal and reseal', async () => {
    const { workflow } = await createDraftWorkflow(t, owner, { name: 'CLI orphan' });
    await setWorkflow(t, workflow.id, { status: 'COMPLETED', completedAt: new Date(), sealStatus: 'PENDING' });
    const list = await admin(['awaiting-seal', '--status', 'PENDING']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(
      new RegExp(`^${workflow.id}\\s+${owner.organizationId}\\s+\\S+\\s+PENDING\\s+0\\s+none`, 'm'),
    );
    const reseal = await admin(['reseal', String(workflow.id)]);
    expect(reseal.code, reseal.stderr).toBe(0);
    expect(reseal.stdout.trim()).toBe(`Workflow ${workflow.id}: seal job queued (seal PENDING).`);
    expect((await waitForSeal(t, workflow.id)).sealStatus).toBe('SEALED');
    const again = await admin(['reseal', String(workflow.id)]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /^admin: 400 INVALID_WORKFLOW_STATUS: Invalid workflow status \(Workflow \d+ is COMPLETED with seal SEALED/,
    );
  });

  it('disable-user / enable-user and disable-org / enable-org: recorded with who and why; the account is refused meanwhile', async () => {
    const user = await createUser(t);
    const off = await admin(['disable-user', String(user.userId), '--reason', 'fraud check', '--by', 'ops-carol']);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toMatch(
      new RegExp(
        `^User ${user.userId} \\(${user.email.replace(/\./g, '\\.')}\\) is disabled since \\S+ by ops-carol: fraud check\\.$`,
        'm',
      ),
    );
    const [row] = await t.platform.db.select().from(users).where(eq(users.id, user.userId));
    expect(row).toMatchObject({ disabledBy: 'ops-carol', disabledReason: 'fraud check' });
    expect((await t.request('GET', '/user/v1/settings/profile', { token: user.token })).body.message).toBe(
      'ACCOUNT_DISABLED',
    );
    expect((await admin(['enable-user', String(user.userId)])).stdout.trim()).toBe(
      `User ${user.userId} (${user.email}) is enabled.`,
    );
    expect((await t.request('GET', '/user/v1/settings/profile', { token: user.token })).status).toBe(200);

    const org = await admin(['disable-org', String(user.organizationId), '--json'], { USER: 'ops-dan' });
    expect(org.code, org.stderr).toBe(0);
    expect(JSON.parse(org.stdout)).toMatchObject({ id: user.organizationId, disabled: true, disabledBy: 'ops-dan' });
    expect((await admin(['enable-org', String(user.organizationId)])).stdout).toContain('is enabled.');
    const missing = await admin(['disable-user', '2147483647']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('404 NOT_FOUND');
  });

  it('queues prints a table of the job queues; export writes the zip to --out', async () => {
    const queues = await admin(['queues']);
    expect(queues.code, queues.stderr).toBe(0);
    expect(queues.stdout.split('\n')[0].split(/\s{2,}/)).toEqual([
      'queue',
      'waiting',
      'deferred',
      'active',
      'retry',
      'failed',
      'oldest waiting',
    ]);
    expect(queues.stdout).toMatch(/^workflow\.seal\s+\d+/m);

    await createDraftWorkflow(t, owner, { name: 'CLI export' });
    const out = path.join(t.config.dataDir, 'export.zip');
    const run = await admin(['export', String(owner.organizationId), '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(new RegExp(`^Organization ${owner.organizationId}: \\d+ bytes written to `));
    const files = unzipSync(new Uint8Array(fs.readFileSync(out)));
    const manifest = JSON.parse(new TextDecoder().decode(files['manifest.json']));
    expect(manifest.organization.id).toBe(owner.organizationId);
    expect(manifest.envelopes.map((e: { name: string }) => e.name)).toContain('CLI export');
    const refused = await admin(['export', '2147483647', '--out', path.join(t.config.dataDir, 'none.zip')]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('404 NOT_FOUND');
    expect(fs.existsSync(path.join(t.config.dataDir, 'none.zip'))).toBe(false);
  });

  it("a refusal exits 1 with the error body's description; --url wins over PUBLIC_URL; an unreachable service exits 1", async () => {
    const wrong = await admin(['orgs'], { ADMIN_TOKEN: crypto.randomBytes(24).toString('hex') });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /^admin: 401 UNAUTHORIZED: The operator's API needs Authorization: Bearer \$ADMIN_TOKEN \[request [0-9a-f-]+\]$/m,
    );
    const missing = await admin(['grant', '2147483647', '1']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('404 NOT_FOUND');
    const [retired] = await t.platform.db
      .insert(packages)
      .values({ name: 'CLI retired', credits: 1, duration: 1, servicePlan: 'OLD', status: 'INACTIVE' })
      .returning();
    const refused = await admin(['grant', String(owner.organizationId), String(retired.id)]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      '400 PACKAGE_NOT_AVAILABLE: The package "CLI retired" is inactive; choose another',
    );

    const dead = `http://127.0.0.1:${await freePort()}`;
    const viaFlag = await admin(['orgs', owner.email, '--url', baseUrl], { PUBLIC_URL: dead });
    expect(viaFlag.code, viaFlag.stderr).toBe(0);
    expect(viaFlag.stdout).toContain(owner.email);
    const unreachable = await admin(['orgs'], { PUBLIC_URL: dead });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain(`admin: cannot reach ${dead}: ECONNREFUSED`);
  });
});
