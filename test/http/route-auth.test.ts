import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertField, insertRecipient } from '../helpers/factories.ts';
import { pngDataUrl } from '../helpers/ceremony.ts';
import type { RouteAuth } from '../../src/http/authenticate.ts';
import { sample } from '../helpers/schema-sample.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const routeName = (r: RouteAuth) => `${r.method} ${r.url}`;
const callable = (r: RouteAuth) => r.method !== 'HEAD' && r.method !== 'OPTIONS';

/**
 * Every route anyone may call without a token. A new public route fails this test until it is added here, so
 * opening a route is a decision someone reviews.
 */
const PUBLIC_ROUTES = [
  'GET /admin/internal/health',
  'GET /admin/internal/ready',
  'GET /app/assets/:file',
  'GET /app/pdfjs/:dir/:file',
  'GET /auth/v1/app_settings',
  'GET /auth/v1/getGuestToken/:code',
  'GET /auth/v1/packages',
  'GET /branding/v1/logos/:logoKey',
  'GET /auth/v1/refresh-session',
  'POST /auth/v1/signin',
  'GET /auth/v1/signin',
  'POST /auth/v1/signin/authorize',
  'POST /auth/v1/signin/callback',
  'GET /auth/v1/signin/social/idp',
  'GET /bff/auth/authorize',
  'GET /bff/auth/callback',
  'GET /bff/auth/me',
  'POST /bff/auth/logout',
  'GET /signin',
  'GET /signup',
  'GET /',
  'GET /envelopes/*',
  'GET /templates',
  'GET /templates/*',
  'GET /organization',
  'GET /organization/*',
  'GET /profile',
  'GET /profile/*',
  'POST /auth/v1/signup',
  'POST /auth/v1/smart_card/hash',
  'POST /auth/v1/smart_card/signature/verify',
  'POST /auth/v1/verify-email',
  'POST /auth/webauthn/login/options',
  'POST /auth/webauthn/login/verify',
  'GET /csc/callback',
  'GET /auth/sso/callback',
  'GET /invite/:code',
  'POST /invite/:code',
  'GET /metrics',
  'GET /pki/v1/ca.crl',
  'GET /pki/v1/ca.crt',
  'GET /sign/:code',
  'GET /verify-email/:code',
  'POST /verify/v1',
  'GET /workflow/v1/signing/disclosure',
];

describe('the public routes', () => {
  it('are exactly the allow-list', () => {
    const actual = t.routes.filter((r) => r.auth === 'public' && callable(r)).map(routeName);
    expect([...new Set(actual)].sort()).toEqual([...PUBLIC_ROUTES].sort());
  });
});

