import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

/** Every route that is not public refuses a request without credentials, or with a bad one, with 401. */
describe('every protected route', () => {
  it('answers 401 in the standard body without a token, with a garbage token and with an expired token', async () => {
    const protectedRoutes = t.routes.filter((r) => r.auth !== 'public' && r.method !== 'HEAD' && r.method !== 'OPTIONS');
    expect(protectedRoutes.length).toBeGreaterThan(0);
    const expired = await t.platform.tokens.sign({ sub: '1', type: 'USER', organizationId: 1 }, -60);
    const failures: string[] = [];
    for (const route of protectedRoutes) {
      const url = route.url.replace(/:[A-Za-z]+/g, '1');
      for (const authorization of [undefined, 'Bearer garbage.token.value', `Bearer ${expired}`, 'Basic abc']) {
        const res = await t.app.inject({ method: route.method as any, url, headers: authorization ? { authorization } : {} });
        const body = res.json();
        if (res.statusCode !== 401 || body.success !== false || body.httpStatusCode !== 401) failures.push(`${route.method} ${route.url} (${authorization ?? 'none'}) → ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('a guest token is refused on user-only routes with 403', async () => {
    const guest = await t.platform.tokens.sign({ sub: '1', type: 'GUEST', recipientId: 1, workflowId: 1 }, 600);
    const userOnly = t.routes.filter((r) => r.auth === 'user' && r.method !== 'HEAD');
    for (const route of userOnly) {
      const res = await t.app.inject({ method: route.method as any, url: route.url.replace(/:[A-Za-z]+/g, '1'), headers: { authorization: `Bearer ${guest}` } });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
    }
  });
});
