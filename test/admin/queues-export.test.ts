import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertField, type TestUser } from '../helpers/factories.ts';
import { documentRows, pngDataUrl, waitForSeal } from '../helpers/ceremony.ts';
import { draftForSending } from '../helpers/signing.ts';
import { markSent, setWorkflow } from '../helpers/envelope-states.ts';
import { SEAL_JOB } from '../../src/modules/signing/completion.ts';

/**
 * GET /admin/v1/queues (each pg-boss queue's depth and oldest waiting job) and GET /admin/v1/organizations/{orgId}/export
 * (the organization's envelopes with their evidence, a zip streamed as it is written).
 */
const ADMIN_TOKEN = crypto.randomBytes(24).toString('hex');
let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestApp({ adminToken: ADMIN_TOKEN });
  owner = await createUser(t, { name: 'Exa Exporter' });
}, 120_000);
afterAll(async () => t?.close());

const admin = (method: string, url: string) => t.request(method, url, { token: ADMIN_TOKEN });

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
  return waitForSeal(t, workflow.id);
}

describe('GET /admin/v1/queues', () => {
  it("answers every queue's depth by state and the oldest waiting job's creation time and age", async () => {
    await t.drainJobs();
    const empty = await admin('GET', '/admin/v1/queues');
    expect(empty.status, JSON.stringify(empty.body)).toBe(200);
    const names = empty.body.queues.map((q: { queue: string }) => q.queue);
    expect(names).toEqual(expect.arrayContaining([SEAL_JOB.name, 'mail.deliver', 'reminders.sweep']));
    expect(names).toEqual([...names].sort());
    expect(empty.body.queues.find((q: { queue: string }) => q.queue === SEAL_JOB.name)).toMatchObject({
      queued: 0,
      active: 0,
      created: 0,
      retry: 0,
      oldestWaitingCreatedAt: null,
      oldestWaitingAgeSeconds: null,
    });

    // Two seal jobs held an hour (waiting, deferred), one of them then failed.
    const later = new Date(Date.now() + 3600_000);
    await t.platform.jobs.send(null, SEAL_JOB, { workflowId: 2147483000 }, { startAfter: later });
    const failedId = await t.platform.jobs.send(null, SEAL_JOB, { workflowId: 2147483001 }, { startAfter: later });
    await t.platform.database.sql.executeSql(
      "update pgboss.job set state = 'failed', completed_on = now() where name = $1 and id = $2",
      [SEAL_JOB.name, failedId],
    );
    const res = await admin('GET', '/admin/v1/queues');
    const seal = res.body.queues.find((q: { queue: string }) => q.queue === SEAL_JOB.name);
    expect(seal).toMatchObject({ queued: 1, deferred: 1, active: 0, created: 1, retry: 0, failed: 1 });
    expect(seal.total).toBeGreaterThanOrEqual(2);
    expect(Date.parse(seal.oldestWaitingCreatedAt)).toBeLessThanOrEqual(Date.parse(res.body.countedAt));
    expect(seal.oldestWaitingAgeSeconds).toBeGreaterThanOrEqual(0);
    expect(seal.oldestWaitingAgeSeconds).toBeLessThan(60);
    expect((await t.request('GET', '/admin/v1/queues', { token: owner.token })).status).toBe(401);
    // Not left for the tests that wait for the queue to drain.
    await t.platform.database.sql.executeSql(
      "delete from pgboss.job where name = $1 and (data->>'workflowId')::int >= 2147483000",
      [SEAL_JOB.name],
    );
  });
});

