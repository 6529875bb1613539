import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEAL_JOB } from '../../src/modules/signing/signing.jobs.ts';
import { activities } from '../../src/platform/db/schema/index.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertField, type TestUser } from '../helpers/factories.ts';
import { setWorkflow } from '../helpers/envelope-states.ts';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server.ts';
import { documentRows, pngDataUrl, waitForSeal, workflowRow } from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';

/**
 * The operator's view of seals: GET /admin/v1/workflows/awaiting-seal lists finished workflows whose seal is
 * PENDING or FAILED, and POST /admin/v1/workflows/{id}/reseal seals one again. The seal fails for real, the
 * way test/signing/seal.test.ts makes it: the time-stamp authority is out of service (here a front that
 * answers 503 until it is switched to a real RFC 3161 responder), and the back-off is elapsed in the queue.
 */
const ADMIN_TOKEN = crypto.randomBytes(24).toString('hex');
let t: TestApp;
let tsa: TsaServer;
let front: http.Server;
let tsaUp = false;
let owner: TestUser;

beforeAll(async () => {
  tsa = await startTsaServer();
  front = http.createServer((request, response) => {
    if (!tsaUp) {
      request.resume();
      response.writeHead(503).end();
      return;
    }
    const upstream = http.request(tsa.url, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  t = await createTestApp({
    adminToken: ADMIN_TOKEN,
    tsaUrl: `http://127.0.0.1:${(front.address() as AddressInfo).port}/`,
  });
  owner = await createUser(t, { name: 'Olga Owner' });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => front?.close(resolve));
  await tsa?.close();
});

const admin = (method: string, url: string) => t.request(method, url, { token: ADMIN_TOKEN });

/** A SELF draft signed over HTTP until COMPLETED: its seal job is queued by the completion. */
async function selfSigned(name: string) {
  const { workflow, document, selfRecipient } = await createDraftWorkflow(t, owner, { sequence: 'SELF', name });
  const signature = await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: selfRecipient!.id,
    fieldType: 'SIGNATURE',
  });
  const res = await t.request('POST', `/workflow/v1/${document.id}/fields/save`, {
    token: owner.token,
    body: [{ id: signature.id, type: 'SIGNATURE', value: pngDataUrl(80, 30) }],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.workflowStatus).toBe('COMPLETED');
  return workflow;
}

async function sealJobs(workflowId: number): Promise<{ state: string; retryCount: number }[]> {
  const { rows } = await t.platform.database.sql.executeSql(
    "select state, retry_count from pgboss.job where name = 'workflow.seal' and data->>'workflowId' = $1",
    [String(workflowId)],
  );
  return rows.map((r) => ({ state: r.state, retryCount: r.retry_count }));
}

async function waitForJobState(workflowId: number, state: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const jobs = await sealJobs(workflowId);
    if (jobs.some((j) => j.state === state)) return;
    if (Date.now() > deadline) throw new Error(`seal job never reached ${state}: ${JSON.stringify(jobs)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Lets the back-off elapse: the waiting retry runs now; `last` makes it the final attempt. */
async function elapseBackoff(workflowId: number, options: { last?: boolean } = {}) {
  await t.platform.database.sql.executeSql(
    `update pgboss.job set start_after = now()${options.last ? ', retry_count = retry_limit - 1' : ''} where name = 'workflow.seal' and state = 'retry' and data->>'workflowId' = $1`,
    [String(workflowId)],
  );
  t.platform.jobs.notify(SEAL_JOB);
}

describe('seals awaiting the operator', { timeout: 120_000 }, () => {
  it('lists FAILED and PENDING seals with their state, error, failed runs and job; reseal seals them; nothing else is resealable', async () => {
    // 1. A seal that failed after its last attempt.
    const failed = await selfSigned('Failed seal');
    await waitForJobState(failed.id, 'retry');
    await elapseBackoff(failed.id, { last: true });
    await waitForJobState(failed.id, 'completed');
    expect(await workflowRow(t, failed.id)).toMatchObject({ status: 'COMPLETED', sealStatus: 'FAILED' });
    // 2. A seal still retrying (its job waits out the back-off).
    const retrying = await selfSigned('Retrying seal');
    await waitForJobState(retrying.id, 'retry');
    // 3. A seal PENDING with no job left (an instance killed during its last attempt).
    const orphan = await createDraftWorkflow(t, owner, { name: 'Orphaned seal' });
    await setWorkflow(t, orphan.workflow.id, { status: 'COMPLETED', completedAt: new Date(), sealStatus: 'PENDING' });
    // Not waiting: a draft, and a sealed workflow.
    await createDraftWorkflow(t, owner, { name: 'Draft' });

    const list = await admin('GET', '/admin/v1/workflows/awaiting-seal');
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.totalElements).toBe(3);
    const failedRow = await workflowRow(t, failed.id);
    expect(list.body.content).toEqual([
      {
        workflowId: failed.id,
        organizationId: owner.organizationId,
        ownerUserId: owner.userId,
        name: 'Failed seal',
        status: 'COMPLETED',
        completedAt: failedRow.completedAt!.toISOString(),
        sealStatus: 'FAILED',
        sealError: failedRow.sealError,
        failedRuns: 1,
        sealJobLive: false,
      },
      expect.objectContaining({
        workflowId: retrying.id,
        sealStatus: 'PENDING',
        sealError: null,
        failedRuns: 0,
        sealJobLive: true,
      }),
      expect.objectContaining({
        workflowId: orphan.workflow.id,
        sealStatus: 'PENDING',
        failedRuns: 0,
        sealJobLive: false,
      }),
    ]);
    expect(failedRow.sealError).toBeTruthy();
    expect((await admin('GET', '/admin/v1/workflows/awaiting-seal?sealStatus=FAILED')).body).toMatchObject({
      totalElements: 1,
      content: [{ workflowId: failed.id }],
    });
    expect((await admin('GET', '/admin/v1/workflows/awaiting-seal?page=1&size=2')).body).toMatchObject({
      totalElements: 3,
      content: [{ workflowId: orphan.workflow.id }],
    });

    tsaUp = true;
    // A live job is not doubled; the orphan gets one; the failed seal goes back to PENDING with an audit row.
    const again = await admin('POST', `/admin/v1/workflows/${retrying.id}/reseal`);
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    expect(again.body).toEqual({ workflowId: retrying.id, queued: false, sealStatus: 'PENDING' });
    expect((await admin('POST', `/admin/v1/workflows/${orphan.workflow.id}/reseal`)).body).toEqual({
      workflowId: orphan.workflow.id,
      queued: true,
      sealStatus: 'PENDING',
    });
    const resealed = await admin('POST', `/admin/v1/workflows/${failed.id}/reseal`);
    expect(resealed.status).toBe(202);
    expect(resealed.body).toEqual({ workflowId: failed.id, queued: true, sealStatus: 'PENDING' });

    const sealed = await waitForSeal(t, failed.id);
    expect(sealed).toMatchObject({ sealStatus: 'SEALED', sealError: null });
    const [doc] = await documentRows(t, failed.id);
    expect((await pdfsig(await t.platform.blobs.get(doc.sealedBlobKey!))).allValid).toBe(true);
    const trail = await t.platform.db.select().from(activities).where(eq(activities.workflowId, failed.id));
    expect(trail.map((a) => a.kind).filter((k) => k.startsWith('SEAL_'))).toEqual(['SEAL_FAILED', 'SEAL_REQUESTED']);
    expect((await waitForSeal(t, orphan.workflow.id)).sealStatus).toBe('SEALED');
    await elapseBackoff(retrying.id);
    expect((await waitForSeal(t, retrying.id)).sealStatus).toBe('SEALED');
    expect((await admin('GET', '/admin/v1/workflows/awaiting-seal')).body).toEqual({ content: [], totalElements: 0 });

    // Nothing to seal: a sealed workflow, a draft; no such workflow.
    const sealedAgain = await admin('POST', `/admin/v1/workflows/${failed.id}/reseal`);
    expect(sealedAgain.status).toBe(400);
    expect(sealedAgain.body).toMatchObject({ message: 'INVALID_WORKFLOW_STATUS' });
    const draft = await createDraftWorkflow(t, owner);
    expect((await admin('POST', `/admin/v1/workflows/${draft.workflow.id}/reseal`)).status).toBe(400);
    expect((await admin('POST', '/admin/v1/workflows/2147483647/reseal')).status).toBe(404);
    expect((await admin('POST', '/admin/v1/workflows/0/reseal')).status).toBe(400);
    // The owner's token does not open it.
    expect((await t.request('POST', `/admin/v1/workflows/${failed.id}/reseal`, { token: owner.token })).status).toBe(
      401,
    );
  });
});
