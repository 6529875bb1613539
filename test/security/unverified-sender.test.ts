import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations, workflows } from '../../src/platform/db/schema/index.ts';
import { signIn, signUp } from '../helpers/auth.ts';
import { pngDataUrl } from '../helpers/ceremony.ts';
import { uploadFile } from '../helpers/documents.ts';
import type { TestUser } from '../helpers/factories.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { addField, addRecipients, fieldEntry, recipientEntry } from '../helpers/recipients.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { draftSurvey } from '../surveys/survey-helpers.ts';

/**
 * The attack (trust issue, item 4): an account that never proved its address sends the platform's mail to anyone, as
 * anyone (sign up as ceo@company, send "sign this" from the platform's domain). The rule (RUNTIME.md round three):
 * sending to others (commence, template dispatch and apply with send, Power Survey) needs a verified address, else 403
 * EMAIL_NOT_VERIFIED; drafts, self-signing and reading work before verification.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A fresh sign-up over HTTP, signed in, its address not verified; as a TestUser for the helpers. */
async function unverifiedSender(name = 'Ursula Unverified'): Promise<TestUser> {
  const account = await signUp(t, { name });
  const session = await signIn(t, account.email, account.password);
  return { ...account, token: session.accessToken };
}

async function draftToSomeone(sender: TestUser) {
  const upload = await uploadFile(t, sender.token, 'offer.pdf', await makePdf(1));
  expect(upload.status, upload.raw).toBe(201);
  const { workflowId, id: documentId } = upload.body;
  const [row] = await addRecipients(t, sender.token, workflowId, [recipientEntry({ name: 'Terry Target' })]);
  await addField(t, sender.token, documentId, fieldEntry(row.id, { fieldType: 'SIGNATURE' }));
  return { workflowId, documentId, email: row.emailAddress as string };
}

async function creditsOf(organizationId: number) {
  return (
    await t.platform.db
      .select({ credits: organizations.credits })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
  )[0].credits;
}

async function statusOf(workflowId: number) {
  return (
    await t.platform.db.select({ status: workflows.status }).from(workflows).where(eq(workflows.id, workflowId))
  )[0].status;
}

describe('sending to others needs a verified address', () => {
  it('commence answers 403 EMAIL_NOT_VERIFIED and changes nothing; after the verification link it sends', async () => {
    const sender = await unverifiedSender();
    const draft = await draftToSomeone(sender);
    const credits = await creditsOf(sender.organizationId);

    const refused = await t.request('POST', `/workflow/v1/${draft.workflowId}/commence`, {
      token: sender.token,
      body: { title: 'Please sign' },
    });
    expect(refused.status, refused.raw).toBe(403);
    expect(refused.body.message).toBe('EMAIL_NOT_VERIFIED');
    expect(await statusOf(draft.workflowId)).toBe('DRAFT');
    expect(await creditsOf(sender.organizationId)).toBe(credits);
    expect(await t.mails({ to: draft.email })).toEqual([]);
    // The profile tells a client (the web app) why, before it tries.
    expect((await t.request('GET', '/user/v1/settings/profile', { token: sender.token })).body.emailVerified).toBe(
      false,
    );

    const [verification] = await t.mails({ to: sender.email, kind: 'EMAIL_VERIFICATION' });
    const code = /\/verify-email\/([A-Za-z0-9_-]+)/.exec(verification.textBody)![1];
    expect((await t.request('POST', '/auth/v1/verify-email', { body: { code } })).status).toBe(200);
    expect((await t.request('GET', '/user/v1/settings/profile', { token: sender.token })).body.emailVerified).toBe(
      true,
    );

    const sent = await t.request('POST', `/workflow/v1/${draft.workflowId}/commence`, {
      token: sender.token,
      body: { title: 'Please sign' },
    });
    expect(sent.status, sent.raw).toBe(200);
    expect(await t.mails({ to: draft.email, kind: 'COMMENCE' })).toHaveLength(1);
  });

  it('template dispatch and apply are refused the same way; apply without sending (a draft) works', async () => {
    const sender = await unverifiedSender('Tina Templates');
    const draft = await draftToSomeone(sender);
    const template = await t.request('POST', '/organization/v1/templates', {
      token: sender.token,
      body: { name: 'Offer letter', workflowId: draft.workflowId },
    });
    expect(template.status, template.raw).toBe(200);

    const dispatch = await t.request('POST', `/workflow/v1/templates/${template.body.id}/dispatch`, {
      token: sender.token,
      body: [{ recipientIndex: 1, name: 'Victor Victim', emailAddress: 'victor@victim.example' }],
    });
    expect(dispatch.status, dispatch.raw).toBe(403);
    expect(dispatch.body.message).toBe('EMAIL_NOT_VERIFIED');
    expect(await t.mails({ to: 'victor@victim.example' })).toEqual([]);

    const apply = await t.request('POST', `/workflow/v1/templates/${template.body.id}/apply`, {
      token: sender.token,
      body: [{ recipientIndex: 1, name: 'Victor Victim', emailAddress: 'victor@victim.example' }],
    });
    expect(apply.status, apply.raw).toBe(200);
    expect(await statusOf(apply.body.id)).toBe('DRAFT');
  });

  it('a Power Survey is refused before anything is debited or dispatched', async () => {
    const sender = await unverifiedSender('Sven Survey');
    const survey = await draftSurvey(t, sender, { recipients: 3 });
    const credits = await creditsOf(sender.organizationId);
    const res = await t.request('POST', `/workflow/v1/${survey.workflowId}/commence`, {
      token: sender.token,
      body: {},
    });
    expect(res.status, res.raw).toBe(403);
    expect(res.body.message).toBe('EMAIL_NOT_VERIFIED');
    expect(await statusOf(survey.workflowId)).toBe('DRAFT');
    expect(await creditsOf(sender.organizationId)).toBe(credits);
  });

  it('self-signing works before verification; the audit trail says the address was not verified, so the seal vouches for nothing unproven', async () => {
    const sender = await unverifiedSender('Selma Self');
    const upload = await uploadFile(t, sender.token, 'note.pdf', await makePdf(1), {
      query: { sequence: 'SELF', signType: 'SELFSIGN' },
    });
    expect(upload.status, upload.raw).toBe(201);
    const [self] = (
      await t.request('GET', `/workflow/v1/${upload.body.workflowId}/recipients`, { token: sender.token })
    ).body;
    const field = await addField(t, sender.token, upload.body.id, fieldEntry(self.id, { fieldType: 'SIGNATURE' }));
    const signed = await t.request('POST', `/workflow/v1/${upload.body.id}/fields/save`, {
      token: sender.token,
      body: [{ id: field.id, type: 'SIGNATURE', value: pngDataUrl(60, 20, 1) }],
    });
    expect(signed.status, signed.raw).toBe(200);
    expect(signed.body.workflowStatus).toBe('COMPLETED');
    const history = await t.request('GET', `/workflow/v1/${upload.body.workflowId}/history`, { token: sender.token });
    const signedRow = history.body.activities.find((a: { action: string }) => a.action === 'Signed');
    expect(signedRow.activity).toBe(
      `Selma Self signed the document (the address ${sender.email.toLowerCase()} was not verified when signing)`,
    );
  });
});
