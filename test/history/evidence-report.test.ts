import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { fileUser, test as base } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, guestToken, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { addActivity, markCompleted, markSent, setRecipient, setWorkflow } from '../helpers/envelope-states.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { loadSealIdentity } from '../../src/platform/crypto/seal-identity.ts';

const test = base.override({ ownerName: 'Olivia Owner' }).extend<{ signer: TestUser; outsider: TestUser }>({
  signer: fileUser({ name: 'Sam Signer' }),
  outsider: fileUser(),
});

const report = (t: TestApp, id: number, token: string) =>
  t.request('GET', `/workflow/v1/evidence-report/${id}`, { token });
const CONSENT_TEXT =
  'I agree that my electronic signature is the legal equivalent of my handwritten signature & I consent to "electronic" records.';

/** A completed two-party envelope with a realistic trail; the signer's name carries markup. */
async function completedEnvelope(t: TestApp, owner: TestUser, signer: TestUser, signerName = 'Sam Signer') {
  const { workflow, document } = await createDraftWorkflow(t, owner, { name: 'Supply <b>contract</b>' });
  const recipient = await insertRecipient(t, workflow.id, {
    userId: signer.userId,
    name: signerName,
    email: signer.email,
  });
  const base = { workflowId: workflow.id };
  await addActivity(t, {
    ...base,
    kind: 'DOCUMENT_UPLOADED',
    action: 'Created',
    sentence: 'Olivia Owner created the envelope',
    userId: owner.userId,
    userName: owner.name,
    context: { ipAddress: '203.0.113.1', accessChannel: 'web', userAgent: 'Mozilla/5.0' },
  });
  await markSent(t, workflow.id, [recipient.id]);
  await addActivity(t, {
    ...base,
    kind: 'WORKFLOW_SENT',
    action: 'Sent',
    sentence: 'Olivia Owner sent the envelope',
    userId: owner.userId,
    userName: owner.name,
    status: 'SENT',
  });
  const textHash = crypto.createHash('sha256').update(CONSENT_TEXT).digest('hex');
  await addActivity(t, {
    ...base,
    kind: 'CONSENT_ACCEPTED',
    action: 'Consent accepted',
    sentence: `${signerName} accepted the disclosure`,
    recipientId: recipient.id,
    userName: signerName,
    consent: {
      recipientName: signerName,
      recipientEmail: signer.email,
      ipAddress: '198.51.100.9',
      accessChannel: 'mobile',
      source: 'fields/save',
      evidence: 'checkbox',
      textHash,
      text: CONSENT_TEXT,
      userAgent: 'okhttp/4.12 <x>',
    },
    context: { ipAddress: '198.51.100.9', accessChannel: 'mobile', userAgent: 'okhttp/4.12 <x>' },
  });
  await addActivity(t, {
    ...base,
    kind: 'SIGNED',
    action: 'Signed',
    sentence: `${signerName} signed`,
    recipientId: recipient.id,
    userName: signerName,
    status: 'SIGNED',
    context: { ipAddress: '198.51.100.9', accessChannel: 'mobile', userAgent: 'okhttp/4.12 <x>' },
  });
  await addActivity(t, {
    ...base,
    kind: 'COMPLETED',
    action: 'Completed',
    sentence: 'The envelope was completed',
    status: 'COMPLETED',
  });
  await setRecipient(t, recipient.id, { status: 'SIGNED', actedAt: new Date(), viewedAt: new Date() });
  const sealedKey = await markCompleted(t, workflow.id, document.id, await makePdf(2));
  return { workflow, document, recipient, sealedKey, textHash };
}

