import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

it('an over-long path parameter still gets the standard error body, not a bare 414', async () => {
  const res = await t.request('GET', `/auth/v1/getGuestToken/${'a'.repeat(3000)}`);
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.body).toMatchObject({ success: false, httpStatusCode: res.status });
});

it('a malformed URL gets the standard error body', async () => {
  const res = await t.request('GET', '/document/v1/%E0%A4%A');
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ success: false, httpStatusCode: 400, message: 'BAD_REQUEST_BODY' });
});

it('a JSON body that does not parse gets 400 BAD_REQUEST_BODY', async () => {
  const res = await t.request('POST', '/auth/v1/signup', {
    body: '{"name":',
    headers: { 'content-type': 'application/json' },
  });
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ success: false, message: 'BAD_REQUEST_BODY' });
});

it('an unsupported content type is a malformed body: 400 in the standard body (SPEC.md lists no 415)', async () => {
  const res = await t.request('POST', '/auth/v1/signup', {
    body: 'name=x',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ success: false, httpStatusCode: 400, message: 'UNSUPPORTED_MEDIA_TYPE' });
});
