import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser, insertRecipient } from '../helpers/factories.ts';
import { pngDataUrl } from '../helpers/ceremony.ts';
import { commence, draftForSending, guestFromMail, linkFromMail, onlyMail, redeem } from '../helpers/signing.ts';
import { childrenOf, draftSurvey, setSurveyLimit, statusOf } from '../surveys/survey-helpers.ts';

/** RUNTIME.md "Voiding a sent envelope". */
const voidIt = (t: TestApp, workflowId: number, token: string, body: unknown) =>
  t.request('POST', `/workflow/v1/${workflowId}/void`, { token, body });

describe('POST /workflow/v1/{id}/void', () => {
  test("voids a sent envelope: the reason goes to everyone reached who has not finished, their links stop, a finished signer's link still reads", async ({
    app: t,
    owner,
  }) => {
    const { workflow, rows } = await draftForSending(t, owner, {
      sequence: 'ORDERED',
      recipients: [
        { name: 'Amy Approver', role: 'APPROVER' },
        { name: 'Sam Signer' },
        { name: 'Lou Later' },
        { name: 'Carol Copy', role: 'CC', order: 1 },
      ],
    });
    const [amy, sam, lou, carol] = rows;
    expect((await commence(t, owner, workflow.id)).status).toBe(200);
    const amySession = await guestFromMail(t, amy.email);
    const approved = await t.request('POST', `/workflow/v1/${workflow.id}/approve`, {
      token: amySession.token,
      body: { comment: 'Fine' },
    });
    expect(approved.status, approved.raw).toBe(200);
    const samSession = await guestFromMail(t, sam.email);

    const res = await voidIt(t, workflow.id, owner.token, { reason: '  Wrong contract attached.  ' });
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toEqual({
      workflowId: workflow.id,
      status: 'VOID',
      reason: 'Wrong contract attached.',
      voidedAt: expect.any(String),
    });

    // Sam (reached, not finished) and Carol (the copy, reached) are told why; Amy (finished) and Lou (never
    // reached) are not; nor is the owner, who voided it.
    for (const who of [sam, carol]) {
      const mail = await onlyMail(t, who.email, 'VOIDED');
      expect(mail.subject).toContain('Voided');
      expect(mail.textBody).toContain('Olga Owner voided');
      expect(mail.textBody).toContain('Wrong contract attached.');
    }
    for (const who of [amy.email, lou.email, owner.email])
      expect(await t.mails({ to: who, kind: 'VOIDED' })).toHaveLength(0);

    // Sam's link stops (as JSON, as the signing page's redemption, and as the mailed page); his open session
    // cannot act any more.
    const samLink = linkFromMail(t, await onlyMail(t, sam.email, 'COMMENCE'));
    const redeemed = await redeem(t, samLink.code);
    expect(redeemed.status).toBe(400);
    expect(redeemed.body).toMatchObject({ message: 'LINK_EXPIRED', responseBody: { workflowStatus: 'VOID' } });
    expect(redeemed.body.responseBody.detail).toContain('voided');
    const json = await t.request('GET', `/sign/${samLink.code}`, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(400);
    expect(json.body.responseBody).toMatchObject({ workflowStatus: 'VOID' });
    const html = await t.request('GET', `/sign/${samLink.code}`, { headers: { accept: 'text/html' } });
    expect(html.status).toBe(400);
    expect(html.raw).toContain('This envelope was voided');
    const fields = await t.request('GET', `/workflow/v1/${workflow.id}/fields`, { token: samSession.token });
    const signature = fields.body.find((f: any) => f.fieldType === 'SIGNATURE' && f.recipientId === sam.id);
    const save = await t.request('POST', `/workflow/v1/${signature.documentId}/fields/save`, {
      token: samSession.token,
      body: [{ id: signature.id, type: 'SIGNATURE', value: pngDataUrl() }],
    });
    expect(save.body.message).toBe('INVALID_WORKFLOW_STATUS');
    const decline = await t.request('POST', `/workflow/v1/${workflow.id}/decline`, {
      token: samSession.token,
      body: { reason: 'too late' },
    });
    expect(decline.body.message).toBe('INVALID_WORKFLOW_STATUS');

    // Amy finished: her link still opens the envelope for reading.
    const amyLink = linkFromMail(t, await onlyMail(t, amy.email, 'COMMENCE'));
    expect((await redeem(t, amyLink.code)).status).toBe(200);

    // The history says who voided it and why; the envelope is VOID for every reader.
    const history = await t.request('GET', `/workflow/v1/${workflow.id}/history`, { token: owner.token });
    expect(history.body.metadata.status).toBe('VOID');
    const voided = history.body.activities.find((a: any) => a.action === 'Voided');
    expect(voided).toMatchObject({ userName: 'Olga Owner' });
    expect(voided.activity).toContain('Wrong contract attached.');
    expect(await statusOf(t, workflow.id)).toBe('VOID');

    // VOID is final: voiding again is refused.
    expect((await voidIt(t, workflow.id, owner.token, { reason: 'again' })).body.message).toBe(
      'INVALID_WORKFLOW_STATUS',
    );
  });

  test('only a SENT workflow: a DRAFT and a COMPLETED one answer INVALID_WORKFLOW_STATUS', async ({
    app: t,
    owner,
  }) => {
    const { workflow: draft } = await draftForSending(t, owner, { recipients: [{ name: 'Dee Draft' }] });
    expect((await voidIt(t, draft.id, owner.token, { reason: 'no' })).body.message).toBe('INVALID_WORKFLOW_STATUS');

    const { workflow, rows } = await draftForSending(t, owner, { recipients: [{ name: 'Cora Complete' }] });
    expect((await commence(t, owner, workflow.id)).status).toBe(200);
    const { token } = await guestFromMail(t, rows[0].email);
    const fields = await t.request('GET', `/workflow/v1/${workflow.id}/fields`, { token });
    const saved = await t.request('POST', `/workflow/v1/${fields.body[0].documentId}/fields/save`, {
      token,
      body: fields.body.map((f: any) => ({ id: f.id, type: f.fieldType, value: pngDataUrl() })),
    });
    expect(saved.body).toMatchObject({ workflowStatus: 'COMPLETED' });
    const res = await voidIt(t, workflow.id, owner.token, { reason: 'no' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('INVALID_WORKFLOW_STATUS');
  });

  test('the reason is 1-500 characters after trimming; a missing or non-text reason is a bad body', async ({
    app: t,
    owner,
  }) => {
    const { workflow } = await draftForSending(t, owner, { recipients: [{ name: 'Rita Reason' }] });
    expect((await commence(t, owner, workflow.id)).status).toBe(200);
    for (const body of [{ reason: '   ' }, { reason: '' }, { reason: 'x'.repeat(501) }]) {
      const res = await voidIt(t, workflow.id, owner.token, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('INVALID_REQUEST_BODY');
    }
    for (const body of [{}, { reason: 7 }, null]) {
      const res = await voidIt(t, workflow.id, owner.token, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('BAD_REQUEST_BODY');
    }
    expect(await statusOf(t, workflow.id)).toBe('SENT');
    expect((await voidIt(t, workflow.id, owner.token, { reason: 'x'.repeat(500) })).status).toBe(200);
  });

  test("the owner only: a recipient who can see it is told it is not theirs, anyone else does not find it, a signing link's session may not", async ({
    app: t,
    owner,
  }) => {
    const registered = await createUser(t, { name: 'Reg Recipient' });
    const outsider = await createUser(t, { name: 'Otto Outsider' });
    const { workflow, rows } = await draftForSending(t, owner, { recipients: [{ name: 'Gus Guest' }] });
    await insertRecipient(t, workflow.id, {
      userId: registered.userId,
      name: registered.name,
      email: registered.email,
      role: 'CC',
    });
    expect((await commence(t, owner, workflow.id)).status).toBe(200);
    const guest = await guestFromMail(t, rows[0].email);

    expect((await voidIt(t, workflow.id, registered.token, { reason: 'mine now' })).body.message).toBe(
      'INVALID_WORKFLOW_OWNER',
    );
    expect((await voidIt(t, workflow.id, outsider.token, { reason: 'mine now' })).status).toBe(404);
    expect((await voidIt(t, 987_654, owner.token, { reason: 'nothing' })).status).toBe(404);
    const byGuest = await voidIt(t, workflow.id, guest.token, { reason: 'mine now' });
    expect(byGuest.status).toBe(403);
    expect((await voidIt(t, workflow.id, '', { reason: 'anyone' })).status).toBe(401);
    expect(await statusOf(t, workflow.id)).toBe('SENT');
  });

  test('a Power Survey parent voids its pending children and tells their recipients; a completed child keeps its signature', async ({
    app: t,
    owner,
  }) => {
    await setSurveyLimit(t, owner, 50);
    const survey = await draftSurvey(t, owner, { recipients: 3 });
    const started = await commence(t, owner, survey.workflowId, { title: 'Tell us', message: 'Two minutes' });
    expect(started.status, started.raw).toBe(202);
    await t.drainJobs();
    const first = await guestFromMail(t, survey.recipients[0].emailAddress);
    const fields = await t.request('GET', `/workflow/v1/${first.session.workflowId}/fields`, { token: first.token });
    const saved = await t.request('POST', `/workflow/v1/${fields.body[0].documentId}/fields/save`, {
      token: first.token,
      body: fields.body.map((f: any) => ({
        id: f.id,
        type: f.fieldType,
        value: f.fieldType === 'SIGNATURE' ? pngDataUrl() : 'Done',
      })),
    });
    expect(saved.status, saved.raw).toBe(200);

    const res = await voidIt(t, survey.workflowId, owner.token, { reason: 'Survey closed early' });
    expect(res.status, res.raw).toBe(200);
    expect(await statusOf(t, survey.workflowId)).toBe('VOID');
    const children = await childrenOf(t, survey.workflowId);
    const done = first.session.workflowId;
    expect(Object.fromEntries(children.map((c) => [c.id, c.status]))).toEqual(
      Object.fromEntries(children.map((c) => [c.id, c.id === done ? 'COMPLETED' : 'VOID'])),
    );
    for (const pending of survey.recipients.slice(1)) {
      const mail = await onlyMail(t, pending.emailAddress, 'VOIDED');
      expect(mail.textBody).toContain('Survey closed early');
      const link = linkFromMail(t, await onlyMail(t, pending.emailAddress, 'COMMENCE'));
      expect((await redeem(t, link.code)).body.message).toBe('LINK_EXPIRED');
    }
    expect(await t.mails({ to: survey.recipients[0].emailAddress, kind: 'VOIDED' })).toHaveLength(0);
    const history = await t.request('GET', `/workflow/v1/${survey.workflowId}/history`, { token: owner.token });
    const voided = history.body.activities.find((a: any) => a.action === 'Voided');
    expect(voided.activity).toContain('2 pending responses voided');
    expect(voided.activity).toContain('Survey closed early');
  });
});
