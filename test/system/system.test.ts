import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';

describe('public endpoints', () => {
  test('health answers 200 once the database answers', async ({ app: t }) => {
    const res = await t.request('GET', '/admin/internal/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('UP');
  });

  test('app settings carry branding as a JSON string, the survey limit and the IDP flag', async ({ app: t }) => {
    const res = await t.request('GET', '/auth/v1/app_settings');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.branding).primaryColor).toMatch(/^#[0-9A-F]{6}$/i);
    expect(res.body.powerSurveyRecipientLimit).toBeGreaterThan(0);
    expect(res.body.sso.enableIdpAuth).toBe(false);
    expect(res.body.locale).toBe('en');
  });

  test('packages are paginated zero-based and searchable', async ({ app: t }) => {
    const all = await t.request('GET', '/auth/v1/packages');
    expect(all.status).toBe(200);
    expect(all.body.totalElements).toBe(3);
    const second = await t.request('GET', '/auth/v1/packages?page=1&size=1');
    expect(second.body.content).toHaveLength(1);
    expect(second.body.content[0].id).toBe(all.body.content[1].id);
    const search = await t.request('GET', '/auth/v1/packages?search=enterp');
    expect(search.body.content.map((p: any) => p.name)).toEqual(['Enterprise']);
    const none = await t.request('GET', '/auth/v1/packages?search=%25');
    expect(none.body.totalElements).toBe(0);
  });

  test('bad query parameters give the standard 400 body', async ({ app: t }) => {
    for (const query of ['size=x', 'page=-1', 'size=0', `search=${'a'.repeat(300)}`]) {
      const res = await t.request('GET', `/auth/v1/packages?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        httpStatusCode: 400,
        success: false,
        message: 'BAD_REQUEST_BODY',
        errorCode: 10001,
      });
      expect(typeof res.body.errorDescription).toBe('string');
    }
  });

  test('unknown routes give 404 in the standard body', async ({ app: t }) => {
    const res = await t.request('GET', '/no/such/route');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ httpStatusCode: 404, success: false, message: 'ROUTE_NOT_FOUND' });
    expect(res.body).not.toHaveProperty('responseBody');
  });

  test('serves the OpenAPI document and the reference page', async ({ app: t }) => {
    const json = await t.request('GET', '/docs/json');
    expect(json.status).toBe(200);
    expect(json.body.openapi).toMatch(/^3\./);
    expect(json.body.paths['/admin/internal/health']).toBeDefined();
    const page = await t.request('GET', '/docs');
    expect(page.status).toBe(200);
  });
});
