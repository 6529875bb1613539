import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, type TestUser } from '../helpers/factories.ts';
import { createTemplate, sourceWorkflow } from '../templates/template-helpers.ts';
import type { RouteAuth } from '../../src/http/authenticate.ts';

/*
 * RUNTIME.md "Request shapes SPEC.md leaves loose": an endpoint whose body members are all optional accepts a request
 * without a body as {} (template clone, send-otp and the like). The endpoints are found from the route schemas, so a new
 * one is covered without being listed here: each is called without a body (and with an empty JSON body), and must not
 * answer 400 BAD_REQUEST_BODY about the body; its own rules (404, 400 for a business rule, 403 ...) still apply.
 */

const ADMIN_TOKEN = 'a'.repeat(40);
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ adminToken: ADMIN_TOKEN });
});
afterAll(async () => {
  await t?.close();
});

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
type Schema = { type?: string; required?: string[]; anyOf?: Schema[]; content?: unknown };

/** An object whose members are all optional, on its own or as one of the alternatives (signout: the object or null). */
function allOptional(schema: Schema | undefined): boolean {
  if (!schema) return false;
  if (schema.anyOf) return schema.anyOf.some((alternative) => allOptional(alternative));
  return schema.type === 'object' && (schema.required ?? []).length === 0;
}

const routeName = (r: RouteAuth) => `${r.method} ${r.url}`;
const optionalBodyRoutes = () =>
  t.routes.filter((r) => WRITES.has(r.method) && allOptional(r.schema.body as Schema | undefined));
/** Routes that take no body at all (send-otp, reset-code ...): an empty JSON body is no body either. */
const bodylessRoutes = () => t.routes.filter((r) => WRITES.has(r.method) && r.schema.body === undefined);

/** A fresh owner per call, with a workflow of its own: one endpoint's effect (a sign-out, a deletion) cannot change the next one's answer. */
async function callerFor(route: RouteAuth): Promise<{ authorization?: string; owner?: TestUser; workflowId?: number }> {
  if (route.auth === 'public') return {};
  if (route.auth === 'operator') return { authorization: `Bearer ${ADMIN_TOKEN}` };
  const owner = await createUser(t);
  const { workflow } = await createDraftWorkflow(t, owner);
  return { authorization: `Bearer ${owner.token}`, owner, workflowId: workflow.id };
}

function urlOf(route: RouteAuth, workflowId: number | undefined): string {
  return route.url
    .replace(/:workflowId/g, String(workflowId ?? 1))
    .replace(/:[A-Za-z]+/g, '1')
    .replace(/\*$/, 'x');
}

/** "400 BAD_REQUEST_BODY about the body": the request's body failed its schema or could not be parsed. */
function refusedForItsBody(res: { status: number; body: any }): boolean {
  if (res.status !== 400 || res.body?.message !== 'BAD_REQUEST_BODY') return false;
  const issues = Array.isArray(res.body.responseBody) ? res.body.responseBody : [];
  return (
    issues.some((issue: { location?: string }) => issue.location === 'body') ||
    /body/i.test(String(res.body.errorDescription))
  );
}

async function call(route: RouteAuth, variant: 'no body' | 'empty JSON body') {
  const { authorization, workflowId } = await callerFor(route);
  const headers: Record<string, string> = authorization ? { authorization } : {};
  if (variant === 'empty JSON body') headers['content-type'] = 'application/json';
  const res = await t.app.inject({
    method: route.method as any,
    url: urlOf(route, workflowId),
    headers,
    ...(variant === 'empty JSON body' ? { payload: '' } : {}),
  });
  let body: any = res.body;
  try {
    body = JSON.parse(res.body);
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, body };
}

describe('endpoints whose body members are all optional', () => {
  it('are found from the route schemas, template clone among them', () => {
    const found = optionalBodyRoutes().map(routeName);
    expect(found).toContain('POST /organization/v1/templates/:id/clone');
    expect(found.length).toBeGreaterThan(3);
  });

  for (const variant of ['no body', 'empty JSON body'] as const) {
    it(`accept a request with ${variant} as {}: no 400 BAD_REQUEST_BODY about the body, no 500`, async () => {
      const failures: string[] = [];
      const answered: string[] = [];
      for (const route of optionalBodyRoutes()) {
        const res = await call(route, variant);
        answered.push(`${routeName(route)} → ${res.status} ${res.body?.message ?? ''}`);
        if (refusedForItsBody(res) || res.status >= 500)
          failures.push(`${routeName(route)} → ${res.status} ${JSON.stringify(res.body)}`);
      }
      console.log(`${variant}:\n${answered.join('\n')}`);
      expect(failures).toEqual([]);
    });
  }
});

describe('endpoints that take no body', () => {
  it('accept an empty body sent as Content-Type: application/json, as send-otp always did', async () => {
    const routes = bodylessRoutes();
    expect(routes.map(routeName)).toContain('POST /workflow/v1/:workflowId/identity/send-otp');
    const failures: string[] = [];
    const answered: string[] = [];
    for (const route of routes) {
      const res = await call(route, 'empty JSON body');
      answered.push(
        `${routeName(route)} → ${res.status} ${res.body?.message ?? ''} ${res.body?.message === 'BAD_REQUEST_BODY' ? res.body.errorDescription : ''}`,
      );
      if (refusedForItsBody(res) || res.status >= 500)
        failures.push(`${routeName(route)} → ${res.status} ${JSON.stringify(res.body)}`);
    }
    console.log(`no body schema, empty JSON body:\n${answered.join('\n')}`);
    expect(failures).toEqual([]);
  });
});

describe('the rule is about missing bodies only', () => {
  it('a body that is there is still checked: a required member missing, a wrong type, malformed JSON: 400 BAD_REQUEST_BODY', async () => {
    const owner = await createUser(t);
    const cases: [string, string, string | undefined][] = [
      ['PUT', '/user/v1/settings/locale', undefined],
      ['PUT', '/user/v1/settings/locale', ''],
      ['POST', '/organization/v1/templates/1/clone', '{"name": 5}'],
      ['POST', '/organization/v1/templates/1/clone', '{"name":'],
      ['POST', '/organization/v1/templates/1/clone', '[]'],
      ['PUT', '/user/v1/settings/notifications', 'null'],
    ];
    for (const [method, url, payload] of cases) {
      const headers: Record<string, string> = { authorization: `Bearer ${owner.token}` };
      if (payload !== undefined) headers['content-type'] = 'application/json';
      const res = await t.app.inject({
        method: method as any,
        url,
        headers,
        ...(payload !== undefined ? { payload } : {}),
      });
      expect(res.statusCode, `${method} ${url} ${payload}`).toBe(400);
      expect(res.json().message, `${method} ${url} ${payload}`).toBe('BAD_REQUEST_BODY');
    }
  });

  it('template clone without a body clones with the default name into the same folder', async () => {
    const owner = await createUser(t);
    const source = await sourceWorkflow(t, owner);
    const created = await createTemplate(t, owner.token, { name: 'Lease', workflowId: source.workflow.id });
    const clone = await t.request('POST', `/organization/v1/templates/${created.id}/clone`, { token: owner.token });
    expect(clone.status, JSON.stringify(clone.body)).toBe(200);
    expect(clone.body).toMatchObject({ name: 'Copy of Lease', folderId: created.folderId });
    expect(clone.body.id).not.toBe(created.id);
  });
});
