import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import {
  activityKinds,
  commence,
  documentRows,
  draftWithRecipients,
  mailRows,
  pngDataUrl,
  recipientRow,
  saveAll,
  tokenFromMail,
  waitForSeal,
  workflowRow,
} from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';

async function sealJobCount(t: TestApp, workflowId: number): Promise<number> {
  const { rows } = await t.platform.database.sql.executeSql(
    "select count(*)::int as n from pgboss.job where name = 'workflow.seal' and data->>'workflowId' = $1",
    [String(workflowId)],
  );
  return rows[0].n;
}

describe('ORDERED with a CC and an approver, over HTTP and mail', () => {
  test('walks signer, CC, approver, signer; completes; seals; mails everyone the sealed PDF', async ({
    app: t,
    owner,
  }) => {
    const { workflow, document, parties, fieldIds } = await draftWithRecipients(t, owner, {
      sequence: 'ORDERED',
      recipients: [
        {
          name: 'Sam First',
          fields: [{ fieldType: 'SIGNATURE' }, { fieldType: 'TEXT', fieldRequired: true }, { fieldType: 'DATE' }],
        },
        { name: 'Cora Copy', role: 'CC' },
        { name: 'Abe Approver', role: 'APPROVER' },
        {
          name: 'Sue Last',
          fields: [
            { fieldType: 'INITIALS' },
            { fieldType: 'SIGNATURE' },
            { fieldType: 'CHECKBOX', fieldRequired: true },
            { fieldType: 'STAMP' },
          ],
        },
      ],
    });
    const [first, cc, approver, last] = parties;
    await commence(t, owner, workflow.id, { title: 'Please sign the lease' });
    expect(
      (await t.mails({ kind: 'COMMENCE' })).filter((m) => m.workflowId === workflow.id).map((m) => m.toAddress),
    ).toEqual([first.user.email]);

    const firstToken = await tokenFromMail(t, first.user.email);
    const partial = await saveAll(t, firstToken, document.id, fieldIds[0].slice(1));
    expect(partial.body).toMatchObject({ recipientStatus: 'VIEWED', workflowStatus: 'SENT' });
    const signed = await saveAll(t, firstToken, document.id, fieldIds[0].slice(0, 1));
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body).toMatchObject({ recipientStatus: 'SIGNED', workflowStatus: 'SENT' });

    // The CC is told and skipped; the approver's turn begins; the last signer still waits.
    expect(await t.mails({ to: cc.user.email, kind: 'CC_NOTIFICATION' })).toHaveLength(1);
    expect(await t.mails({ to: approver.user.email, kind: 'COMMENCE' })).toHaveLength(1);
    expect(await t.mails({ to: last.user.email, kind: 'COMMENCE' })).toHaveLength(0);

    const approverToken = await tokenFromMail(t, approver.user.email);
    const approved = await t.request('POST', `/workflow/v1/${workflow.id}/approve`, {
      token: approverToken,
      body: { comment: 'Terms checked' },
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ recipientStatus: 'APPROVED', workflowStatus: 'SENT' });

    const lastToken = await tokenFromMail(t, last.user.email);
    const lastSave = await saveAll(
      t,
      lastToken,
      document.id,
      fieldIds[3].filter((_, i) => i !== 1),
    );
    expect(lastSave.body.recipientStatus).toBe('VIEWED');
    const done = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
      token: lastToken,
      body: { id: fieldIds[3][1], image: pngDataUrl(60, 20, 3) },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ recipientStatus: 'SIGNED', workflowStatus: 'COMPLETED', sealStatus: 'PENDING' });

    const sealed = await waitForSeal(t, workflow.id);
    expect(sealed.sealStatus).toBe('SEALED');
    expect(await sealJobCount(t, workflow.id)).toBe(1);
    const [doc] = await documentRows(t, workflow.id);
    const bytes = await t.platform.blobs.get(doc.sealedBlobKey!);
    const report = await pdfsig(bytes);
    expect(report.allValid, report.output).toBe(true);

    const completionMails = await t.mails({ kind: 'COMPLETED' });
    const mine = completionMails.filter((m) => m.workflowId === workflow.id);
    expect(mine.map((m) => m.toAddress).sort()).toEqual(
      [first, cc, approver, last]
        .map((p) => p.user.email)
        .concat(owner.email)
        .sort(),
    );
    for (const mail of mine) {
      expect(mail.status).toBe('SENT');
      expect(mail.subject).toBe('Completed: Please sign the lease');
      expect(mail.attachments).toEqual([
        { filename: 'Test agreement.pdf', contentType: 'application/pdf', blobKey: doc.sealedBlobKey },
      ]);
    }

    expect(await activityKinds(t, workflow.id)).toEqual([
      'WORKFLOW_SENT',
      'DOCUMENT_OPENED',
      'CONSENT_ACCEPTED',
      'SIGNED',
      'DOCUMENT_OPENED',
      'CONSENT_ACCEPTED',
      'APPROVED',
      'DOCUMENT_OPENED',
      'CONSENT_ACCEPTED',
      'SIGNED',
      'COMPLETED',
    ]);
    const history = await t.request('GET', `/workflow/v1/${workflow.id}/history`, { token: owner.token });
    expect(history.status).toBe(200);
    const actions = history.body.activities.map((a: { action: string }) => a.action);
    expect(actions.filter((a: string) => ['Signed', 'Approved', 'Completed'].includes(a))).toEqual([
      'Signed',
      'Approved',
      'Signed',
      'Completed',
    ]);

    // Finished recipients' links still read, but no longer act.
    const late = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
      token: firstToken,
      body: { id: fieldIds[0][0], image: pngDataUrl() },
    });
    expect(late.status).toBe(400);
    expect((await recipientRow(t, cc.row.id)).status).toBe('SKIPPED');
  });
});

