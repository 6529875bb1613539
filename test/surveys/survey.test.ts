import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { pngDataUrl } from '../helpers/ceremony.ts';
import { guestFromMail } from '../helpers/signing.ts';
import { childrenOf, creditsOf, draftSurvey, setSurveyLimit, statusOf } from './survey-helpers.ts';
import { dispatchBatch } from '../../src/modules/surveys/survey-dispatch.ts';
import { workflows } from '../../src/platform/db/schema/index.ts';
import { createSigningCodes, loadSigningCodeKey } from '../../src/modules/signing/signing-codes.ts';
import { eq } from 'drizzle-orm';

let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Olivia Owner' });
  await setSurveyLimit(t, owner, 50);
});
afterAll(async () => {
  await t?.close();
});

const commence = (workflowId: number, token = owner.token) =>
  t.request('POST', `/workflow/v1/${workflowId}/commence`, {
    token,
    body: { title: 'Tell us', message: 'Two minutes' },
  });
const progress = (id: number, token = owner.token) =>
  t.request('GET', `/document/v1/power-survey/${id}/dispatch-progress`, { token });
const childrenPage = (id: number, query = '', token = owner.token) =>
  t.request('GET', `/document/v1/power-survey/${id}/workflows${query}`, { token });
const exportCsv = (id: number, query = '', token = owner.token) =>
  t.request('GET', `/document/v1/power-survey/${id}/export.csv${query}`, { token });

/** Opens the recipient's link, fills the Comment with `answer` and signs: the child's ordinary ceremony. */
async function respond(email: string, answer: string) {
  const { token, session } = await guestFromMail(t, email);
  const fields = await t.request('GET', `/workflow/v1/${session.workflowId}/fields`, { token });
  expect(fields.status, fields.raw).toBe(200);
  const body = fields.body.map((f: any) => ({
    id: f.id,
    type: f.fieldType,
    value: f.fieldType === 'SIGNATURE' ? pngDataUrl() : answer,
  }));
  const saved = await t.request('POST', `/workflow/v1/${fields.body[0].documentId}/fields/save`, { token, body });
  expect(saved.status, saved.raw).toBe(200);
  return session.workflowId as number;
}

async function decline(email: string, reason: string) {
  const { token, session } = await guestFromMail(t, email);
  const res = await t.request('POST', `/workflow/v1/${session.workflowId}/decline`, { token, body: { reason } });
  expect(res.status, res.raw).toBe(200);
  return session.workflowId as number;
}

async function commenced(recipients: number) {
  const survey = await draftSurvey(t, owner, { recipients });
  const res = await commence(survey.workflowId);
  expect(res.status, res.raw).toBe(202);
  await t.drainJobs();
  return survey;
}

