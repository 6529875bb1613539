import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { documents, organizations, packages } from '../../src/platform/db/schema/index.ts';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { commence, draftForSending, guestFromMail, linkFromMail, onlyMail } from '../helpers/signing.ts';

async function credits(t: TestApp, organizationId: number): Promise<number> {
  const [row] = await t.platform.db
    .select({ credits: organizations.credits })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row.credits;
}

async function recipientStatuses(t: TestApp, token: string, workflowId: number): Promise<Record<string, string>> {
  const res = await t.request('GET', `/workflow/v1/${workflowId}/recipients`, { token });
  expect(res.status).toBe(200);
  return Object.fromEntries(res.body.map((r: any) => [r.name, r.status]));
}

async function historyActions(t: TestApp, token: string, workflowId: number): Promise<string[]> {
  const res = await t.request('GET', `/workflow/v1/${workflowId}/history`, { token });
  expect(res.status).toBe(200);
  return res.body.activities.map((a: any) => a.action);
}

describe('POST /workflow/v1/{id}/commence: ORDERED', () => {
  test('notifies a leading CC row first, then mails only the first action-required recipient, and debits one credit', async ({
    app: t,
    owner,
  }) => {
    const { workflow, rows } = await draftForSending(t, owner, {
      sequence: 'ORDERED',
      name: 'Office lease',
      recipients: [
        { name: 'Carol Copy', role: 'CC' },
        { name: 'Sam Signer' },
        { name: 'Amy Approver', role: 'APPROVER' },
        { name: 'Dan Copy', role: 'CC' },
      ],
    });
    const [carol, sam, amy, dan] = rows;
    const before = await credits(t, owner.organizationId);

    const res = await commence(t, owner, workflow.id, {
      title: 'Please sign the lease',
      message: 'Two copies, one for each of us.',
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toMatchObject({
      workflowId: workflow.id,
      status: 'SENT',
      dispatchedRecipientIds: [sam.id],
      credits: before - 1,
    });
    expect(new Date(res.body.sentAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(await credits(t, owner.organizationId)).toBe(before - 1);

    const ccMail = await onlyMail(t, carol.email, 'CC_NOTIFICATION');
    const commenceMail = await onlyMail(t, sam.email, 'COMMENCE');
    expect(ccMail.id).toBeLessThan(commenceMail.id);
    expect(commenceMail.subject).toContain('Please sign the lease');
    expect(commenceMail.textBody).toContain('Two copies, one for each of us.');
    expect(commenceMail.textBody).toContain(`${t.config.publicUrl}/sign/`);
    expect(commenceMail.workflowId).toBe(workflow.id);
    expect(commenceMail.status).toBe('SENT');
    expect(await t.mails({ to: amy.email })).toHaveLength(0);
    expect(await t.mails({ to: dan.email })).toHaveLength(0);

    expect(await recipientStatuses(t, owner.token, workflow.id)).toEqual({
      'Carol Copy': 'SKIPPED',
      'Sam Signer': 'SENT',
      'Amy Approver': 'PENDING',
      'Dan Copy': 'PENDING',
    });
    expect(await historyActions(t, owner.token, workflow.id)).toContain('Sent');
  });

  test('dispatches the next recipient when one finishes, notifying the CC row reached on the way', async ({
    app: t,
    owner,
  }) => {
    const { workflow, rows } = await draftForSending(t, owner, {
      sequence: 'ORDERED',
      recipients: [
        { name: 'Amy Approver', role: 'APPROVER' },
        { name: 'Carl Copy', role: 'CC' },
        { name: 'Sue Signer' },
      ],
    });
    const [amy, carl, sue] = rows;
    expect((await commence(t, owner, workflow.id)).status).toBe(200);
    expect(await t.mails({ to: sue.email })).toHaveLength(0);
    expect(await t.mails({ to: carl.email })).toHaveLength(0);

    const { token } = await guestFromMail(t, amy.email);
    const approved = await t.request('POST', `/workflow/v1/${workflow.id}/approve`, {
      token,
      body: { comment: 'Fine by me' },
    });
    expect(approved.status, approved.raw).toBe(200);

    await onlyMail(t, carl.email, 'CC_NOTIFICATION');
    await onlyMail(t, sue.email, 'COMMENCE');
    expect(await recipientStatuses(t, owner.token, workflow.id)).toEqual({
      'Amy Approver': 'APPROVED',
      'Carl Copy': 'SKIPPED',
      'Sue Signer': 'SENT',
    });
  });
});

describe('POST /workflow/v1/{id}/commence: UNORDERED', () => {
  test('mails every signer and approver at once, notifies CC rows, and uses the workflow name as the subject without a title', async ({
    app: t,
    owner,
  }) => {
    const { workflow, rows } = await draftForSending(t, owner, {
      sequence: 'UNORDERED',
      name: 'Team charter',
      recipients: [
        { name: 'Ann Signer' },
        { name: 'Ben Signer' },
        { name: 'Cid Approver', role: 'APPROVER' },
        { name: 'Dot Copy', role: 'CC' },
      ],
    });
    const [ann, ben, cid, dot] = rows;
    const res = await commence(t, owner, workflow.id, {});
    expect(res.status, res.raw).toBe(200);
    expect([...res.body.dispatchedRecipientIds].sort()).toEqual([ann.id, ben.id, cid.id].sort());

    const links = new Set<string>();
    for (const row of [ann, ben, cid]) {
      const mail = await onlyMail(t, row.email, 'COMMENCE');
      expect(mail.subject).toContain('Team charter');
      expect(mail.recipientId).toBe(row.id);
      links.add(linkFromMail(t, mail).code);
    }
    expect(links.size).toBe(3);
    await onlyMail(t, dot.email, 'CC_NOTIFICATION');
    expect(await t.mails({ to: dot.email, kind: 'COMMENCE' })).toHaveLength(0);
    expect(await recipientStatuses(t, owner.token, workflow.id)).toEqual({
      'Ann Signer': 'SENT',
      'Ben Signer': 'SENT',
      'Cid Approver': 'SENT',
      'Dot Copy': 'SKIPPED',
    });
  });
});

describe('POST /workflow/v1/{id}/commence: refusals', () => {
  async function expectRefused(
    t: TestApp,
    owner: TestUser,
    workflowId: number,
    status: number,
    message: string,
    token = owner.token,
  ) {
    const res = await t.request('POST', `/workflow/v1/${workflowId}/commence`, { token, body: { title: 'x' } });
    expect(res.status, res.raw).toBe(status);
    expect(res.body).toMatchObject({ success: false, httpStatusCode: status, message });
    return res;
  }

  test('refuses a workflow without recipients or with only CC rows; a signer without a signature field does not stop it', async ({
    app: t,
    owner,
  }) => {
    const empty = await createDraftWorkflow(t, owner);
    await expectRefused(t, owner, empty.workflow.id, 400, 'OPERATION_IS_NOT_ALLOWED');

    const ccOnly = await draftForSending(t, owner, { recipients: [{ name: 'Cee Copy', role: 'CC' }] });
    await expectRefused(t, owner, ccOnly.workflow.id, 400, 'OPERATION_IS_NOT_ALLOWED');

    // RUNTIME.md "Request shapes": commence refuses only for SPEC.md's conditions (test/conformance/commence-without-signature-field.test.ts).
    const unsigned = await draftForSending(t, owner, {
      recipients: [
        { name: 'Has Field' },
        { name: 'No Field', signatureField: false },
        { name: 'Ok Approver', role: 'APPROVER' },
      ],
    });
    expect(
      (
        await t.request('POST', `/workflow/v1/${unsigned.workflow.id}/commence`, {
          token: owner.token,
          body: { title: 'x' },
        })
      ).status,
    ).toBe(200);
  });

  test('refuses a workflow without a document', async ({ app: t, owner }) => {
    const { workflow, document } = await draftForSending(t, owner, { recipients: [{ name: 'Sam Signer' }] });
    await t.platform.db.delete(documents).where(eq(documents.id, document.id));
    await expectRefused(t, owner, workflow.id, 400, 'OPERATION_IS_NOT_ALLOWED');
  });

  test('refuses SELF workflows; a SURVEY goes through the Power Survey checks (test/surveys)', async ({
    app: t,
    owner,
  }) => {
    const self = await createDraftWorkflow(t, owner, { sequence: 'SELF' });
    await expectRefused(t, owner, self.workflow.id, 400, 'OPERATION_IS_NOT_ALLOWED');
    const survey = await createDraftWorkflow(t, owner, { sequence: 'SURVEY' });
    await expectRefused(t, owner, survey.workflow.id, 400, 'SURVEY_SIGNATURE_FIELD');
  });

  test('refuses a second commence with INVALID_WORKFLOW_STATUS and debits nothing more', async ({ app: t, owner }) => {
    const { workflow } = await draftForSending(t, owner, { recipients: [{ name: 'Sam Signer' }] });
    expect((await commence(t, owner, workflow.id)).status).toBe(200);
    const after = await credits(t, owner.organizationId);
    await expectRefused(t, owner, workflow.id, 400, 'INVALID_WORKFLOW_STATUS');
    expect(await credits(t, owner.organizationId)).toBe(after);
  });

  test('answers INVALID_WORKFLOW_OWNER to a recipient who can see the workflow, 404 to outsiders, 403 to a guest token', async ({
    app: t,
    owner,
  }) => {
    const recipientUser = await createUser(t, { name: 'Rita Recipient' });
    const outsider = await createUser(t, { name: 'Otto Outsider' });
    const { workflow } = await draftForSending(t, owner, { recipients: [{ name: 'Sam Signer' }] });
    await insertRecipient(t, workflow.id, {
      userId: recipientUser.userId,
      name: recipientUser.name,
      email: recipientUser.email,
      role: 'APPROVER',
    });
    // While DRAFT the recipient cannot see it at all.
    await expectRefused(t, owner, workflow.id, 404, 'NOT_FOUND', recipientUser.token);
    await expectRefused(t, owner, workflow.id, 404, 'NOT_FOUND', outsider.token);
    expect((await commence(t, owner, workflow.id)).status).toBe(200);
    await expectRefused(t, owner, workflow.id, 400, 'INVALID_WORKFLOW_OWNER', recipientUser.token);
    await expectRefused(t, owner, workflow.id, 404, 'NOT_FOUND', outsider.token);
    const { token } = await guestFromMail(t, recipientUser.email);
    await expectRefused(t, owner, workflow.id, 403, 'USER_NOT_HAVE_ACCESS', token);
    await expectRefused(t, owner, 999_999, 404, 'NOT_FOUND');
  });

  test('refuses an expired package (16003), a plan without sharing, and an empty credit balance, changing nothing', async ({
    app: t,
    owner,
  }) => {
    const sender = await createUser(t, { name: 'Pat Plan' });
    const { workflow, rows } = await draftForSending(t, sender, { recipients: [{ name: 'Sam Signer' }] });
    const [org] = await t.platform.db.select().from(organizations).where(eq(organizations.id, sender.organizationId));

    await t.platform.db
      .update(organizations)
      .set({ packageExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(organizations.id, org.id));
    const expired = await expectRefused(t, owner, workflow.id, 400, 'PACKAGE_EXPIRED', sender.token);
    expect(expired.body.errorCode).toBe(16003);
    await t.platform.db
      .update(organizations)
      .set({ packageExpiresAt: org.packageExpiresAt })
      .where(eq(organizations.id, org.id));

    const [noSharing] = await t.platform.db
      .insert(packages)
      .values({ name: 'Viewer', credits: 10, duration: 30, servicePlan: 'VIEW', preset: false, allowSharing: false })
      .returning();
    await t.platform.db.update(organizations).set({ packageId: noSharing.id }).where(eq(organizations.id, org.id));
    await expectRefused(t, owner, workflow.id, 400, 'SHARING_NOT_ALLOWED', sender.token);
    await t.platform.db.update(organizations).set({ packageId: org.packageId }).where(eq(organizations.id, org.id));

    await t.platform.db.update(organizations).set({ credits: 0 }).where(eq(organizations.id, org.id));
    await expectRefused(t, owner, workflow.id, 400, 'INSUFFICIENT_CREDITS', sender.token);
    expect(await credits(t, org.id)).toBe(0);

    expect(await t.mails({ to: rows[0].email })).toHaveLength(0);
    expect(await recipientStatuses(t, sender.token, workflow.id)).toEqual({ 'Sam Signer': 'PENDING' });
    expect(await historyActions(t, sender.token, workflow.id)).not.toContain('Sent');

    await t.platform.db.update(organizations).set({ credits: 1 }).where(eq(organizations.id, org.id));
    const sent = await commence(t, sender, workflow.id);
    expect(sent.status, sent.raw).toBe(200);
    expect(sent.body.credits).toBe(0);
  });

  test('rejects a malformed body with 400 BAD_REQUEST_BODY', async ({ app: t, owner }) => {
    const { workflow } = await draftForSending(t, owner, { recipients: [{ name: 'Sam Signer' }] });
    for (const body of [{ title: 42 }, { title: 'x'.repeat(201) }, { message: ['a'] }]) {
      const res = await t.request('POST', `/workflow/v1/${workflow.id}/commence`, { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe('BAD_REQUEST_BODY');
    }
  });
});

describe('POST /workflow/v1/{id}/commence: concurrency', () => {
  test('two simultaneous commences of one workflow: exactly one succeeds, one credit, one set of mails', async ({
    app: t,
  }) => {
    const sender = await createUser(t, { name: 'Rae Racer' });
    const { workflow, rows } = await draftForSending(t, sender, { recipients: [{ name: 'Sam Signer' }] });
    const before = await credits(t, sender.organizationId);
    const results = await Promise.all([commence(t, sender, workflow.id), commence(t, sender, workflow.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.status === 400)!.body.message).toBe('INVALID_WORKFLOW_STATUS');
    expect(await credits(t, sender.organizationId)).toBe(before - 1);
    await onlyMail(t, rows[0].email, 'COMMENCE');
  });

  test('the last credit goes to exactly one of two workflows sent at the same time', async ({ app: t }) => {
    const sender = await createUser(t, { name: 'Lu Lastcredit' });
    const first = await draftForSending(t, sender, { recipients: [{ name: 'Sam Signer' }] });
    const second = await draftForSending(t, sender, { recipients: [{ name: 'Sal Signer' }] });
    await t.platform.db.update(organizations).set({ credits: 1 }).where(eq(organizations.id, sender.organizationId));
    const results = await Promise.all([
      commence(t, sender, first.workflow.id),
      commence(t, sender, second.workflow.id),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.status === 400)!.body.message).toBe('INSUFFICIENT_CREDITS');
    expect(await credits(t, sender.organizationId)).toBe(0);
    const mailed =
      (await t.mails({ to: first.rows[0].email, kind: 'COMMENCE' })).length +
      (await t.mails({ to: second.rows[0].email, kind: 'COMMENCE' })).length;
    expect(mailed).toBe(1);
  });
});
