import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertField, type TestUser } from '../helpers/factories.ts';
import { pngDataUrl, waitForSeal } from '../helpers/ceremony.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp({ metricsToken: TOKEN });
  owner = await createUser(t);
});
afterAll(async () => {
  await t?.close();
});

const scrape = (token?: string) =>
  t.request('GET', '/metrics', token ? { headers: { authorization: `Bearer ${token}` } } : {});

/** The value of one sample line, e.g. `seals_total{outcome="sealed"}`; 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('GET /metrics', () => {
  it('answers only to the configured token', async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape('wrong-token')).status).toBe(401);
    const res = await scrape(TOKEN);
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/plain');
  });

  it('counts requests per route template, queue depth, job latency, mails and seals', async () => {
    for (let i = 0; i < 3; i++) await t.request('GET', '/admin/internal/health');
    await t.request('GET', '/document/v1/123456', { token: owner.token });

    const { workflow, document, selfRecipient } = await createDraftWorkflow(t, owner, { sequence: 'SELF' });
    const signature = await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId: selfRecipient!.id,
      fieldType: 'SIGNATURE',
    });
    expect(
      (
        await t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
          token: owner.token,
          body: { id: signature.id, image: pngDataUrl(120, 40) },
        })
      ).status,
    ).toBe(200);
    await waitForSeal(t, workflow.id);
    const signup = await t.request('POST', '/auth/v1/signup', {
      body: { name: 'Mia Metrics', email: `mia-${Date.now()}@example.com`, password: 'long enough password' },
    });
    expect(signup.status).toBe(201);
    await t.drainJobs();

    const text = (await scrape(TOKEN)).raw;
    expect(
      sample(text, 'http_request_duration_seconds_count{route="/admin/internal/health",method="GET",status="200"}'),
    ).toBeGreaterThanOrEqual(3);
    // Labelled by the template, never by the raw id.
    expect(text).toContain('route="/document/v1/:docId"');
    expect(text).not.toContain('123456');
    expect(sample(text, 'seals_total{outcome="sealed"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'mail_deliveries_total{outcome="sent"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'job_latency_seconds_count{queue="workflow.seal",outcome="completed"}')).toBeGreaterThanOrEqual(
      1,
    );
    expect(text).toContain('# TYPE job_queue_depth gauge');
    // Every earlier request was counted down when answered: the scrape itself is the one in flight.
    expect(sample(text, 'http_requests_in_flight')).toBe(1);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('does not exist without METRICS_TOKEN', async () => {
    const app = await createTestApp();
    try {
      expect((await app.request('GET', '/metrics')).status).toBe(404);
    } finally {
      await app.close();
    }
  });
});
