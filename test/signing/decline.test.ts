import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser, insertField, insertRecipient } from '../helpers/factories.ts';
import { commence, draftForSending, guestFromMail, linkFromMail, onlyMail, redeem } from '../helpers/signing.ts';

const decline = (t: TestApp, workflowId: number, token: string, body: unknown) =>
  t.request('POST', `/workflow/v1/${workflowId}/decline`, { token, body });
const rejectDetails = (t: TestApp, workflowId: number, token: string) =>
  t.request('GET', `/workflow/v1/${workflowId}/reject-details`, { token });

describe('POST /workflow/v1/{id}/decline', () => {
  test('voids the workflow, stores the reason for reject-details, records Declined and tells the owner and the others reached', async ({
    app: t,
    owner,
  }) => {
    const { workflow, rows } = await draftForSending(t, owner, {
      sequence: 'ORDERED',
      recipients: [
        { name: 'Carol Copy', role: 'CC' },
        { name: 'Amy Approver', role: 'APPROVER' },
        { name: 'Sam Signer' },
      ],
    });
    const [carol, amy, sam] = rows;
    expect((await commence(t, owner, workflow.id)).status).toBe(200);
    const { token } = await guestFromMail(t, amy.email);

    expect(await rejectDetails(t, workflow.id, owner.token)).toMatchObject({ status: 200, body: [] });
    const res = await decline(t, workflow.id, token, { reason: '  The amounts are wrong.  ' });
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toMatchObject({
      workflowId: workflow.id,
      status: 'VOID',
      recipientId: amy.id,
      reason: 'The amounts are wrong.',
    });

    for (const caller of [owner.token, token]) {
      const details = await rejectDetails(t, workflow.id, caller);
      expect(details.status).toBe(200);
      expect(details.body).toEqual([
        {
          recipientId: amy.id,
          name: 'Amy Approver',
          email: amy.email,
          role: 'APPROVER',
          reason: 'The amounts are wrong.',
          rejectedAt: res.body.rejectedAt,
        },
      ]);
    }
    const recipientsRes = await t.request('GET', `/workflow/v1/${workflow.id}/recipients`, { token: owner.token });
    expect(Object.fromEntries(recipientsRes.body.map((r: any) => [r.name, r.status]))).toEqual({
      'Carol Copy': 'SKIPPED',
      'Amy Approver': 'DECLINED',
      'Sam Signer': 'PENDING',
    });

    const history = await t.request('GET', `/workflow/v1/${workflow.id}/history`, { token: owner.token });
    expect(history.body.metadata.status).toBe('VOID');
    const declined = history.body.activities.find((a: any) => a.action === 'Declined');
    expect(declined).toMatchObject({ userName: 'Amy Approver' });
    expect(declined.activity).toContain('The amounts are wrong.');

    const ownerMail = await onlyMail(t, owner.email, 'DECLINED');
    expect(ownerMail.textBody).toContain('The amounts are wrong.');
    await onlyMail(t, carol.email, 'VOIDED');
    expect(await t.mails({ to: sam.email })).toHaveLength(0);
    expect(await t.mails({ to: amy.email, kind: 'VOIDED' })).toHaveLength(0);

    // VOID is read-only: a second decline, or one by the next signer, is refused.
    expect((await decline(t, workflow.id, token, { reason: 'again' })).body.message).toBe('INVALID_WORKFLOW_STATUS');
    // The link still opens the (void) workflow for reading.
    const { code } = linkFromMail(t, await onlyMail(t, amy.email, 'COMMENCE'));
    expect((await redeem(t, code)).status).toBe(200);
  });

  test('requires a reason of 1-1000 characters after trimming', async ({ app: t, owner }) => {
    const { workflow, rows } = await draftForSending(t, owner, { recipients: [{ name: 'Sam Signer' }] });
    expect((await commence(t, owner, workflow.id)).status).toBe(200);
    const { token } = await guestFromMail(t, rows[0].email);
    for (const body of [{ reason: '   ' }, { reason: '' }, { reason: 'x'.repeat(1001) }]) {
      const res = await decline(t, workflow.id, token, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('INVALID_REQUEST_BODY');
    }
    for (const body of [{}, { reason: 7 }]) {
      const res = await decline(t, workflow.id, token, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('BAD_REQUEST_BODY');
    }
    expect((await decline(t, workflow.id, token, { reason: 'x'.repeat(1000) })).status).toBe(200);
  });

  test('refuses callers who may not decline now', async ({ app: t, owner }) => {
    const registered = await createUser(t, { name: 'Reg Signer' });
    const outsider = await createUser(t, { name: 'Otto Outsider' });
    const { workflow, document, rows } = await draftForSending(t, owner, {
      sequence: 'ORDERED',
      recipients: [{ name: 'Carl Copy', role: 'CC' }, { name: 'First Signer' }],
    });
    const later = await insertRecipient(t, workflow.id, {
      userId: registered.userId,
      name: registered.name,
      email: registered.email,
      recipientOrder: 3,
    });
    await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId: later.id,
      fieldType: 'SIGNATURE',
    });

    // Before sending: not SENT.
    expect((await decline(t, workflow.id, owner.token, { reason: 'no' })).body.message).toBe('INVALID_WORKFLOW_STATUS');
    expect((await commence(t, owner, workflow.id)).status).toBe(200);

    const cc = linkFromMail(t, await onlyMail(t, rows[0].email, 'CC_NOTIFICATION'));
    const ccToken = (await redeem(t, cc.code)).body.accessToken;
    expect((await decline(t, workflow.id, ccToken, { reason: 'no' })).body.message).toBe('OPERATION_IS_NOT_ALLOWED');
    // Not yet this registered signer's turn.
    expect((await decline(t, workflow.id, registered.token, { reason: 'no' })).body.message).toBe(
      'OPERATION_IS_NOT_ALLOWED',
    );
    // The owner holds no row.
    expect((await decline(t, workflow.id, owner.token, { reason: 'no' })).body.message).toBe(
      'OPERATION_IS_NOT_ALLOWED',
    );
    expect((await decline(t, workflow.id, outsider.token, { reason: 'no' })).status).toBe(404);
    expect((await rejectDetails(t, workflow.id, outsider.token)).status).toBe(404);
    expect((await rejectDetails(t, workflow.id, registered.token)).status).toBe(200);
  });
});
