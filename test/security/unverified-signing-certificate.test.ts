import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, signerKeys } from '../../src/platform/db/schema/index.ts';
import { insertBusinessApp, signIn, signUp } from '../helpers/auth.ts';
import { commence, documentRows, pngDataUrl, tokenFromMail, waitForSeal } from '../helpers/ceremony.ts';
import { createDraftWorkflow, createUser, insertField, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { setRecipient } from '../helpers/envelope-states.ts';
import { addField, addRecipients, fieldEntry, recipientEntry } from '../helpers/recipients.ts';
import { multipartBody, uploadFile } from '../helpers/documents.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The attack (trust issue, item 2): an account that never proved its address self-signs with useDigitalCert, and the
 * platform CA certifies a key for an address the signer does not control, which POST /verify/v1 calls VALID and
 * trusted; squatting an address first lets the attacker lock the real person's key with wrong passwords. The defence
 * (RUNTIME.md round three): a key is created or opened only for a platform-verified address (a verified account with its
 * own token, or a signing link the platform's own mail delivered), named from the verified account; a locked or
 * forgotten key is replaced through a platform-mailed code.
 */

const PASSWORD = 'my signing secret';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

function digital(id: number, password: string) {
  return { id, type: 'DIGITAL_SIGNATURE', value: pngDataUrl(120, 40, 3), password };
}

async function keyOf(email: string) {
  return (await t.platform.db.select().from(signerKeys).where(eq(signerKeys.email, email.toLowerCase())))[0];
}

/** A SELF draft uploaded over HTTP whose one row (the owner's) signs with a platform-certified key, with a DIGITAL_SIGNATURE field. */
async function selfSignDraft(token: string) {
  const upload = await uploadFile(t, token, 'contract.pdf', await makePdf(1), {
    query: { sequence: 'SELF', signType: 'SELFSIGN' },
  });
  expect(upload.status, upload.raw).toBe(201);
  const { workflowId, id: documentId } = upload.body;
  const rows = await t.request('GET', `/workflow/v1/${workflowId}/recipients`, { token });
  const self = rows.body[0];
  await setRecipient(t, self.id, { useDigitalCert: true });
  const field = await addField(
    t,
    token,
    documentId,
    fieldEntry(self.id, { fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true }),
  );
  return { workflowId, documentId, fieldId: field.id as number };
}

/** An envelope of `owner` to `email` (a guest row) with useDigitalCert and a DIGITAL_SIGNATURE field, sent. */
async function certifiedEnvelope(owner: TestUser, email: string, name = 'Vera Victim') {
  const { workflow, document } = await createDraftWorkflow(t, owner);
  const [row] = await addRecipients(t, owner.token, workflow.id, [
    recipientEntry({ name, emailAddress: email, useDigitalCert: true }),
  ]);
  const field = await addField(
    t,
    owner.token,
    document.id,
    fieldEntry(row.id, { fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true }),
  );
  await commence(t, owner, workflow.id);
  return { workflow, document, row, fieldId: field.id as number };
}

async function verifyFile(bytes: Uint8Array) {
  const { body, contentType } = multipartBody([
    { name: 'file', filename: 'sealed.pdf', contentType: 'application/pdf', data: bytes },
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/verify/v1',
    headers: { 'content-type': contentType },
    payload: body,
  });
  return res.json();
}

describe('platform-certified keys only for platform-verified addresses', () => {
  it('an account that never verified its address cannot have its address certified by self-signing', async () => {
    const victimEmail = `vera-${Date.now()}@victim.example`;
    // The attacker signs up with an address it does not control and never opens the verification mail.
    const attacker = await signUp(t, { name: 'Vera Victim', email: victimEmail });
    const session = await signIn(t, attacker.email, attacker.password);
    const draft = await selfSignDraft(session.accessToken);

    const status = await t.request('GET', `/workflow/v1/${draft.workflowId}/signing-key`, {
      token: session.accessToken,
    });
    expect(status.body).toMatchObject({ useDigitalCert: true, certifiable: false, provisioned: false });
    const res = await t.request('POST', `/workflow/v1/${draft.documentId}/fields/save`, {
      token: session.accessToken,
      body: [digital(draft.fieldId, PASSWORD)],
    });
    expect(res.status, res.raw).toBe(403);
    expect(res.body.message).toBe('EMAIL_NOT_VERIFIED');
    expect(await keyOf(victimEmail)).toBeUndefined();
  });

  it('squatting the address first does not lock the real person out: the key is provisioned by the person the platform mailed', async () => {
    const owner = await createUser(t, { name: 'Olga Owner' });
    const victimEmail = `real-${Date.now()}@victim.example`;
    const squatter = await signUp(t, { name: 'Sam Squatter', email: victimEmail });
    const session = await signIn(t, squatter.email, squatter.password);
    const draft = await selfSignDraft(session.accessToken);
    for (let i = 0; i < 3; i += 1) {
      const res = await t.request('POST', `/workflow/v1/${draft.documentId}/fields/save`, {
        token: session.accessToken,
        body: [digital(draft.fieldId, `squatted ${i}`)],
      });
      expect(res.status).toBe(403);
    }
    expect(await keyOf(victimEmail)).toBeUndefined();

    // The real person receives an envelope; the platform mails the link, so opening it proves the mailbox.
    const envelope = await certifiedEnvelope(owner, victimEmail, 'Vera Real');
    const [commenceMail] = await t.mails({ to: victimEmail, kind: 'COMMENCE' });
    expect(commenceMail.viaPlatform).toBe(true);
    const guest = await tokenFromMail(t, victimEmail);
    expect(
      (await t.request('GET', `/workflow/v1/${envelope.workflow.id}/signing-key`, { token: guest })).body,
    ).toMatchObject({ certifiable: true, provisioned: false });
    const signed = await t.request('POST', `/workflow/v1/${envelope.document.id}/fields/save`, {
      token: guest,
      body: [digital(envelope.fieldId, PASSWORD)],
    });
    expect(signed.status, signed.raw).toBe(200);
    const key = await keyOf(victimEmail);
    // The squatter's account is not verified: the certificate names the recipient row, not the squatter's account name.
    expect(key.name).toBe('Vera Real');
  });

  it("a guest link that did not come through the platform's mail does not prove the address", async () => {
    const owner = await createUser(t, { name: 'Oscar Owner' });
    const email = `routed-${Date.now()}@x.example`;
    const envelope = await certifiedEnvelope(owner, email);
    const guest = await tokenFromMail(t, email);
    // As if the link had travelled through an organization's own provider (a link mailed before this rule).
    await t.platform.db
      .update(mailOutbox)
      .set({ viaPlatform: false })
      .where(eq(mailOutbox.recipientId, envelope.row.id));
    const res = await t.request('POST', `/workflow/v1/${envelope.document.id}/fields/save`, {
      token: guest,
      body: [digital(envelope.fieldId, PASSWORD)],
    });
    expect(res.status, res.raw).toBe(403);
    expect(res.body.message).toBe('EMAIL_NOT_VERIFIED');
    expect(await keyOf(email)).toBeUndefined();
  });

  it("a verified account signing with its own token is certified under the account's name, not the name the sender typed", async () => {
    const owner = await createUser(t, { name: 'Otto Owner' });
    const signer = await createUser(t, { name: 'Real Account Name' });
    const { workflow, document } = await createDraftWorkflow(t, owner);
    const row = await insertRecipient(t, workflow.id, {
      userId: signer.userId,
      name: 'Typed By Sender',
      email: signer.email,
    });
    await setRecipient(t, row.id, { useDigitalCert: true });
    const field = await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId: row.id,
      fieldType: 'DIGITAL_SIGNATURE',
      fieldRequired: true,
    });
    await commence(t, owner, workflow.id);
    const res = await t.request('POST', `/workflow/v1/${document.id}/fields/save`, {
      token: signer.token,
      body: [digital(field.id, PASSWORD)],
    });
    expect(res.status, res.raw).toBe(200);
    expect((await keyOf(signer.email)).name).toBe('Real Account Name');
  });

  it("a business app's token never signs with the person's key", async () => {
    const owner = await createUser(t, { name: 'Pia Partner' });
    const { workflow, document } = await createDraftWorkflow(t, owner, { sequence: 'SELF' });
    const [self] = (await t.request('GET', `/workflow/v1/${workflow.id}/recipients`, { token: owner.token })).body;
    await setRecipient(t, self.id, { useDigitalCert: true });
    const field = await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId: self.id,
      fieldType: 'DIGITAL_SIGNATURE',
      fieldRequired: true,
    });
    const app = await insertBusinessApp(t, owner.organizationId);
    const signin = await t.request('POST', '/auth/v1/signin', {
      body: {
        grant_type: 'CLIENT_CREDENTIALS',
        client_id: app.clientId,
        client_secret: app.clientSecret,
        email: owner.email,
      },
    });
    expect(signin.status, signin.raw).toBe(200);
    const res = await t.request('POST', `/workflow/v1/${document.id}/fields/save`, {
      token: signin.body.accessToken,
      body: [digital(field.id, PASSWORD)],
    });
    expect(res.status, res.raw).toBe(403);
    expect(res.body.message).toBe('USER_NOT_HAVE_ACCESS');
    expect(await keyOf(owner.email)).toBeUndefined();
  });
});