describe('UNORDERED over HTTP and mail', () => {
  test('dispatches both at once; the second signature completes it', async ({ app: t, owner }) => {
    const { workflow, document, parties, fieldIds } = await draftWithRecipients(t, owner, {
      sequence: 'UNORDERED',
      recipients: [
        { name: 'Una One', fields: [{ fieldType: 'SIGNATURE' }, { fieldType: 'NAME' }] },
        { name: 'Tom Two', fields: [{ fieldType: 'SIGNATURE' }] },
      ],
    });
    await commence(t, owner, workflow.id);
    const [one, two] = parties;
    const twoToken = await tokenFromMail(t, two.user.email);
    const oneToken = await tokenFromMail(t, one.user.email);
    expect((await saveAll(t, twoToken, document.id, fieldIds[1])).body).toMatchObject({
      recipientStatus: 'SIGNED',
      workflowStatus: 'SENT',
    });
    expect((await saveAll(t, oneToken, document.id, fieldIds[0])).body).toMatchObject({
      recipientStatus: 'SIGNED',
      workflowStatus: 'COMPLETED',
    });
    expect((await waitForSeal(t, workflow.id)).sealStatus).toBe('SEALED');
    expect((await mailRows(t, workflow.id, 'COMPLETED')).map((m) => m.toAddress).sort()).toEqual(
      [one.user.email, two.user.email, owner.email].sort(),
    );
  });
});

describe('racing final actions', () => {
  test('two UNORDERED signers finishing at once complete the workflow once: one Completed, one seal job, one set of mails', async ({
    app: t,
    owner,
  }) => {
    const { workflow, document, parties, fieldIds } = await draftWithRecipients(t, owner, {
      sequence: 'UNORDERED',
      recipients: [
        { name: 'Rae Racer', fields: [{ fieldType: 'SIGNATURE' }] },
        { name: 'Rex Racer', fields: [{ fieldType: 'SIGNATURE' }] },
      ],
    });
    await commence(t, owner, workflow.id);
    const tokens = [await tokenFromMail(t, parties[0].user.email), await tokenFromMail(t, parties[1].user.email)];
    const results = await Promise.all([0, 1].map((i) => saveAll(t, tokens[i], document.id, fieldIds[i])));
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(results.map((r) => r.body.workflowStatus).sort()).toEqual(['COMPLETED', 'SENT']);
    await waitForSeal(t, workflow.id);
    const kinds = await activityKinds(t, workflow.id);
    expect(kinds.filter((k) => k === 'COMPLETED')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'SIGNED')).toHaveLength(2);
    expect(await sealJobCount(t, workflow.id)).toBe(1);
    const mails = await mailRows(t, workflow.id, 'COMPLETED');
    expect(mails.map((m) => m.toAddress).sort()).toEqual(
      [parties[0].user.email, parties[1].user.email, owner.email].sort(),
    );
  });

  test('the same signer submitting twice at once signs once', async ({ app: t, owner }) => {
    const { workflow, document, parties, fieldIds } = await draftWithRecipients(t, owner, {
      sequence: 'UNORDERED',
      recipients: [
        { name: 'Dee Double', fields: [{ fieldType: 'SIGNATURE' }] },
        { name: 'Otto Other', fields: [{ fieldType: 'SIGNATURE' }] },
      ],
    });
    await commence(t, owner, workflow.id);
    const token = await tokenFromMail(t, parties[0].user.email);
    const results = await Promise.all([
      saveAll(t, token, document.id, fieldIds[0]),
      saveAll(t, token, document.id, fieldIds[0]),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.status === 400)!.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
    const kinds = await activityKinds(t, workflow.id);
    expect(kinds.filter((k) => k === 'SIGNED')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'CONSENT_ACCEPTED')).toHaveLength(1);

    // The same race on the final signature of the workflow.
    const otherToken = await tokenFromMail(t, parties[1].user.email);
    const finals = await Promise.all([
      saveAll(t, otherToken, document.id, fieldIds[1]),
      saveAll(t, otherToken, document.id, fieldIds[1]),
    ]);
    expect(finals.map((r) => r.status).sort()).toEqual([200, 400]);
    await waitForSeal(t, workflow.id);
    expect((await activityKinds(t, workflow.id)).filter((k) => k === 'COMPLETED')).toHaveLength(1);
    expect(await sealJobCount(t, workflow.id)).toBe(1);
    expect(await mailRows(t, workflow.id, 'COMPLETED')).toHaveLength(3);
    expect((await workflowRow(t, workflow.id)).status).toBe('COMPLETED');
  });
});
