import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { insertBusinessApp } from '../helpers/auth.ts';
import { uploadFile } from '../helpers/documents.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { addField, addRecipients, fieldEntry, recipientEntry } from '../helpers/recipients.ts';
import { addMember, ALL_ALLOWED, createRole, organizationName, roleBody } from '../organizations/org-helpers.ts';
import { setCustomMailPlan, VALID_CONFIGURATIONS } from '../mail-settings/helpers.ts';
import { createTemplate, sourceWorkflow } from '../templates/template-helpers.ts';
import { ORGANIZATION_MODULES, type AuthPolicy } from '../../src/http/authorize.ts';
import { changedTables, fingerprint, partnerToken, routeName, sample, sampleQuery } from './security-helpers.ts';

/**
 * A business app's token acting as the owner (RUNTIME "Who may do what") does the owner's envelope work, but never
 * the organization's administration: members and invitations, roles, email settings, branding changes, billing,
 * business apps, webhooks, template-folder access, and (our decision) how the person signs in: 403
 * USER_NOT_HAVE_ACCESS, nothing changed.
 */
let t: TestApp;
let owner: TestUser;
let token: string;
let known: Record<string, unknown>;
let templateFolderId: number;
let roleId: number;

/** Administration on routes any signed-in user may call: the person's own invitations, the role list, their sign-in methods. */
const PERSON_ROUTES = [
  'GET /organization/v1/invitations',
  'PUT /organization/v1/invite',
  'GET /user/v1/roles/available',
  'GET /user/v1/settings/generateQR',
  'PUT /user/v1/settings/security',
  'POST /user/v1/settings/passkeys/options',
  'POST /user/v1/settings/passkeys',
  'GET /user/v1/settings/passkeys',
  'DELETE /user/v1/settings/passkeys/:id',
];
const ADMINISTRATION_MODULES = ['BILLING_DETAILS', 'BUSINESS_APPS', 'ROLES', 'ORGANIZATIONS', 'USERS'];

/** Whether a route's policy, as declared, is the organization's administration. */
function administers(route: { method: string; url: string; auth: AuthPolicy }): boolean {
  const { auth } = route;
  if (PERSON_ROUTES.includes(routeName(route)) || auth === 'person') return true;
  if (typeof auth !== 'object') return false;
  if ('owner' in auth) return true;
  if (auth.module === 'BRANDING') return auth.right !== 'canView';
  return ADMINISTRATION_MODULES.includes(auth.module);
}

/** The attacks that were probed, with bodies that would succeed for the owner. */
function bodyFor(name: string): unknown {
  switch (name) {
    case 'PUT /organization/v1/email-settings':
      return {
        emailMode: 'ORG_MANAGED',
        source: 'CUSTOM',
        provider: 'SMTP',
        configurations: { ...VALID_CONFIGURATIONS.SMTP, SMTP_SERVER: 'smtp.attacker.example' },
      };
    case 'POST /user/v1/roles':
      return roleBody({
        name: 'Everything',
        permissions: ORGANIZATION_MODULES.map((moduleName) => ({ moduleName })),
        signatureSettings: { ...ALL_ALLOWED, quotaElectronic: 1_000_000 },
      });
    case 'PUT /user/v1/roles/:id':
      return roleBody({ name: 'Renamed', permissions: ORGANIZATION_MODULES.map((moduleName) => ({ moduleName })) });
    case 'PUT /user/v1/roles/:id/permissions':
      return ORGANIZATION_MODULES.map((moduleName) => ({ moduleName }));
    case 'PUT /organization/v1/template-folders/:id/access':
      return { roleIds: [roleId], overrideEnabled: true };
    case 'POST /organization/v1/user':
      return { name: 'Ann Partner', emailAddress: 'ann.partner@example.com' };
    default:
      return undefined;
  }
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Olga Owner' });
  await setCustomMailPlan(t, owner.organizationId, true);
  const app = await insertBusinessApp(t, owner.organizationId);
  token = await partnerToken(t, owner, app);
  const role = await createRole(t, owner);
  roleId = role.id;
  const member = await addMember(t, owner, role.id, 'Mia Member');
  const folder = await t.request('POST', '/organization/v1/template-folders', {
    token: owner.token,
    body: { name: 'Leases' },
  });
  templateFolderId = folder.body.id;
  known = {
    appId: app.appId,
    userId: member.userId,
    roleId: role.id,
    id: role.id,
    deliveryId: 1,
    orgName: await organizationName(t, owner),
    orgId: owner.organizationId,
    userEmail: member.email,
    orgNames: [await organizationName(t, owner)],
    emailAddress: 'ann.partner@example.com',
  };
});
afterAll(async () => {
  await t?.close();
});

