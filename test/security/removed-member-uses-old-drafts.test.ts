import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents, organizations, workflows } from '../../src/platform/db/schema/index.ts';
import { signIn } from '../helpers/auth.ts';
import { pngDataUrl } from '../helpers/ceremony.ts';
import { uploadFile } from '../helpers/documents.ts';
import { createDraftWorkflow, createUser, insertField, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { draftSurvey } from '../surveys/survey-helpers.ts';
import { addMember } from '../organizations/org-helpers.ts';

/*
 * The attack: a member drafts envelopes in the organization, is removed, signs in again (now acting in an
 * organization of their own) and still owns the drafts: POST commence debited the old organization's credits and
 * mailed through its mail settings and branding, a self-signed draft completed on its credits, and documents could
 * be appended to the drafts. Removing the membership left every right tied to ownership. Now sending, completing a
 * self-signed workflow and adding documents need an owner who is an ACTIVE member of the workflow's organization:
 * else 403 USER_NOT_HAVE_ACCESS, nothing written, nothing debited, nothing mailed.
 */

let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Olga Owner' });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

async function creditsOf(organizationId: number): Promise<number> {
  return (
    await t.platform.db
      .select({ credits: organizations.credits })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
  )[0].credits;
}

async function statusOf(workflowId: number): Promise<string> {
  return (
    await t.platform.db.select({ status: workflows.status }).from(workflows).where(eq(workflows.id, workflowId))
  )[0].status;
}

/** A draft of `member` in the owner's organization, ready to send: one signer with a SIGNATURE field. */
async function sendableDraft(member: TestUser) {
  const { workflow, document } = await createDraftWorkflow(t, member);
  const signer = await createUser(t, { name: 'Sam Signer' });
  const row = await insertRecipient(t, workflow.id, { userId: signer.userId, name: 'Sam Signer', email: signer.email });
  await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: row.id,
    fieldType: 'SIGNATURE',
  });
  return { workflow, signerEmail: signer.email };
}

/** A self-signed draft of `member` in the owner's organization with its one SIGNATURE field. */
async function selfDraft(member: TestUser) {
  const { workflow, document, selfRecipient } = await createDraftWorkflow(t, member, { sequence: 'SELF' });
  const signature = await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: selfRecipient!.id,
    fieldType: 'SIGNATURE',
  });
  return { workflow, signature };
}

/** Removes `member` from the owner's organization; answers the token a sign-in gives them afterwards (their own organization). */
async function removeAndSignInAgain(member: TestUser): Promise<TestUser> {
  const removed = await t.request('DELETE', `/organization/v1/user?ids=${member.userId}&isJoinedUser=true`, {
    token: owner.token,
  });
  expect(removed.status, removed.raw).toBe(204);
  const session = await signIn(t, member.email, member.password);
  const profile = await t.request('GET', '/user/v1/settings/profile', { token: session.accessToken });
  expect(profile.body.organizationId).not.toBe(owner.organizationId);
  return { ...member, organizationId: profile.body.organizationId, token: session.accessToken };
}

function expectRefused(res: { status: number; body: any; raw: string }) {
  expect(res.status, res.raw).toBe(403);
  expect(res.body.message).toBe('USER_NOT_HAVE_ACCESS');
}

describe("a removed member keeps their drafts but not the organization's means", () => {
  it("while a member, commence sends on the organization's credits; once removed, commence of an old draft is 403 and debits nothing", async () => {
    const member = await addMember(t, owner, null, 'Rita Removed');
    const before = await sendableDraft(member);
    const sent = await t.request('POST', `/workflow/v1/${before.workflow.id}/commence`, {
      token: member.token,
      body: { title: 'Please sign' },
    });
    expect(sent.status, sent.raw).toBe(200);

    const draft = await sendableDraft(member);
    const formerMember = await removeAndSignInAgain(member);
    const credits = await creditsOf(owner.organizationId);
    const refused = await t.request('POST', `/workflow/v1/${draft.workflow.id}/commence`, {
      token: formerMember.token,
      body: { title: 'Please sign' },
    });
    expectRefused(refused);
    expect(await creditsOf(owner.organizationId)).toBe(credits);
    expect(await statusOf(draft.workflow.id)).toBe('DRAFT');
    expect(await t.mails({ to: draft.signerEmail, kind: 'COMMENCE' })).toEqual([]);
    // The draft stays theirs to read.
    expect(
      (await t.request('GET', `/workflow/v1/${draft.workflow.id}/recipients`, { token: formerMember.token })).status,
    ).toBe(200);
  });

  it('a Power Survey draft of the organization is not sent either', async () => {
    const member = await addMember(t, owner, null, 'Sue Surveyor');
    const survey = await draftSurvey(t, member, { recipients: 2 });
    const formerMember = await removeAndSignInAgain(member);
    const credits = await creditsOf(owner.organizationId);
    expectRefused(
      await t.request('POST', `/workflow/v1/${survey.workflowId}/commence`, { token: formerMember.token, body: {} }),
    );
    expect(await creditsOf(owner.organizationId)).toBe(credits);
    expect(await statusOf(survey.workflowId)).toBe('DRAFT');
  });

  it('a self-signed draft of the organization does not complete on its credits: the final signature is refused and nothing of it kept', async () => {
    const member = await addMember(t, owner, null, 'Sid Selfsigner');
    const draft = await selfDraft(member);
    const formerMember = await removeAndSignInAgain(member);
    const credits = await creditsOf(owner.organizationId);
    expectRefused(
      await t.request('POST', `/workflow/v1/${draft.workflow.id}/sign`, {
        token: formerMember.token,
        body: { id: draft.signature.id, image: pngDataUrl(120, 40) },
      }),
    );
    expect(await creditsOf(owner.organizationId)).toBe(credits);
    expect(await statusOf(draft.workflow.id)).toBe('DRAFT');
  });

  it('documents cannot be appended to an old draft', async () => {
    const member = await addMember(t, owner, null, 'Dora Drafter');
    const { workflow } = await createDraftWorkflow(t, member);
    const formerMember = await removeAndSignInAgain(member);
    const count = async () =>
      (await t.platform.db.select({ id: documents.id }).from(documents).where(eq(documents.workflowId, workflow.id)))
        .length;
    const before = await count();
    expectRefused(
      await uploadFile(t, formerMember.token, 'more.pdf', await makePdf(1), { query: { workflowId: workflow.id } }),
    );
    expect(await count()).toBe(before);
    // Their new organization's own drafts take documents as before.
    const own = await uploadFile(t, formerMember.token, 'own.pdf', await makePdf(1));
    expect(own.status, own.raw).toBe(201);
    expect(
      (
        await uploadFile(t, formerMember.token, 'more.pdf', await makePdf(1), {
          query: { workflowId: own.body.workflowId },
        })
      ).status,
    ).toBe(201);
  });
});