describe('a new key through a platform-mailed code', () => {
  it('a key locked by wrong passwords is replaced; the earlier signature stays valid and the new password signs', async () => {
    const owner = await createUser(t, { name: 'Rita Owner' });
    const email = `locked-${Date.now()}@x.example`;
    const first = await certifiedEnvelope(owner, email, 'Lena Locked');
    const firstGuest = await tokenFromMail(t, email);
    expect(
      (
        await t.request('POST', `/workflow/v1/${first.document.id}/fields/save`, {
          token: firstGuest,
          body: [digital(first.fieldId, PASSWORD)],
        })
      ).status,
    ).toBe(200);
    const oldSerial = (await keyOf(email)).certificateSerial;
    await waitForSeal(t, first.workflow.id);

    const second = await certifiedEnvelope(owner, email, 'Lena Locked');
    const guest = await tokenFromMail(t, email);
    for (let i = 1; i <= 10; i += 1) {
      expect(
        (
          await t.request('POST', `/workflow/v1/${second.document.id}/fields/save`, {
            token: guest,
            body: [digital(second.fieldId, `guess ${i}`)],
          })
        ).status,
      ).toBe(400);
    }
    const locked = await t.request('POST', `/workflow/v1/${second.document.id}/fields/save`, {
      token: guest,
      body: [digital(second.fieldId, PASSWORD)],
    });
    expect(locked.status).toBe(401);
    expect(locked.body.responseBody).toMatchObject({ resettable: true });

    const sent = await t.request('POST', `/workflow/v1/${second.workflow.id}/signing-key/reset-code`, { token: guest });
    expect(sent.status, sent.raw).toBe(200);
    expect(sent.body.resendAfterSeconds).toBe(30);
    const again = await t.request('POST', `/workflow/v1/${second.workflow.id}/signing-key/reset-code`, {
      token: guest,
    });
    expect(again.status).toBe(429);
    expect(again.headers['retry-after']).toBeDefined();
    const [mail] = await t.mails({ to: email, kind: 'SIGNING_KEY_RESET' });
    expect(mail).toMatchObject({ viaPlatform: true, route: 'PLATFORM' });
    const code = /code for a new signing key is (\d{6})/.exec(mail.textBody)![1];

    const wrong = await t.request('POST', `/workflow/v1/${second.workflow.id}/signing-key/reset`, {
      token: guest,
      body: { code: code === '000000' ? '111111' : '000000', password: 'a brand new secret' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('OTP_INVALID');
    const short = await t.request('POST', `/workflow/v1/${second.workflow.id}/signing-key/reset`, {
      token: guest,
      body: { code, password: 'short' },
    });
    expect(short.body.message).toBe('SIGNING_PASSWORD_TOO_SHORT');
    const reset = await t.request('POST', `/workflow/v1/${second.workflow.id}/signing-key/reset`, {
      token: guest,
      body: { code, password: 'a brand new secret' },
    });
    expect(reset.status, reset.raw).toBe(200);
    expect(reset.body).toMatchObject({ provisioned: true, certifiable: true });
    expect(reset.body.certificate.serialNumber).not.toBe(oldSerial);
    // The code is used up.
    expect(
      (
        await t.request('POST', `/workflow/v1/${second.workflow.id}/signing-key/reset`, {
          token: guest,
          body: { code, password: 'another new secret' },
        })
      ).status,
    ).toBe(400);

    // The lock is lifted and the old password no longer opens anything; the new one signs with the new certificate.
    const old = await t.request('POST', `/workflow/v1/${second.document.id}/fields/save`, {
      token: guest,
      body: [digital(second.fieldId, PASSWORD)],
    });
    expect(old.status).toBe(400);
    expect(old.body.message).toBe('SIGNING_PASSWORD_INVALID');
    const signed = await t.request('POST', `/workflow/v1/${second.document.id}/fields/save`, {
      token: guest,
      body: [digital(second.fieldId, 'a brand new secret')],
    });
    expect(signed.status, signed.raw).toBe(200);
    await waitForSeal(t, second.workflow.id);

    // Both sealed files verify: the signature made with the replaced key stays valid.
    for (const workflowId of [first.workflow.id, second.workflow.id]) {
      const [doc] = await documentRows(t, workflowId);
      const answer = await verifyFile(await t.platform.blobs.get(doc.sealedBlobKey!));
      expect(answer.signatures.length).toBe(2);
      for (const signature of answer.signatures) expect(signature.integrity).toBe('VALID');
    }
  }, 120_000);

  it('nobody without the verified address can ask for a reset, and a person without a key has nothing to reset', async () => {
    const email = `nokey-${Date.now()}@victim.example`;
    const squatter = await signUp(t, { name: 'Sid Squatter', email });
    const session = await signIn(t, squatter.email, squatter.password);
    const draft = await selfSignDraft(session.accessToken);
    const refused = await t.request('POST', `/workflow/v1/${draft.workflowId}/signing-key/reset-code`, {
      token: session.accessToken,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('EMAIL_NOT_VERIFIED');

    const owner = await createUser(t, { name: 'Nora Owner' });
    const envelope = await certifiedEnvelope(owner, `fresh-${Date.now()}@x.example`);
    const guest = await tokenFromMail(t, envelope.row.emailAddress);
    const none = await t.request('POST', `/workflow/v1/${envelope.workflow.id}/signing-key/reset-code`, {
      token: guest,
    });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
  });
});
