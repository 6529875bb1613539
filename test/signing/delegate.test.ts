import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { pngDataUrl } from '../helpers/ceremony.ts';
import {
  commence,
  draftForSending,
  guestEmail,
  guestFromMail,
  linkFromMail,
  onlyMail,
  redeem,
} from '../helpers/signing.ts';

const delegate = (t: TestApp, workflowId: number, recipientId: number, token: string, body: unknown) =>
  t.request('POST', `/workflow/v1/${workflowId}/recipients/${recipientId}/delegate`, { token, body });

async function statuses(t: TestApp, owner: TestUser, workflowId: number): Promise<Record<string, string>> {
  const res = await t.request('GET', `/workflow/v1/${workflowId}/recipients`, { token: owner.token });
  return Object.fromEntries(res.body.map((r: any) => [r.name, r.status]));
}

describe('POST /workflow/v1/{id}/recipients/{recipientId}/delegate', () => {
  test('lets a dispatched recipient hand its turn on: the delegate takes order, role and fields and is mailed at once', async ({
    app: t,
    owner,
  }) => {
    const { workflow, rows } = await draftForSending(t, owner, {
      sequence: 'ORDERED',
      recipients: [{ name: 'Sam Signer' }, { name: 'Sue Signer' }],
    });
    const [sam, sue] = rows;
    expect((await commence(t, owner, workflow.id, { title: 'Supply contract' })).status).toBe(200);
    const { token: samToken, code: samCode } = await guestFromMail(t, sam.email);

    const daveEmail = guestEmail('Dave');
    const res = await delegate(t, workflow.id, sam.id, samToken, {
      name: '  Dave Delegate ',
      emailAddress: daveEmail.toUpperCase(),
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Dave Delegate',
      emailAddress: daveEmail,
      recipientRole: 'SIGNER',
      recipientOrder: '1',
      status: 'SENT',
      enforceIdentity: false,
    });
    const daveId = res.body.id;

    const daveMail = await onlyMail(t, daveEmail, 'COMMENCE');
    expect(daveMail.subject).toContain('Supply contract');
    expect(daveMail.textBody).toContain('Sam Signer');
    expect(await t.mails({ to: sue.email })).toHaveLength(0);
    expect(await statuses(t, owner, workflow.id)).toEqual({
      'Sam Signer': 'DELEGATED',
      'Dave Delegate': 'SENT',
      'Sue Signer': 'PENDING',
    });

    const fieldsRes = await t.request('GET', `/workflow/v1/${workflow.id}/fields`, { token: owner.token });
    expect(fieldsRes.status).toBe(200);
    expect(fieldsRes.body.map((f: any) => f.recipientId)).toEqual(expect.arrayContaining([daveId, sue.id]));
    expect(fieldsRes.body.some((f: any) => f.recipientId === sam.id)).toBe(false);

    const history = await t.request('GET', `/workflow/v1/${workflow.id}/history`, { token: owner.token });
    const delegated = history.body.activities.find((a: any) => a.action === 'Delegated');
    expect(delegated.activity).toContain('Dave Delegate');

    // The original can no longer act, and its link no longer redeems.
    expect(
      (await t.request('POST', `/workflow/v1/${workflow.id}/decline`, { token: samToken, body: { reason: 'no' } })).body
        .message,
    ).toBe('OPERATION_IS_NOT_ALLOWED');
    expect((await redeem(t, samCode)).body.message).toBe('LINK_EXPIRED');
    expect(
      (await delegate(t, workflow.id, sam.id, owner.token, { name: 'Eve Other', emailAddress: guestEmail('Eve') })).body
        .message,
    ).toBe('OPERATION_IS_NOT_ALLOWED');

    // The delegate signs its inherited field, and the sequence moves on to Sue.
    const { token: daveToken } = await guestFromMail(t, daveEmail);
    const field = fieldsRes.body.find((f: any) => f.recipientId === daveId);
    const signed = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
      token: daveToken,
      body: { id: field.id, image: pngDataUrl() },
    });
    expect(signed.status, signed.raw).toBe(200);
    await onlyMail(t, sue.email, 'COMMENCE');
  });

  test('lets the owner delegate a row whose turn has not come: the delegate is mailed at its turn', async ({
    app: t,
    owner,
  }) => {
    const { workflow, rows } = await draftForSending(t, owner, {
      sequence: 'ORDERED',
      recipients: [
        { name: 'Amy Approver', role: 'APPROVER' },
        { name: 'Later Signer', enforceIdentity: true },
      ],
    });
    const [amy, later] = rows;
    expect((await commence(t, owner, workflow.id)).status).toBe(200);
    const gusEmail = guestEmail('Gus');
    const res = await delegate(t, workflow.id, later.id, owner.token, { name: 'Gus Guest', emailAddress: gusEmail });
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toMatchObject({ status: 'PENDING', recipientOrder: '2', enforceIdentity: true });
    expect(await t.mails({ to: gusEmail })).toHaveLength(0);

    const { token } = await guestFromMail(t, amy.email);
    expect(
      (await t.request('POST', `/workflow/v1/${workflow.id}/approve`, { token, body: { comment: 'ok' } })).status,
    ).toBe(200);
    await onlyMail(t, gusEmail, 'COMMENCE');
    expect(await t.mails({ to: later.email })).toHaveLength(0);
  });

  test('under UNORDERED dispatches the delegate at once; a registered user as delegate sees the workflow with its own token', async ({
    app: t,
    owner,
  }) => {
    const { workflow, rows } = await draftForSending(t, owner, {
      recipients: [{ name: 'Una Signer' }, { name: 'Vic Signer' }],
    });
    expect((await commence(t, owner, workflow.id)).status).toBe(200);
    const registered = await createUser(t, { name: 'Reg Delegate' });
    const res = await delegate(t, workflow.id, rows[1].id, owner.token, {
      name: 'Reg Delegate',
      emailAddress: registered.email,
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.status).toBe('SENT');
    await onlyMail(t, registered.email, 'COMMENCE');
    expect((await t.request('GET', `/workflow/v1/${workflow.id}/recipients`, { token: registered.token })).status).toBe(
      200,
    );
  });

  test('validates the delegate like a recipient and refuses duplicates', async ({ app: t, owner }) => {
    const { workflow, rows } = await draftForSending(t, owner, {
      recipients: [{ name: 'Una Signer' }, { name: 'Vic Signer' }, { name: 'Cy Copy', role: 'CC' }],
    });
    const [una, vic, cy] = rows;
    expect((await commence(t, owner, workflow.id)).status).toBe(200);

    for (const name of ['A', 'x'.repeat(51), 'R2 D2', 'Two  Spaces', 'Semi;colon']) {
      const res = await delegate(t, workflow.id, una.id, owner.token, { name, emailAddress: guestEmail('N') });
      expect(res.status, name).toBe(400);
      expect(res.body).toMatchObject({ message: 'RECIPIENT_NAME_INVALID', errorCode: 11001 });
    }
    for (const emailAddress of ['not-an-email', `${'a'.repeat(250)}@example.com`]) {
      const res = await delegate(t, workflow.id, una.id, owner.token, { name: 'Good Name', emailAddress });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('BAD_REQUEST_BODY');
    }
    const duplicate = await delegate(t, workflow.id, una.id, owner.token, {
      name: 'Vic Again',
      emailAddress: vic.email.toUpperCase(),
    });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.message).toBe('DUPLICATE_RECIPIENT');
    expect(
      (await delegate(t, workflow.id, una.id, owner.token, { name: 'Una Again', emailAddress: una.email })).body
        .message,
    ).toBe('DUPLICATE_RECIPIENT');
    expect(
      (await delegate(t, workflow.id, cy.id, owner.token, { name: 'Good Name', emailAddress: guestEmail('G') })).body
        .message,
    ).toBe('OPERATION_IS_NOT_ALLOWED');
    expect(
      (await delegate(t, workflow.id, 999_999, owner.token, { name: 'Good Name', emailAddress: guestEmail('G') }))
        .status,
    ).toBe(404);
    expect(await statuses(t, owner, workflow.id)).toEqual({
      'Una Signer': 'SENT',
      'Vic Signer': 'SENT',
      'Cy Copy': 'SKIPPED',
    });
  });

  test('refuses other participants, outsiders, unsent and void workflows, and an unverified flagged recipient', async ({
    app: t,
    owner,
  }) => {
    const outsider = await createUser(t, { name: 'Otto Outsider' });
    const draft = await draftForSending(t, owner, {
      recipients: [{ name: 'Una Signer', enforceIdentity: true }, { name: 'Vic Signer' }],
    });
    const [una, vic] = draft.rows;
    const body = () => ({ name: 'Dee Delegate', emailAddress: guestEmail('Dee') });
    expect((await delegate(t, draft.workflow.id, una.id, owner.token, body())).body.message).toBe(
      'INVALID_WORKFLOW_STATUS',
    );
    expect((await commence(t, owner, draft.workflow.id)).status).toBe(200);

    const { token: vicToken } = await guestFromMail(t, vic.email);
    const { token: unaToken } = await guestFromMail(t, una.email);
    expect((await delegate(t, draft.workflow.id, una.id, vicToken, body())).status).toBe(403);
    expect((await delegate(t, draft.workflow.id, una.id, outsider.token, body())).status).toBe(404);
    const unverified = await delegate(t, draft.workflow.id, una.id, unaToken, body());
    expect(unverified.status).toBe(403);
    expect(unverified.body.message).toBe('IDENTITY_NOT_VERIFIED');

    // Another workflow's signing-link token does not reach this one.
    const other = await draftForSending(t, owner, { recipients: [{ name: 'Wes Signer' }] });
    expect((await commence(t, owner, other.workflow.id)).status).toBe(200);
    const { token: wesToken } = await guestFromMail(t, other.rows[0].email);
    expect((await delegate(t, draft.workflow.id, vic.id, wesToken, body())).status).toBe(404);

    expect(
      (
        await t.request('POST', `/workflow/v1/${draft.workflow.id}/decline`, {
          token: vicToken,
          body: { reason: 'No' },
        })
      ).status,
    ).toBe(200);
    expect((await delegate(t, draft.workflow.id, una.id, owner.token, body())).body.message).toBe(
      'INVALID_WORKFLOW_STATUS',
    );
  });

  test("keeps the delegated link expired while the delegate's own link works", async ({ app: t, owner }) => {
    const { workflow, rows } = await draftForSending(t, owner, { recipients: [{ name: 'Una Signer' }] });
    expect((await commence(t, owner, workflow.id)).status).toBe(200);
    const unaLink = linkFromMail(t, await onlyMail(t, rows[0].email, 'COMMENCE'));
    const email = guestEmail('Fay');
    expect(
      (await delegate(t, workflow.id, rows[0].id, owner.token, { name: 'Fay Fill', emailAddress: email })).status,
    ).toBe(200);
    expect((await redeem(t, unaLink.code)).status).toBe(400);
    const fay = await guestFromMail(t, email);
    expect(fay.session.workflowId).toBe(workflow.id);
  });
});