describe('GET /workflow/v1/evidence-report/{id}', () => {
  test('answers 400 INVALID_WORKFLOW_STATUS before completion', async ({ app: t, owner }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const draft = await report(t, workflow.id, owner.token);
    expect(draft.status).toBe(400);
    expect(draft.body.message).toBe('INVALID_WORKFLOW_STATUS');
    await setWorkflow(t, workflow.id, { status: 'SENT' });
    expect((await report(t, workflow.id, owner.token)).body.message).toBe('INVALID_WORKFLOW_STATUS');
  });

  test('reports every event, the consent, the document hashes, the seal certificate and an intact chain', async ({
    app: t,
    owner,
    signer,
  }) => {
    const { workflow, document, sealedKey, textHash } = await completedEnvelope(t, owner, signer);
    const res = await report(t, workflow.id, owner.token);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const html: string = res.raw;
    expect(html).toContain('INTACT');
    expect(html).not.toContain('TAMPERED');
    for (const sentence of [
      'Olivia Owner created the envelope',
      'Olivia Owner sent the envelope',
      'Sam Signer accepted the disclosure',
      'Sam Signer signed',
      'The envelope was completed',
    ]) {
      expect(html).toContain(sentence);
    }
    expect(html).toContain('203.0.113.1');
    expect(html).toContain('198.51.100.9');
    expect(html).toContain('okhttp/4.12 &lt;x&gt;');
    expect(html).toContain(document.blobKey);
    expect(html).toContain(sealedKey);
    expect(html).toContain(textHash);
    expect(html).toContain('matches the text below');
    expect(html).toContain(
      'I agree that my electronic signature is the legal equivalent of my handwritten signature &amp; I consent to &quot;electronic&quot; records.',
    );
    const identity = await loadSealIdentity(t.config.dataDir);
    expect(html).toContain(identity.fingerprintSha256);
    expect(html).toContain(identity.certificatePem.trim().split('\n')[1]);
    expect(html).toContain('Supply &lt;b&gt;contract&lt;/b&gt;');
    expect(html).not.toContain('<b>contract</b>');
  });

  test('escapes markup in user-supplied names', async ({ app: t, owner, signer }) => {
    const { workflow } = await completedEnvelope(t, owner, signer, '<script>alert(1)</script>');
    const html: string = (await report(t, workflow.id, owner.token)).raw;
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  test('flags an activity row edited in the database as TAMPERED at its row', async ({ app: t, owner, signer }) => {
    const { workflow } = await completedEnvelope(t, owner, signer);
    const rows = await t.platform.db.execute(
      sql`select id from activities where workflow_id = ${workflow.id} order by id`,
    );
    const ids = (rows as any).rows.map((r: any) => Number(r.id));
    await t.platform.db.execute(sql`update activities set sentence = 'Sam Signer declined' where id = ${ids[3]}`);
    const html: string = (await report(t, workflow.id, owner.token)).raw;
    expect(html).toContain('TAMPERED');
    expect(html).toContain(`broken at row 4 (activity id ${ids[3]})`);
    expect(html).not.toContain('INTACT');
  });

  test('flags a deleted activity row at the row after it', async ({ app: t, owner, signer }) => {
    const { workflow } = await completedEnvelope(t, owner, signer);
    const rows = await t.platform.db.execute(
      sql`select id from activities where workflow_id = ${workflow.id} order by id`,
    );
    const ids = (rows as any).rows.map((r: any) => Number(r.id));
    await t.platform.db.execute(sql`delete from activities where id = ${ids[1]}`);
    const html: string = (await report(t, workflow.id, owner.token)).raw;
    expect(html).toContain(`broken at row 2 (activity id ${ids[2]})`);
  });

  test('follows the history access rules', async ({ app: t, owner, signer, outsider }) => {
    const { workflow, recipient } = await completedEnvelope(t, owner, signer);
    expect((await report(t, workflow.id, signer.token)).status).toBe(200);
    expect((await report(t, workflow.id, await guestToken(t, recipient))).status).toBe(200);
    expect((await report(t, workflow.id, outsider.token)).status).toBe(404);
    const self = await createDraftWorkflow(t, owner, { sequence: 'SELF' });
    await setWorkflow(t, self.workflow.id, { status: 'COMPLETED' });
    expect((await report(t, self.workflow.id, outsider.token)).body.message).toBe('INVALID_WORKFLOW_OWNER');
  });
});