describe('Power Survey: commence and dispatch', () => {
  it('answers 202, debits one credit per recipient, and creates and mails one child per recipient in the background', async () => {
    const before = await creditsOf(t, owner);
    const survey = await draftSurvey(t, owner, { recipients: 3 });
    const res = await commence(survey.workflowId);
    expect(res.status, res.raw).toBe(202);
    expect(res.body).toMatchObject({ workflowId: survey.workflowId, status: 'SENT', credits: before - 3 });
    expect(await creditsOf(t, owner)).toBe(before - 3);
    await t.drainJobs();

    expect((await progress(survey.workflowId)).body).toEqual({ dispatchedCount: 3, totalRecipients: 3 });
    const children = await childrenOf(t, survey.workflowId);
    expect(children).toHaveLength(3);
    expect(new Set(children.map((c) => c.parentRecipientId))).toEqual(new Set(survey.recipients.map((r) => r.id)));
    expect(
      children.every((c) => c.status === 'SENT' && c.sequence === 'UNORDERED' && c.signType === 'POWERSURVEY'),
    ).toBe(true);
    for (const recipient of survey.recipients) {
      const mails = await t.mails({ to: recipient.emailAddress, kind: 'COMMENCE' });
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toContain('Tell us');
    }
    // The child is an ordinary envelope: one document, the recipient's one row, the layout with the signature assigned to it.
    const { token, session } = await guestFromMail(t, survey.recipients[0].emailAddress);
    const recipients = await t.request('GET', `/workflow/v1/${session.workflowId}/recipients`, { token });
    expect(recipients.body).toEqual([
      expect.objectContaining({
        name: survey.recipients[0].name,
        emailAddress: survey.recipients[0].emailAddress,
        recipientRole: 'SIGNER',
      }),
    ]);
    const fields = await t.request('GET', `/workflow/v1/${session.workflowId}/fields`, { token });
    expect(fields.body.map((f: any) => [f.fieldType, f.label, f.recipientId])).toEqual([
      ['SIGNATURE', null, recipients.body[0].id],
      ['TEXT', 'Comment', recipients.body[0].id],
    ]);

    const page = await childrenPage(survey.workflowId, '?page=0&size=2');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ totalElements: 3, completedCount: 0, respondedCount: 0, dispatchedCount: 3 });
    expect(page.body.content).toHaveLength(2);
    expect(page.body.content[0]).toEqual({
      workflowId: children.map((c) => c.id).sort((a, b) => a - b)[0],
      recipientName: survey.recipients[0].name,
      recipientEmail: survey.recipients[0].emailAddress,
      status: 'SENT',
    });

    // The owner's list shows the parent and every child, flagged.
    const list = await t.request('GET', '/document/v1?size=100', { token: owner.token });
    const items = list.body.content.filter(
      (i: any) => i.workflowId === survey.workflowId || children.some((c) => c.id === i.workflowId),
    );
    expect(items).toHaveLength(4);
    expect(
      items
        .filter((i: any) => i.isPowerSurveyChild)
        .map((i: any) => i.workflowId)
        .sort(),
    ).toEqual(children.map((c) => c.id).sort());
    expect(items.find((i: any) => i.workflowId === survey.workflowId)).toMatchObject({
      isPowerSurvey: true,
      isPowerSurveyChild: false,
    });
  });

  it('commence twice (during and after dispatch) answers 202 again, debits once and creates no duplicate', async () => {
    const survey = await draftSurvey(t, owner, { recipients: 4 });
    const before = await creditsOf(t, owner);
    expect((await commence(survey.workflowId)).status).toBe(202);
    expect((await commence(survey.workflowId)).status).toBe(202);
    await t.drainJobs();
    expect((await commence(survey.workflowId)).status).toBe(202);
    await t.drainJobs();
    expect(await creditsOf(t, owner)).toBe(before - 4);
    expect(await childrenOf(t, survey.workflowId)).toHaveLength(4);
    for (const r of survey.recipients) expect(await t.mails({ to: r.emailAddress, kind: 'COMMENCE' })).toHaveLength(1);
    // Another batch after the end finds nothing to do, and the database itself refuses a second child for one recipient.
    expect(
      await t.platform.db.transaction((tx) =>
        dispatchBatch(tx, { db: t.platform.db, jobs: t.platform.jobs, routing: undefined as any }, survey.workflowId),
      ),
    ).toBe(0);
    const [child] = await childrenOf(t, survey.workflowId);
    await expect(
      t.platform.db.insert(workflows).values({
        ownerUserId: owner.userId,
        organizationId: owner.organizationId,
        name: 'dup',
        sequence: 'UNORDERED',
        signType: 'POWERSURVEY',
        parentWorkflowId: survey.workflowId,
        parentRecipientId: child.parentRecipientId,
      }),
    ).rejects.toThrow();
  });

  it('dispatches in batches that resume where the last one stopped (a worker lost between batches loses nothing and doubles nothing)', async () => {
    const survey = await draftSurvey(t, owner, { recipients: 5 });
    // A commence whose job died after two batches of two: the parent SENT, four children made by hand.
    await t.platform.db
      .update(workflows)
      .set({ status: 'SENT', sentAt: new Date() })
      .where(eq(workflows.id, survey.workflowId));
    const routing = {
      outbox: t.platform.outbox,
      publicUrl: t.config.publicUrl,
      codes: createSigningCodes(loadSigningCodeKey(t.config.dataDir)),
    };
    const deps = { db: t.platform.db, jobs: t.platform.jobs, routing };
    expect(await t.platform.db.transaction((tx) => dispatchBatch(tx, deps, survey.workflowId, 2))).toBe(2);
    expect(await t.platform.db.transaction((tx) => dispatchBatch(tx, deps, survey.workflowId, 2))).toBe(2);
    expect((await progress(survey.workflowId)).body).toEqual({ dispatchedCount: 4, totalRecipients: 5 });
    // Commencing the SENT survey again resumes the dispatch.
    expect((await commence(survey.workflowId)).status).toBe(202);
    await t.drainJobs();
    expect((await progress(survey.workflowId)).body).toEqual({ dispatchedCount: 5, totalRecipients: 5 });
    expect(await childrenOf(t, survey.workflowId)).toHaveLength(5);
    for (const r of survey.recipients) expect(await t.mails({ to: r.emailAddress, kind: 'COMMENCE' })).toHaveLength(1);
  });
});