describe('GET /admin/v1/organizations/{orgId}/export', { timeout: 120_000 }, () => {
  it('streams a zip of every envelope: sealed documents, audit trail, certificate, evidence report, manifest', async () => {
    const sealed = await selfSigned('Sealed contract');
    const draft = await createDraftWorkflow(t, owner, { name: 'Draft / offer' });
    const sent = await draftForSending(t, owner, { name: 'Sent out', recipients: [{ name: 'Sam Signer' }] });
    await markSent(t, sent.workflow.id, [sent.rows[0].id]);
    const pending = await createDraftWorkflow(t, owner, { name: 'Pending seal' });
    await setWorkflow(t, pending.workflow.id, { status: 'COMPLETED', completedAt: new Date(), sealStatus: 'PENDING' });
    const deleted = await createDraftWorkflow(t, owner, { name: 'Deleted one' });
    await setWorkflow(t, deleted.workflow.id, { deletedAt: new Date() });
    const stranger = await createUser(t);
    await createDraftWorkflow(t, stranger, { name: 'Not theirs' });

    // Over a real socket: chunked, no length known in advance.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const { headers, body } = await new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>(
      (resolve, reject) => {
        http
          .get(
            `http://127.0.0.1:${port}/admin/v1/organizations/${owner.organizationId}/export`,
            { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
            (response) => {
              const chunks: Buffer[] = [];
              response.on('data', (chunk: Buffer) => chunks.push(chunk));
              response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
              response.on('error', reject);
            },
          )
          .on('error', reject);
      },
    );
    expect(headers['content-type']).toBe('application/zip');
    expect(headers['content-length']).toBeUndefined();
    expect(headers['transfer-encoding']).toBe('chunked');
    expect(headers['content-disposition']).toMatch(
      new RegExp(
        `^attachment; filename="organization-${owner.organizationId}-Exa Exporter_s organization-\\d{4}-\\d{2}-\\d{2}\\.zip"`,
      ),
    );

    const files = unzipSync(new Uint8Array(body));
    const manifest = JSON.parse(new TextDecoder().decode(files['manifest.json']));
    expect(manifest.organization).toEqual({ id: owner.organizationId, name: "Exa Exporter's organization" });
    expect(manifest.envelopes.map((e: { workflowId: number }) => e.workflowId)).toEqual([
      sealed.id,
      draft.workflow.id,
      sent.workflow.id,
      pending.workflow.id,
    ]);
    const [sealedEntry, draftEntry, sentEntry, pendingEntry] = manifest.envelopes;

    // The sealed envelope: the sealed PDF as stored, the certificate, the evidence report, the audit trail.
    const [document] = await documentRows(t, sealed.id);
    const sealedPdf = await t.platform.blobs.get(document.sealedBlobKey!);
    expect(sealedEntry).toMatchObject({ status: 'COMPLETED', sealStatus: 'SEALED', missing: [] });
    expect(sealedEntry.files.map((f: { kind: string }) => f.kind)).toEqual([
      'document',
      'audit-trail',
      'certificate-of-completion',
      'evidence-report',
    ]);
    const pdfFile = sealedEntry.files[0];
    expect(pdfFile.path).toBe(`envelopes/${sealed.id}-Sealed contract/documents/${document.id}-Sealed contract.pdf`);
    expect(Buffer.from(files[pdfFile.path]).equals(Buffer.from(sealedPdf))).toBe(true);
    expect(pdfFile.sha256).toBe(document.sealedBlobKey);
    for (const file of sealedEntry.files) {
      expect(files[file.path], file.path).toBeDefined();
      expect(crypto.createHash('sha256').update(files[file.path]).digest('hex')).toBe(file.sha256);
      expect(files[file.path].byteLength).toBe(file.bytes);
    }
    const certificate = files[`envelopes/${sealed.id}-Sealed contract/certificate-of-completion.pdf`];
    expect(new TextDecoder().decode(certificate.slice(0, 5))).toBe('%PDF-');
    expect(new TextDecoder().decode(files[`envelopes/${sealed.id}-Sealed contract/evidence-report.html`])).toContain(
      'Sealed contract',
    );
    const trail = JSON.parse(
      new TextDecoder().decode(files[`envelopes/${sealed.id}-Sealed contract/audit-trail.json`]),
    );
    expect(trail.metadata.workFlowName).toBe('Sealed contract');

    // A draft and a sent envelope: their current documents and audit trail, no certificate yet.
    expect(draftEntry.folder).toBe(`envelopes/${draft.workflow.id}-Draft _ offer`);
    expect(draftEntry.files.map((f: { kind: string }) => f.kind)).toEqual(['document', 'audit-trail']);
    const [draftDocument] = await documentRows(t, draft.workflow.id);
    expect(draftEntry.files[0].sha256).toBe(draftDocument.blobKey);
    expect(sentEntry.files.map((f: { kind: string }) => f.kind)).toEqual(['document', 'audit-trail']);
    // A seal still pending: said so, not waited for.
    expect(pendingEntry.files.map((f: { kind: string }) => f.kind)).toEqual(['audit-trail']);
    expect(pendingEntry.missing.map((m: { kind: string }) => m.kind)).toEqual([
      'document',
      'certificate-of-completion',
      'evidence-report',
    ]);
    expect(Object.keys(files).some((name) => name.includes('Not theirs') || name.includes('Deleted one'))).toBe(false);
  });

  it('a client that goes away mid-export stops it; the service carries on', async () => {
    const port = (t.app.server.address() as AddressInfo).port;
    const received = await new Promise<number>((resolve, reject) => {
      const request = http.get(
        `http://127.0.0.1:${port}/admin/v1/organizations/${owner.organizationId}/export`,
        { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
        (response) => {
          response.once('data', (chunk: Buffer) => {
            request.destroy();
            resolve(chunk.byteLength);
          });
        },
      );
      request.on('error', (error) => {
        if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
      });
    });
    expect(received).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await admin('GET', '/admin/v1/queues')).status).toBe(200);
  });

  it('404 for an unknown organization, in the standard error body; 401 without the admin token', async () => {
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/admin/v1/organizations/${owner.organizationId}/export`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('application/zip');
    expect(head.rawPayload.byteLength).toBe(0);
    const res = await admin('GET', '/admin/v1/organizations/2147483647/export');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ message: 'NOT_FOUND' });
    expect(
      (await t.request('GET', `/admin/v1/organizations/${owner.organizationId}/export`, { token: owner.token })).status,
    ).toBe(401);
  });

  it('a disabled organization is exported too', async () => {
    const other = await createUser(t);
    await createDraftWorkflow(t, other, { name: 'Frozen' });
    expect((await admin('POST', `/admin/v1/organizations/${other.organizationId}/disable`)).status).toBe(200);
    const res = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/organizations/${other.organizationId}/export`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const manifest = JSON.parse(new TextDecoder().decode(files['manifest.json']));
    expect(manifest.envelopes).toHaveLength(1);
    expect(manifest.envelopes[0].files.map((f: { kind: string }) => f.kind)).toEqual(['document', 'audit-trail']);
  });
});
