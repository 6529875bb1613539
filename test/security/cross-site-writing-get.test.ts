import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, insertField, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { insertBusinessApp } from '../helpers/auth.ts';
import { addMember, createRole } from '../organizations/org-helpers.ts';
import { createTemplate, sourceWorkflow } from '../templates/template-helpers.ts';
import { organizationBranding } from '../../src/platform/db/schema/index.ts';
import {
  changedTables,
  cookieSession,
  CROSS_SITE_NAVIGATION,
  fingerprint,
  routeName,
  sampleQuery,
  type CookieSession,
} from './security-helpers.ts';

/**
 * Cross-site request forgery through GET (RUNTIME "Who may do what"): the session cookie is SameSite=Lax, so a
 * link or a redirect from another site brings it along on a GET. Every GET that writes therefore needs the
 * session's X-CSRF-Token like any other state change; a GET that does not need it must change nothing.
 */
let t: TestApp;
let owner: TestUser;
let session: CookieSession;
let ids: Record<string, number>;
let templateId: number;
let templateFolderId: number;

/**
 * Derived data a read may store, which no other site can turn into a change: the picture of a document's first
 * page is drawn on the first ask and recorded on the document row (the same bytes whoever asks, whenever).
 */
const CACHE_COLUMNS = { documents: ['picture_blob_key'] };
const snapshot = () => fingerprint(t, { ignoredColumns: CACHE_COLUMNS });

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Olga Owner' });
  session = await cookieSession(t, owner);
  // Records for every kind of id a GET names, so that the GET reaches its work rather than a 404.
  const source = await sourceWorkflow(t, owner);
  const self = await insertRecipient(t, source.workflow.id, {
    userId: owner.userId,
    name: owner.name,
    email: owner.email,
    recipientOrder: 3,
  });
  const field = await insertField(t, {
    workflowId: source.workflow.id,
    documentId: source.document.id,
    recipientId: self.id,
    fieldType: 'SIGNATURE',
  });
  const template = await createTemplate(t, owner.token, { name: 'Lease', workflowId: source.workflow.id });
  templateId = template.id;
  const role = await createRole(t, owner);
  const member = await addMember(t, owner, role.id, 'Mia Member');
  const app = await insertBusinessApp(t, owner.organizationId);
  const folder = await t.request('POST', '/workflow/v1/user/folders', {
    token: owner.token,
    body: { folderName: 'Mine' },
  });
  const templateFolder = await t.request('POST', '/organization/v1/template-folders', {
    token: owner.token,
    body: { name: 'Leases' },
  });
  expect([folder.status, templateFolder.status]).toEqual([200, 200]);
  await t.platform.db
    .insert(organizationBranding)
    .values({ organizationId: owner.organizationId, primaryColor: '#7A1F5C', senderName: 'Acme Contracts' });
  ids = {
    workflowId: source.workflow.id,
    workflowID: source.workflow.id,
    parentWorkflowId: source.workflow.id,
    documentId: source.document.id,
    docId: source.document.id,
    recipientId: self.id,
    fieldId: field.id,
    folderId: folder.body.id,
    templateId: template.id,
    tempId: template.id,
    userId: member.userId,
    appId: app.appId,
    deliveryId: 1,
    roleId: role.id,
  };
  templateFolderId = templateFolder.body.id;
});
afterAll(async () => {
  await t?.close();
});

/** The route's URL with the fixture's ids; `:id` names a different record on each route. */
function urlOf(url: string): string {
  return url.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    if (name !== 'id') return String(ids[name] ?? 1);
    if (url.startsWith('/user/v1/roles/')) return String(ids.roleId);
    if (url.startsWith('/organization/v1/template-folders/')) return String(templateFolderId);
    if (url.startsWith('/organization/v1/templates/')) return String(templateId);
    return '1';
  });
}

/** The GET routes that take the session cookie: every one that is not public, and the public ones that read it. */
function cookieGets() {
  const cookieReading = ['GET /auth/v1/refresh-session', 'GET /bff/auth/me'];
  return t.routes.filter(
    (route) =>
      route.method === 'GET' &&
      (route.auth !== 'public' || cookieReading.includes(routeName(route))) &&
      route.auth !== 'operator',
  );
}