/** Every route that is not public refuses a request without credentials, or with a bad one, with 401. */
describe('every protected route', () => {
  it('answers 401 in the standard body without a token, with a garbage token and with an expired token', async () => {
    const protectedRoutes = t.routes.filter((r) => r.auth !== 'public' && callable(r));
    expect(protectedRoutes.length).toBeGreaterThan(0);
    const expired = await t.platform.tokens.sign({ sub: '1', type: 'USER', organizationId: 1 }, -60);
    const failures: string[] = [];
    for (const route of protectedRoutes) {
      const url = route.url.replace(/:[A-Za-z]+/g, '1');
      for (const authorization of [undefined, 'Bearer garbage.token.value', `Bearer ${expired}`, 'Basic abc']) {
        const res = await t.app.inject({
          method: route.method as any,
          url,
          headers: authorization ? { authorization } : {},
        });
        const body = res.json();
        if (res.statusCode !== 401 || body.success !== false || body.httpStatusCode !== 401)
          failures.push(`${route.method} ${route.url} (${authorization ?? 'none'}) → ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('a guest token is refused on user-only and organization-scoped routes with 403', async () => {
    const guest = await t.platform.tokens.sign({ sub: '1', type: 'GUEST', recipientId: 1, workflowId: 1 }, 600);
    const userOnly = t.routes.filter(
      (r) => r.auth !== 'public' && r.auth !== 'participant' && r.auth !== 'operator' && callable(r),
    );
    for (const route of userOnly) {
      const res = await t.app.inject({
        method: route.method as any,
        url: route.url.replace(/:[A-Za-z]+/g, '1'),
        headers: { authorization: `Bearer ${guest}` },
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
    }
  });
});

/** The operator's API (ADMIN_TOKEN) is all of /admin/v1/ and nothing else; no user's or guest's token opens it. */
describe('the operator routes', () => {
  it("are exactly those under /admin/v1/, and answer 401 to a user's and a guest's token", async () => {
    const operator = t.routes.filter((r) => r.auth === 'operator' && callable(r));
    expect(operator.length).toBeGreaterThan(0);
    expect(t.routes.filter((r) => r.url.startsWith('/admin/v1/') !== (r.auth === 'operator')).map(routeName)).toEqual(
      [],
    );
    const owner = await createUser(t);
    const guest = await t.platform.tokens.sign({ sub: '1', type: 'GUEST', recipientId: 1, workflowId: 1 }, 600);
    for (const route of operator) {
      for (const token of [owner.token, guest]) {
        const res = await t.app.inject({
          method: route.method as any,
          url: route.url.replace(/:[A-Za-z]+/g, '1'),
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.statusCode, `${routeName(route)}`).toBe(401);
      }
    }
  });
});

/**
 * Routes that answer an outsider 403 for an existing workflow, as test/comments pins: the comments of a
 * workflow refuse anyone but its owner and recipients with USER_NOT_HAVE_ACCESS (404 stays for a missing one).
 */
const OUTSIDER_403 = ['GET /workflow/v1/:workflowId/comments', 'POST /workflow/v1/:workflowId/comments'];

/**
 * Outsiders cannot tell that a record exists: a signed-in user of another organization gets 404, not 403,
 * on every route that names a workflow, a document, or a recipient or field of one. Each request is
 * otherwise valid (a body and query built from the route's schema), so the answer comes from the record
 * check, not from validation.
 */
describe('a caller from another organization', () => {
  it('gets 404 on every route that takes a workflow or document id', async () => {
    const owner = await createUser(t);
    const outsider = await createUser(t);
    const { workflow, document } = await createDraftWorkflow(t, owner);
    const signer = await createUser(t);
    const recipient = await insertRecipient(t, workflow.id, {
      userId: signer.userId,
      name: 'Sam Signer',
      email: signer.email,
    });
    const field = await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId: recipient.id,
      fieldType: 'SIGNATURE',
    });
    const folder = await t.request('POST', '/workflow/v1/user/folders', {
      token: outsider.token,
      body: { folderName: 'Mine' },
    });
    expect(folder.status).toBe(200);
    const ids: Record<string, number> = {
      workflowId: workflow.id,
      workflowID: workflow.id,
      parentWorkflowId: workflow.id,
      documentId: document.id,
      docId: document.id,
      recipientId: recipient.id,
      fieldId: field.id,
      folderId: folder.body.id,
    };
    const sampleOf = (schema: unknown) => sample(schema, { ...ids, image: pngDataUrl() });
    // The operator's routes take no user's token at all (401, the block above).
    const scoped = t.routes.filter(
      (r) =>
        r.auth !== 'public' &&
        r.auth !== 'operator' &&
        callable(r) &&
        /:(workflowId|workflowID|parentWorkflowId|documentId|docId)\b/.test(r.url),
    );
    expect(scoped.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const route of scoped) {
      const url = route.url.replace(/:([A-Za-z]+)/g, (_, name: string) => String(ids[name]));
      const query = route.schema.querystring
        ? new URLSearchParams(
            Object.entries(sampleOf(route.schema.querystring) as object).map(([k, v]): [string, string] => [
              k,
              String(v),
            ]),
          ).toString()
        : '';
      const body = route.schema.body ? sampleOf(route.schema.body) : undefined;
      const res = await t.request(route.method, query ? `${url}?${query}` : url, { token: outsider.token, body });
      if (res.status !== (OUTSIDER_403.includes(routeName(route)) ? 403 : 404))
        failures.push(`${routeName(route)} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });
});
