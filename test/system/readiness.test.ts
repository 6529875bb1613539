import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { startS3Server, type S3TestServer } from '../helpers/s3-server.ts';
import { call, killHard, scratchDatabase, startServiceProcess } from './service-process.ts';

/**
 * GET /admin/internal/ready: 200 while the instance can serve (database and file storage answer), 503 in the standard
 * error body when either does not, and from the start of a shutdown (SHUTDOWN_DRAIN_MS: still serving, not ready).
 * /admin/internal/health stays a liveness probe: it does not look at the storage.
 */
const apps: TestApp[] = [];
const buckets: S3TestServer[] = [];
afterAll(async () => {
  for (const app of apps) await app.close().catch(() => {});
  for (const bucket of buckets) await bucket.close().catch(() => {});
});

async function app(...args: Parameters<typeof createTestApp>): Promise<TestApp> {
  const created = await createTestApp(...args);
  apps.push(created);
  return created;
}

describe('readiness', () => {
  it('answers 200 with the database and storage kinds, and 503 naming the file storage while DATA_DIR/blobs cannot take files', async () => {
    const t = await app();
    const ready = await t.request('GET', '/admin/internal/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'READY',
      database: t.databaseUrl ? 'postgres' : 'pglite',
      storage: 'filesystem',
    });

    // The scratch area gone (a volume unmounted under the running service): uploads would fail, so not ready.
    const scratch = path.join(t.config.dataDir, 'blobs', 'tmp');
    fs.renameSync(scratch, `${scratch}.away`);
    try {
      const unready = await t.request('GET', '/admin/internal/ready');
      expect(unready.status).toBe(503);
      expect(unready.body).toMatchObject({
        message: 'SERVICE_UNAVAILABLE',
        errorDescription: 'Not ready: the file storage did not answer',
      });
      expect((await t.request('GET', '/admin/internal/health')).status).toBe(200);
    } finally {
      fs.renameSync(`${scratch}.away`, scratch);
    }
    expect((await t.request('GET', '/admin/internal/ready')).status).toBe(200);
  });

  it('checks the bucket when S3 is configured: 503 for a bucket that does not exist or a server that is gone', async () => {
    const s3 = await startS3Server();
    buckets.push(s3);
    const s3Config = { endpoint: s3.endpoint, region: 'us-east-1' };
    const t = await app({ s3: { bucket: s3.bucket, ...s3Config } }, { s3Credentials: s3.credentials });
    expect((await t.request('GET', '/admin/internal/ready')).body).toMatchObject({ status: 'READY', storage: 's3' });

    const missing = await app({ s3: { bucket: 'no-such-bucket', ...s3Config } }, { s3Credentials: s3.credentials });
    const unready = await missing.request('GET', '/admin/internal/ready');
    expect(unready.status).toBe(503);
    expect(unready.body.errorDescription).toBe('Not ready: the S3 bucket did not answer');

    // Concurrent probes share one check of the bucket; each still gets the answer.
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.request('GET', '/admin/internal/ready')));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);

    await s3.close();
    const started = Date.now();
    const gone = await t.request('GET', '/admin/internal/ready');
    expect(gone.status).toBe(503);
    expect(gone.body.errorDescription).toBe('Not ready: the S3 bucket did not answer');
    // Bounded: a bucket that does not answer is called unready within the check's 2 s (plus the SDK's own retries).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await t.request('GET', '/admin/internal/health')).status).toBe(200);
  });

  it('answers 503 from the start of a shutdown while the instance keeps serving for SHUTDOWN_DRAIN_MS', async () => {
    const t = await app({ shutdownDrainMs: 1500 });
    expect((await t.request('GET', '/admin/internal/ready')).status).toBe(200);
    const closing = t.close();
    apps.splice(apps.indexOf(t), 1);
    const unready = await t.request('GET', '/admin/internal/ready');
    expect(unready.status).toBe(503);
    expect(unready.body).toMatchObject({
      message: 'SERVICE_UNAVAILABLE',
      errorDescription: 'Not ready: the instance is shutting down',
    });
    // Everything else is still served during the drain: requests a load balancer sent before it noticed succeed.
    expect((await t.request('GET', '/admin/internal/health')).status).toBe(200);
    expect((await t.request('GET', '/auth/v1/app_settings')).status).toBe(200);
    await closing;
  });

  it('drains on SIGTERM in a real process: ready 503, the port still open, then exit 0 within the drain and the bound', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sig-ready-'));
    const database = await scratchDatabase('sig_ready');
    const service = await startServiceProcess('ready', {
      DATA_DIR: dataDir,
      ...(database ? { DATABASE_URL: database.url } : {}),
      SHUTDOWN_DRAIN_MS: '2000',
    });
    try {
      expect((await call(service.base, 'GET', '/admin/internal/ready')).body).toMatchObject({ status: 'READY' });
      const signalledAt = Date.now();
      service.child.kill('SIGTERM');
      await service.waitForLog('SIGTERM: shutting down', 5_000);
      const unready = await call(service.base, 'GET', '/admin/internal/ready');
      expect(unready.status).toBe(503);
      expect(unready.body.errorDescription).toBe('Not ready: the instance is shutting down');
      expect((await call(service.base, 'GET', '/admin/internal/health')).status).toBe(200);
      expect(await service.exited).toEqual({ code: 0, signal: null });
      const took = Date.now() - signalledAt;
      expect(took).toBeGreaterThanOrEqual(2000);
      expect(took).toBeLessThan(20_000);
    } finally {
      await killHard(service);
      fs.rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    }
  }, 120_000);
});
