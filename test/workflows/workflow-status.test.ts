import { describe, expect, it } from 'vitest';
import { test } from '../helpers/fixtures.ts';
import { commence, draftWithRecipients, tokenFromMail, waitForSeal, workflowRow } from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';
import { isFinishedStatus, isReadOnlyStatus, nextStatus } from '../../src/modules/workflows/workflow-status.ts';

describe('the workflow state machine', () => {
  it('lists SPEC.md transitions and refuses any other', () => {
    expect(nextStatus('DRAFT', 'SEND')).toBe('SENT');
    expect(nextStatus('SENT', 'ALL_SIGNED')).toBe('COMPLETED');
    expect(nextStatus('DRAFT', 'ALL_SIGNED')).toBe('COMPLETED');
    expect(nextStatus('SENT', 'ALL_APPROVED')).toBe('APPROVED');
    expect(nextStatus('SENT', 'VOID')).toBe('VOID');
    for (const [from, trigger] of [
      ['SENT', 'SEND'],
      ['COMPLETED', 'VOID'],
      ['VOID', 'SEND'],
      ['APPROVED', 'ALL_SIGNED'],
      ['DRAFT', 'ALL_APPROVED'],
      ['DRAFT', 'VOID'],
    ] as const) {
      expect(() => nextStatus(from, trigger)).toThrow('Invalid workflow status');
    }
    expect(isFinishedStatus('APPROVED') && isFinishedStatus('COMPLETED') && !isFinishedStatus('SENT')).toBe(true);
    expect(isReadOnlyStatus('VOID') && !isReadOnlyStatus('DRAFT')).toBe(true);
  });
});

describe('APPROVED over HTTP', () => {
  test('a workflow with approvers only ends APPROVED when the last approves, and is sealed, certified and read-only like COMPLETED', async ({
    app: t,
    owner,
  }) => {
    const { workflow, parties } = await draftWithRecipients(t, owner, {
      sequence: 'UNORDERED',
      recipients: [
        { name: 'Amy Approver', role: 'APPROVER' },
        { name: 'Carl Copy', role: 'CC' },
        { name: 'Ben Approver', role: 'APPROVER' },
      ],
    });
    await commence(t, owner, workflow.id);
    const amy = await tokenFromMail(t, parties[0].user.email);
    const ben = await tokenFromMail(t, parties[2].user.email);
    const first = await t.request('POST', `/workflow/v1/${workflow.id}/approve`, { token: amy, body: {} });
    expect(first.body).toMatchObject({ recipientStatus: 'APPROVED', workflowStatus: 'SENT' });
    const last = await t.request('POST', `/workflow/v1/${workflow.id}/approve`, {
      token: ben,
      body: { comment: 'ok' },
    });
    expect(last.status, JSON.stringify(last.body)).toBe(200);
    expect(last.body).toMatchObject({ recipientStatus: 'APPROVED', workflowStatus: 'APPROVED', sealStatus: 'PENDING' });

    await waitForSeal(t, workflow.id);
    const row = await workflowRow(t, workflow.id);
    expect(row).toMatchObject({ status: 'APPROVED', sealStatus: 'SEALED' });
    expect(row.completedAt).not.toBeNull();

    const listed = await t.request('GET', '/document/v1?status=Approved', { token: owner.token });
    expect(listed.body.content.map((i: any) => i.workflowId ?? i.id)).toContain(workflow.id);

    const coc = await t.request('GET', `/document/v1/download/${workflow.id}?selectedOption=downloadCoc`, {
      token: owner.token,
    });
    expect(coc.status).toBe(200);
    const sealed = await t.app.inject({
      method: 'GET',
      url: `/document/v1/download/${workflow.id}?selectedOption=downloadAll`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(sealed.statusCode).toBe(200);
    const evidence = await t.request('GET', `/workflow/v1/evidence-report/${workflow.id}`, { token: owner.token });
    expect(evidence.status).toBe(200);

    const after = await t.request('POST', `/workflow/v1/${workflow.id}/approve`, { token: amy, body: {} });
    expect(after.status).toBe(400);
    expect(after.body.message).toBe('INVALID_WORKFLOW_STATUS');
  });

  test('a workflow with a signer and an approver still ends COMPLETED', async ({ app: t, owner }) => {
    const { workflow, parties, document, fieldIds } = await draftWithRecipients(t, owner, {
      sequence: 'UNORDERED',
      recipients: [
        { name: 'Amy Approver', role: 'APPROVER' },
        { name: 'Sid Signer', fields: [{ fieldType: 'SIGNATURE' }] },
      ],
    });
    await commence(t, owner, workflow.id);
    await t.request('POST', `/workflow/v1/${workflow.id}/approve`, {
      token: await tokenFromMail(t, parties[0].user.email),
      body: {},
    });
    const sid = await tokenFromMail(t, parties[1].user.email);
    const { saveAll } = await import('../helpers/ceremony.ts');
    const done = await saveAll(t, sid, document.id, fieldIds[1]);
    expect(done.body.workflowStatus).toBe('COMPLETED');
    await waitForSeal(t, workflow.id);
    const download = await t.app.inject({
      method: 'GET',
      url: `/document/v1/download/${workflow.id}?selectedOption=downloadCoc`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect((await pdfsig(download.rawPayload)).allValid).toBe(true);
  });
});