describe('a GET with a live session cookie, from another site, without X-CSRF-Token', () => {
  it('answers 403 CSRF_TOKEN_INVALID or changes no table, for every GET route', async () => {
    const routes = cookieGets();
    expect(routes.length).toBeGreaterThan(60);
    const failures: string[] = [];
    const answered: string[] = [];
    for (const route of routes) {
      const query = sampleQuery(route.schema.querystring, ids);
      const url = urlOf(route.url) + (query ? `?${query}` : '');
      await t.drainJobs();
      const before = await snapshot();
      const res = await t.app.inject({
        method: 'GET',
        url,
        headers: { cookie: session.cookieHeader, accept: 'application/json', ...CROSS_SITE_NAVIGATION },
      });
      await t.drainJobs();
      const changed = changedTables(before, await snapshot());
      const refused = res.statusCode === 403 && res.json().message === 'CSRF_TOKEN_INVALID';
      if (res.statusCode < 300) answered.push(routeName(route));
      if (changed.length > 0 && !refused)
        failures.push(`${routeName(route)} → ${res.statusCode}, changed ${changed.join(', ')}`);
    }
    expect(failures).toEqual([]);
    // The fixture reaches most routes' work: a GET that only ever answered 404 here proves nothing.
    expect(answered.length).toBeGreaterThan(routes.length / 2);
  });
});

describe('the GETs that write', () => {
  const writing = () => [
    '/organization/v1/branding-reset',
    `/organization/v1/templates/${templateId}/use`,
    '/user/v1/settings/generateQR',
    '/auth/v1/refresh-session',
  ];

  it("need the session's X-CSRF-Token with the cookie, even without any cross-site header (HEAD too); with it they work", async () => {
    for (const url of writing()) {
      for (const method of ['GET', 'HEAD'] as const) {
        if (method === 'HEAD' && url.startsWith('/auth/')) continue;
        const before = await snapshot();
        const res = await t.app.inject({
          method,
          url,
          headers: { cookie: session.cookieHeader, accept: 'application/json' },
        });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        if (method === 'GET') expect(res.json().message, url).toBe('CSRF_TOKEN_INVALID');
        expect(changedTables(before, await snapshot()), `${method} ${url}`).toEqual([]);
        const wrong = await t.app.inject({
          method,
          url,
          headers: {
            cookie: session.cookieHeader,
            accept: 'application/json',
            'x-csrf-token': `${session.csrfToken.slice(0, -2)}xx`,
          },
        });
        expect(wrong.statusCode, `${method} ${url} with a wrong token`).toBe(403);
      }
      const ok = await t.app.inject({
        method: 'GET',
        url,
        headers: { cookie: session.cookieHeader, accept: 'application/json', 'x-csrf-token': session.csrfToken },
      });
      expect(ok.statusCode, `${url}: ${ok.body.slice(0, 200)}`).toBe(200);
    }
  });

  it('a cross-site request is refused even with the right token (Sec-Fetch-Site: cross-site, or another Origin)', async () => {
    for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { origin: 'https://evil.example' }]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/organization/v1/branding-reset',
        headers: { cookie: session.cookieHeader, 'x-csrf-token': session.csrfToken, ...headers },
      });
      expect([res.statusCode, res.json().message], JSON.stringify(headers)).toEqual([403, 'CSRF_TOKEN_INVALID']);
    }
  });

  it('a bearer token needs no CSRF header', async () => {
    for (const url of writing().filter((url) => !url.startsWith('/auth/'))) {
      const res = await t.request('GET', url, {
        token: owner.token,
        headers: { accept: 'application/json', ...CROSS_SITE_NAVIGATION },
      });
      expect(res.status, url).toBe(200);
    }
  });

  it('are exactly the GET routes declared as writing', () => {
    const declared = t.routes
      .filter((route) => route.method === 'GET' && route.writes)
      .map(routeName)
      .sort();
    expect(declared).toEqual([
      'GET /auth/v1/refresh-session',
      'GET /organization/v1/branding-reset',
      'GET /organization/v1/templates/:tempId/use',
      'GET /user/v1/settings/generateQR',
    ]);
  });
});
