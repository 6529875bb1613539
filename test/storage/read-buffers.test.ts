import { eq } from 'drizzle-orm';
import { fields } from '../../src/platform/db/schema/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReadBuffers } from '../../src/platform/storage/read-buffers.ts';
import { sealWorkflow, type SealJobDeps } from '../../src/modules/signing/seal-job.ts';
import { createSigningCodes, loadSigningCodeKey } from '../../src/modules/signing/signing-codes.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertField, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { setWorkflow } from '../helpers/envelope-states.ts';
import { documentRows } from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';
import { buildPdf } from '../helpers/pdf-fixtures.ts';

describe('read buffers', () => {
  it('lends one kept buffer again once released, a fresh one to a reader that overlaps, and keeps at most `keep`', () => {
    const buffers = createReadBuffers({ minBytes: 1000, keep: 1 });
    const first = buffers.lease();
    const a = first.into(5000);
    expect(a.byteLength).toBeGreaterThanOrEqual(5000);
    const second = buffers.lease();
    const b = second.into(5000);
    // Overlapping readers never share memory.
    expect(b.buffer).not.toBe(a.buffer);
    first.release();
    second.release();
    // One kept (keep: 1): the next reader gets it back; a further overlapping one gets a fresh buffer.
    const third = buffers.lease();
    const c = third.into(4000);
    expect(c.buffer === a.buffer || c.buffer === b.buffer).toBe(true);
    const fourth = buffers.lease();
    expect(fourth.into(4000).buffer).not.toBe(c.buffer);
    // Small reads are not pooled; a larger read than the held buffer gets a larger one.
    expect(third.into(10).buffer).not.toBe(c.buffer);
    expect(third.into(3 * 2 ** 20).byteLength).toBeGreaterThanOrEqual(3 * 2 ** 20);
  });
});

describe('seals of large documents read into reused buffers', () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t, { name: 'Lars Large' });
  });
  afterAll(async () => t?.close());

  it('seal each document over its own source, at once and one after another, every seal valid', async () => {
    const deps: SealJobDeps = {
      db: t.platform.db,
      jobs: t.platform.jobs,
      blobs: t.platform.blobs,
      outbox: t.platform.outbox,
      codes: createSigningCodes(loadSigningCodeKey(t.config.dataDir)),
      publicUrl: t.config.publicUrl,
      seal: t.platform.seal,
      log: () => {},
    };
    // 5-7 MB each: above the seal's pooling threshold (4 MB).
    const sources = await Promise.all([5, 5, 6, 5, 7].map((mb) => buildPdf(1, mb * 2 ** 20)));
    const drafts = [];
    for (const pdf of sources) {
      const draft = await createDraftWorkflow(t, owner, { pdf });
      const signer = await createUser(t);
      const row = await insertRecipient(t, draft.workflow.id, {
        userId: signer.userId,
        name: signer.name,
        email: signer.email,
        role: 'SIGNER',
      });
      const field = await insertField(t, {
        workflowId: draft.workflow.id,
        documentId: draft.document.id,
        recipientId: row.id,
        fieldType: 'TEXT',
      });
      // A value to draw: the drawing reads the source too.
      await t.platform.db
        .update(fields)
        .set({ value: `value of ${draft.workflow.id}` })
        .where(eq(fields.id, field.id));
      await setWorkflow(t, draft.workflow.id, { status: 'COMPLETED', completedAt: new Date(), sealStatus: 'PENDING' });
      drafts.push(draft);
    }
    // Three at once (more readers than kept buffers), then two after them (buffers lent again).
    await Promise.all(drafts.slice(0, 3).map(({ workflow }) => sealWorkflow(deps, workflow.id)));
    for (const { workflow } of drafts.slice(3)) await sealWorkflow(deps, workflow.id);
    for (const [i, { workflow }] of drafts.entries()) {
      const [doc] = await documentRows(t, workflow.id);
      const sealed = await t.platform.blobs.get(doc.sealedBlobKey!);
      // Its own source, byte for byte, then the update: no other seal's bytes.
      expect(Buffer.from(sealed.subarray(0, sources[i].length)).equals(Buffer.from(sources[i])), `document ${i}`).toBe(
        true,
      );
      expect((await pdfsig(sealed)).allValid, `document ${i}`).toBe(true);
    }
  }, 120_000);
});