function requestOf(route: { method: string; url: string; schema: { body?: unknown; querystring?: unknown } }) {
  const name = routeName(route);
  const url = route.url.replace(/:([A-Za-z]+)/g, (_, param: string) => {
    if (param === 'id' && route.url.startsWith('/organization/v1/template-folders/')) return String(templateFolderId);
    return String(known[param] ?? 1);
  });
  const query = sampleQuery(route.schema.querystring, known);
  const schemaBody = route.schema.body as { content?: unknown } | undefined;
  // A multipart body (branding) is refused before it is read; JSON bodies are valid ones.
  const body = bodyFor(name) ?? (schemaBody && !schemaBody.content ? sample(schemaBody, known) : undefined);
  return { url: query ? `${url}?${query}` : url, body };
}

describe('a business-app token acting as the owner', () => {
  it('is refused every administration endpoint with 403 USER_NOT_HAVE_ACCESS, and nothing changes', async () => {
    const routes = t.routes.filter(
      (route) => route.method !== 'HEAD' && route.method !== 'OPTIONS' && administers(route),
    );
    // Every PERSON_ROUTES entry still exists: a renamed route must not drop out of the table unnoticed.
    expect(PERSON_ROUTES.filter((name) => !routes.some((route) => routeName(route) === name))).toEqual([]);
    expect(routes.length).toBeGreaterThan(40);
    await t.drainJobs();
    const before = await fingerprint(t);
    const failures: string[] = [];
    for (const route of routes) {
      const { url, body } = requestOf(route);
      const res = await t.request(route.method, url, { token, body, headers: { accept: 'application/json' } });
      if (res.status !== 403 || res.body?.message !== 'USER_NOT_HAVE_ACCESS')
        failures.push(`${routeName(route)} → ${res.status} ${String(res.raw).slice(0, 120)}`);
    }
    await t.drainJobs();
    expect(failures).toEqual([]);
    expect(changedTables(before, await fingerprint(t))).toEqual([]);
  });

  it("the same calls with the owner's own token are not refused by policy (the table is of real, working requests)", async () => {
    for (const name of [
      'PUT /organization/v1/email-settings',
      'PUT /organization/v1/template-folders/:id/access',
      'GET /organization/v1/billing',
      'GET /organization/v1/apps',
    ]) {
      const route = t.routes.find((candidate) => routeName(candidate) === name)!;
      const { url, body } = requestOf(route);
      const res = await t.request(route.method, url, { token: owner.token, body });
      expect(res.status, `${name}: ${res.raw.slice(0, 200)}`).toBe(200);
    }
  });

  it("keeps doing the owner's envelope work: upload, recipients, fields, commence, templates (folders, create, apply, dispatch), folders, reads", async () => {
    const uploaded = await uploadFile(t, token, 'Partner agreement.pdf', await makePdf(1));
    expect(uploaded.status, uploaded.raw).toBe(201);
    const [recipient] = await addRecipients(t, token, uploaded.body.workflowId, [
      recipientEntry({ name: 'Sam Signer' }),
    ]);
    await addField(t, token, uploaded.body.id, fieldEntry(recipient.id, { fieldType: 'SIGNATURE' }));
    const commenced = await t.request('POST', `/workflow/v1/${uploaded.body.workflowId}/commence`, { token, body: {} });
    expect(commenced.status, commenced.raw).toBe(200);

    const folder = await t.request('POST', '/organization/v1/template-folders', {
      token,
      body: { name: 'Partner templates' },
    });
    expect(folder.status, folder.raw).toBe(200);
    const source = await sourceWorkflow(t, owner);
    const template = await createTemplate(t, token, {
      name: 'Partner lease',
      workflowId: source.workflow.id,
      folderId: folder.body.id,
    });
    const fill = [{ recipientIndex: 2, name: 'Carla Vries', emailAddress: 'carla.partner@example.com' }];
    const applied = await t.request('POST', `/workflow/v1/templates/${template.id}/apply`, { token, body: fill });
    expect(applied.status, applied.raw).toBe(200);
    const dispatched = await t.request('POST', `/workflow/v1/templates/${template.id}/dispatch`, { token, body: fill });
    expect(dispatched.status, dispatched.raw).toBe(200);

    const mine = await t.request('POST', '/workflow/v1/user/folders', {
      token,
      body: { folderName: 'Partner folder' },
    });
    expect(mine.status, mine.raw).toBe(200);
    const moved = await t.request('PUT', `/workflow/v1/user/folders/${mine.body.id}/${uploaded.body.workflowId}`, {
      token,
    });
    expect(moved.status, moved.raw).toBeLessThan(300);

    for (const url of [
      '/document/v1',
      '/organization/v1/templates',
      '/organization/v1/branding',
      '/user/v1/settings/profile',
      `/workflow/v1/${uploaded.body.workflowId}/recipients`,
    ]) {
      expect((await t.request('GET', url, { token })).status, url).toBe(200);
    }
  });
});
