import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';

/** Every method and path the service answers, with placeholders filled, plus the documentation and a miss. */
function sweepTargets(t: TestApp): { method: string; url: string }[] {
  const routes = t.routes
    .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS')
    .map((r) => ({ method: r.method, url: r.url.replace(/:[A-Za-z]+/g, '1') }));
  return [
    ...routes,
    { method: 'GET', url: '/docs' },
    { method: 'GET', url: '/docs/json' },
    { method: 'GET', url: '/no/such/route' },
  ];
}

async function sweep(t: TestApp, user: TestUser) {
  const answers = [];
  for (const target of sweepTargets(t)) {
    for (const authorization of [undefined, `Bearer ${user.token}`]) {
      const res = await t.app.inject({
        method: target.method as any,
        url: target.url,
        headers: authorization ? { authorization } : {},
      });
      answers.push({
        ...target,
        status: res.statusCode,
        type: String(res.headers['content-type'] ?? ''),
        headers: res.headers,
      });
    }
  }
  return answers;
}

describe('security headers over plain http (the default PUBLIC_URL)', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every route answers nosniff and X-Frame-Options DENY, and none answers HSTS', async () => {
    const answers = await sweep(t, user);
    expect(answers.length).toBeGreaterThan(100);
    // The sweep must reach JSON and HTML answers, successes and errors alike.
    expect(answers.some((a) => a.type.includes('application/json') && a.status === 200)).toBe(true);
    expect(answers.some((a) => a.type.includes('application/json') && a.status >= 400)).toBe(true);
    expect(answers.some((a) => a.type.includes('text/html'))).toBe(true);
    const missing = answers.filter(
      (a) => a.headers['x-content-type-options'] !== 'nosniff' || a.headers['x-frame-options'] !== 'DENY',
    );
    expect(missing.map((a) => `${a.method} ${a.url} ${a.status}`)).toEqual([]);
    expect(
      answers.filter((a) => a.headers['strict-transport-security'] !== undefined).map((a) => `${a.method} ${a.url}`),
    ).toEqual([]);
  });

  it('sets no Content-Security-Policy globally, and the Swagger UI still loads', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/swagger-ui/i);
    expect(page.headers['content-security-policy']).toBeUndefined();
    const spec = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(spec.statusCode).toBe(200);
    expect(spec.json().openapi).toMatch(/^3\./);
  });

  it('errors raised before routing (a malformed URL) carry the headers too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/document/v1/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});

describe('security headers with an https PUBLIC_URL', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: 'https://sign.example.com' });
    user = await createUser(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every route also answers Strict-Transport-Security', async () => {
    const answers = await sweep(t, user);
    const wrong = answers.filter(
      (a) =>
        a.headers['strict-transport-security'] !== 'max-age=31536000; includeSubDomains' ||
        a.headers['x-content-type-options'] !== 'nosniff' ||
        a.headers['x-frame-options'] !== 'DENY',
    );
    expect(wrong.map((a) => `${a.method} ${a.url} ${a.status}`)).toEqual([]);
  });
});
