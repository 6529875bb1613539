import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';

describe('request ids', () => {
  test('answers every request with an X-Request-Id, and error bodies carry the same id', async ({ app: t }) => {
    const ok = await t.request('GET', '/admin/internal/health');
    expect(ok.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const missing = await t.request('GET', '/no/such/route');
    expect(missing.status).toBe(404);
    expect(missing.body.requestId).toBe(missing.headers['x-request-id']);
    const unauthorized = await t.request('GET', '/user/v1/settings/profile');
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body.requestId).toBe(unauthorized.headers['x-request-id']);
    expect(unauthorized.body.requestId).not.toBe(missing.body.requestId);
  });

  test('keeps a well-formed id from a proxy and replaces one that could forge log lines', async ({ app: t }) => {
    const kept = await t.request('GET', '/admin/internal/health', {
      headers: { 'x-request-id': 'edge-proxy-1234abcd' },
    });
    expect(kept.headers['x-request-id']).toBe('edge-proxy-1234abcd');
    const replaced = await t.request('GET', '/admin/internal/health', {
      headers: { 'x-request-id': 'x\n{"level":60}' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('gives router errors (a malformed URL) an id too', async ({ app: t }) => {
    const res = await t.app.inject({ method: 'GET', url: '/document/v1/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).requestId).toBe(res.headers['x-request-id']);
  });
});