describe('Power Survey: the parent follows its children', () => {
  it('every child COMPLETED: the parent is COMPLETED', async () => {
    const survey = await commenced(2);
    await respond(survey.recipients[0].emailAddress, 'Fine');
    await t.drainJobs();
    expect(await statusOf(t, survey.workflowId)).toBe('SENT');
    await respond(survey.recipients[1].emailAddress, 'Great');
    await t.drainJobs();
    expect(await statusOf(t, survey.workflowId)).toBe('COMPLETED');
    expect((await childrenPage(survey.workflowId)).body).toMatchObject({
      completedCount: 2,
      respondedCount: 2,
      dispatchedCount: 2,
    });
  });

  it('every child declined: the parent is VOID, and its reject-details collects the declines', async () => {
    const survey = await commenced(2);
    await decline(survey.recipients[0].emailAddress, 'Not me');
    await t.drainJobs();
    expect(await statusOf(t, survey.workflowId)).toBe('SENT');
    await decline(survey.recipients[1].emailAddress, 'No time');
    await t.drainJobs();
    expect(await statusOf(t, survey.workflowId)).toBe('VOID');
    const details = await t.request('GET', `/workflow/v1/${survey.workflowId}/reject-details`, { token: owner.token });
    expect(details.body.map((d: any) => [d.email, d.reason])).toEqual([
      [survey.recipients[0].emailAddress, 'Not me'],
      [survey.recipients[1].emailAddress, 'No time'],
    ]);
  });

  it('a mix of completed and declined: the parent stays SENT; the counts cover the whole survey', async () => {
    const survey = await commenced(3);
    await respond(survey.recipients[0].emailAddress, 'Yes');
    await decline(survey.recipients[1].emailAddress, 'No');
    await t.drainJobs();
    expect((await childrenPage(survey.workflowId, '?page=0&size=1')).body).toMatchObject({
      totalElements: 3,
      completedCount: 1,
      respondedCount: 2,
      dispatchedCount: 3,
    });
    await respond(survey.recipients[2].emailAddress, 'Maybe');
    await t.drainJobs();
    expect(await statusOf(t, survey.workflowId)).toBe('SENT');
    expect((await childrenPage(survey.workflowId)).body).toMatchObject({ completedCount: 2, respondedCount: 3 });
  });

  it('the owner declining the parent voids it and every pending child; completed children stay COMPLETED', async () => {
    const survey = await commenced(3);
    const done = await respond(survey.recipients[0].emailAddress, 'Done');
    const pending = await guestFromMail(t, survey.recipients[1].emailAddress);
    const res = await t.request('POST', `/workflow/v1/${survey.workflowId}/decline`, {
      token: owner.token,
      body: { reason: 'Survey closed' },
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toMatchObject({ workflowId: survey.workflowId, status: 'VOID', reason: 'Survey closed' });
    await t.drainJobs();
    expect(await statusOf(t, survey.workflowId)).toBe('VOID');
    const children = await childrenOf(t, survey.workflowId);
    expect(Object.fromEntries(children.map((c) => [c.id, c.status]))).toEqual(
      Object.fromEntries(children.map((c) => [c.id, c.id === done ? 'COMPLETED' : 'VOID'])),
    );
    // A pending recipient's link can no longer act.
    const fields = await t.request('GET', `/workflow/v1/${pending.session.workflowId}/fields`, {
      token: pending.token,
    });
    const save = await t.request('POST', `/workflow/v1/${fields.body[0].documentId}/fields/save`, {
      token: pending.token,
      body: [{ id: fields.body[0].id, type: 'SIGNATURE', value: pngDataUrl() }],
    });
    expect(save.body.message).toBe('INVALID_WORKFLOW_STATUS');
    // Declining it again, or commencing it, is refused.
    expect(
      (
        await t.request('POST', `/workflow/v1/${survey.workflowId}/decline`, {
          token: owner.token,
          body: { reason: 'again' },
        })
      ).body.message,
    ).toBe('INVALID_WORKFLOW_STATUS');
    expect((await commence(survey.workflowId)).body.message).toBe('INVALID_WORKFLOW_STATUS');
    const history = await t.request('GET', `/workflow/v1/${survey.workflowId}/history`, { token: owner.token });
    expect(history.body.activities.find((a: any) => a.action === 'Declined').activity).toContain('Survey closed');
  });
});

describe('Power Survey: CSV export', () => {
  it('streams one line per child; includeFields adds each label as a column, values escaped against formula injection', async () => {
    const survey = await commenced(3);
    const hostile = '=HYPERLINK("http://evil.example","x")';
    await respond(survey.recipients[0].emailAddress, hostile);
    await respond(survey.recipients[1].emailAddress, 'Plain, with "quotes"');
    await decline(survey.recipients[2].emailAddress, '@SUM(A1)');
    await t.drainJobs();

    const plain = await exportCsv(survey.workflowId);
    expect(plain.status, plain.raw).toBe(200);
    expect(plain.headers['content-type']).toContain('text/csv');
    const lines = plain.raw.trimEnd().split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(
      '"workflowId","recipientName","recipientEmail","status","recipientStatus","respondedAt","declineReason"',
    );
    expect(lines[3]).toContain('"VOID","DECLINED"');
    expect(lines[3]).toContain(`"'@SUM(A1)"`);

    const full = await exportCsv(survey.workflowId, '?includeFields=true');
    const rows = full.raw.trimEnd().split('\r\n');
    expect(rows[0].endsWith(',"Comment"')).toBe(true);
    expect(rows[1]).toContain('"COMPLETED","SIGNED"');
    expect(rows[1].endsWith(`,"'=HYPERLINK(""http://evil.example"",""x"")"`)).toBe(true);
    expect(rows[2].endsWith(',"Plain, with ""quotes"""')).toBe(true);
    expect(rows[3].endsWith(',""')).toBe(true);
  });
});

describe('Power Survey: constraints checked at commence', () => {
  async function refused(survey: { workflowId: number }, message: string) {
    const before = await creditsOf(t, owner);
    const res = await commence(survey.workflowId);
    expect(res.status, res.raw).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await statusOf(t, survey.workflowId)).toBe('DRAFT');
    expect(await creditsOf(t, owner)).toBe(before);
    expect(await childrenOf(t, survey.workflowId)).toHaveLength(0);
    return res;
  }

  it('exactly one document', async () => {
    const survey = await draftSurvey(t, owner, { recipients: 1 });
    const { uploadFile } = await import('../helpers/documents.ts');
    const { makePdf } = await import('../helpers/pdf-fixtures.ts');
    expect(
      (await uploadFile(t, owner.token, 'second.pdf', await makePdf(1), { query: { workflowId: survey.workflowId } }))
        .status,
    ).toBe(201);
    const res = await refused(survey, 'SURVEY_DOCUMENT_COUNT');
    expect(res.body.errorCode).toBe(19101);
  });

  it('exactly one signature field, unassigned', async () => {
    await refused(
      await draftSurvey(t, owner, { recipients: 1, fields: [{ fieldType: 'TEXT', label: 'Comment' }] }),
      'SURVEY_SIGNATURE_FIELD',
    );
    await refused(
      await draftSurvey(t, owner, { recipients: 1, fields: [{ fieldType: 'SIGNATURE' }, { fieldType: 'SIGNATURE' }] }),
      'SURVEY_SIGNATURE_FIELD',
    );
    await refused(
      await draftSurvey(t, owner, { recipients: 1, fields: [{ fieldType: 'SIGNATURE', recipientIndex: 0 }] }),
      'SURVEY_SIGNATURE_FIELD',
    );
  });

  it('a label on every field except image fields', async () => {
    const res = await refused(
      await draftSurvey(t, owner, {
        recipients: 1,
        fields: [
          { fieldType: 'SIGNATURE' },
          { fieldType: 'INITIALS' },
          { fieldType: 'CHECKBOX' },
          { fieldType: 'TEXT', label: 'Ok' },
        ],
      }),
      'SURVEY_FIELD_LABEL_MISSING',
    );
    expect(res.body.responseBody.fieldIds).toHaveLength(1);
    // Image fields without a label are fine.
    const fine = await draftSurvey(t, owner, {
      recipients: 1,
      fields: [
        { fieldType: 'SIGNATURE' },
        { fieldType: 'INITIALS' },
        { fieldType: 'STAMP' },
        { fieldType: 'TEXT', label: 'Ok' },
      ],
    });
    expect((await commence(fine.workflowId)).status).toBe(202);
    await t.drainJobs();
  });

  it("recipients: at least one, at most the plan's powerSurveyRecipientLimit; and credits for all of them", async () => {
    await refused(await draftSurvey(t, owner, { recipients: 0 }), 'OPERATION_IS_NOT_ALLOWED');
    await setSurveyLimit(t, owner, 2);
    try {
      const res = await refused(await draftSurvey(t, owner, { recipients: 3 }), 'SURVEY_RECIPIENT_LIMIT');
      expect(res.body.responseBody).toMatchObject({ limit: 2, recipientCount: 3 });
      const atLimit = await draftSurvey(t, owner, { recipients: 2 });
      expect((await commence(atLimit.workflowId)).status).toBe(202);
      await t.drainJobs();
    } finally {
      await setSurveyLimit(t, owner, 50);
    }
    const poor = await createUser(t, { name: 'Pat Poor' });
    const { setCredits } = await import('./survey-helpers.ts');
    await setCredits(t, poor, 2);
    const survey = await draftSurvey(t, poor, { recipients: 3 });
    const res = await t.request('POST', `/workflow/v1/${survey.workflowId}/commence`, { token: poor.token, body: {} });
    expect(res.body.message).toBe('INSUFFICIENT_CREDITS');
    expect(await creditsOf(t, poor)).toBe(2);
    expect(await statusOf(t, survey.workflowId)).toBe('DRAFT');
  });
});

describe('Power Survey endpoints: who may call them', () => {
  it('no token 401, a guest 403, another organization 404, a missing survey 404, a child NOT_A_SURVEY', async () => {
    const survey = await commenced(1);
    const outsider = await createUser(t, { name: 'Otto Outsider' });
    const { token: guest, session } = await guestFromMail(t, survey.recipients[0].emailAddress);
    const routes = (id: number) => [
      `/document/v1/power-survey/${id}/dispatch-progress`,
      `/document/v1/power-survey/${id}/workflows`,
      `/document/v1/power-survey/${id}/export.csv`,
    ];
    for (const url of routes(survey.workflowId)) {
      expect((await t.request('GET', url)).status, url).toBe(401);
      expect((await t.request('GET', url, { token: guest })).status, url).toBe(403);
      const other = await t.request('GET', url, { token: outsider.token });
      expect(other.status, url).toBe(404);
      expect((await t.request('GET', url, { token: owner.token })).status, url).toBe(200);
    }
    for (const url of routes(session.workflowId)) {
      const res = await t.request('GET', url, { token: owner.token });
      expect([res.status, res.body.message, res.body.errorCode], url).toEqual([400, 'NOT_A_SURVEY', 19105]);
    }
    for (const url of routes(999999)) expect((await t.request('GET', url, { token: owner.token })).status).toBe(404);
    // Another organization cannot commence or decline the survey either.
    expect((await commence(survey.workflowId, outsider.token)).status).toBe(404);
    expect(
      (
        await t.request('POST', `/workflow/v1/${survey.workflowId}/decline`, {
          token: outsider.token,
          body: { reason: 'x' },
        })
      ).status,
    ).toBe(404);
    // A bad page query is 400.
    expect((await childrenPage(survey.workflowId, '?size=0')).status).toBe(400);
    expect((await exportCsv(survey.workflowId, '?includeFields=maybe')).status).toBe(400);
  });
});

describe("Power Survey: the parent is its owner's alone", () => {
  it('a registered respondent sees its own child, never the parent (whose recipients are every respondent)', async () => {
    const survey = await draftSurvey(t, owner, { recipients: ['Rita Registered', 'Sam Someone'] });
    // She signs up with the address the survey was sent to: her guest user becomes her account.
    const rita = await createUser(t, { name: 'Rita Registered', email: survey.recipients[0].emailAddress });
    expect((await commence(survey.workflowId)).status).toBe(202);
    await t.drainJobs();
    const child = (await childrenOf(t, survey.workflowId)).find(
      (c) => c.parentRecipientId === survey.recipients[0].id,
    )!;

    expect(
      (await t.request('GET', `/document/v1/docs-detail/${survey.workflowId}`, { token: rita.token })).status,
    ).toBe(404);
    expect((await t.request('GET', `/workflow/v1/${survey.workflowId}/recipients`, { token: rita.token })).status).toBe(
      404,
    );
    expect((await t.request('GET', `/document/v1/docs-detail/${child.id}`, { token: rita.token })).status).toBe(200);
    const listed = await t.request('GET', '/document/v1?size=100', { token: rita.token });
    const ids = listed.body.content.map((i: { workflowId: number }) => i.workflowId);
    expect(ids).toContain(child.id);
    expect(ids).not.toContain(survey.workflowId);
    const counts = await t.request('GET', '/document/v1/count/documents-status', { token: rita.token });
    expect(counts.body.sentDocCount).toBe(1);
    expect(counts.body.pendingDocCount).toBe(1);
    expect(
      (await t.request('GET', `/document/v1/docs-detail/${survey.workflowId}`, { token: owner.token })).status,
    ).toBe(200);
  });
});
