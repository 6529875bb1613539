import { describe, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { test as base, fileUser } from '../helpers/fixtures.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { commence, draftWithRecipients, mailRows, saveAll, tokenFromMail, waitForSeal } from '../helpers/ceremony.ts';
import { users } from '../../src/platform/db/schema/index.ts';
import type { TestApp } from '../helpers/test-app.ts';

/**
 * Notification preferences (PUT /user/v1/settings/notifications) are honoured where mail is queued: an optional mail
 * (completed copy, declined and voided notices) is not queued for a verified registered user who turned its kind
 * off; what a person needs in order to act (signing requests) is sent whatever the settings say; and an account
 * whose address is not verified cannot silence the mail of the address's real owner.
 */
const test = base.extend<{ sender: TestUser }>({ sender: fileUser({ name: 'Nora Notify' }) });

async function turnOff(t: TestApp, user: TestUser, preferences: Record<string, boolean>) {
  const res = await t.request('PUT', '/user/v1/settings/notifications', { token: user.token, body: preferences });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  for (const [name, value] of Object.entries(preferences)) expect(res.body[name]).toBe(value);
}

const addressesOf = (rows: { toAddress: string }[]) => rows.map((row) => row.toAddress).sort();

describe('notification preferences and the mails that are queued', () => {
  test('a completed copy is not mailed to whoever turned workflowCompleted off; signing requests still are', async ({
    app,
    sender,
  }) => {
    const { workflow, document, parties, fieldIds } = await draftWithRecipients(app, sender, {
      sequence: 'UNORDERED',
      recipients: [
        { name: 'Quiet Signer', fields: [{ fieldType: 'SIGNATURE' }] },
        { name: 'Loud Signer', fields: [{ fieldType: 'SIGNATURE' }] },
      ],
    });
    const [quiet, loud] = parties;
    await turnOff(app, sender, { workflowCompleted: false });
    // Everything optional off: a signing request is not optional.
    await turnOff(app, quiet.user, {
      workflowCompleted: false,
      workflowDeclined: false,
      workflowVoided: false,
      workflowDelegated: false,
      commentAdded: false,
      documentOpened: false,
    });

    await commence(app, sender, workflow.id);
    expect(addressesOf(await mailRows(app, workflow.id, 'COMMENCE'))).toEqual([quiet.row.email, loud.row.email].sort());
    for (const [index, party] of parties.entries()) {
      const signed = await saveAll(app, await tokenFromMail(app, party.row.email), document.id, fieldIds[index]);
      expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    }
    expect((await waitForSeal(app, workflow.id)).sealStatus).toBe('SEALED');
    await app.drainJobs();
    // Only the signer who kept the default gets the sealed copy.
    expect(addressesOf(await mailRows(app, workflow.id, 'COMPLETED'))).toEqual([loud.row.email]);
  });

  test('a decline: no DECLINED notice to an owner who turned it off, no VOIDED notice to a recipient who did', async ({
    app,
    sender,
  }) => {
    const { workflow, parties } = await draftWithRecipients(app, sender, {
      sequence: 'UNORDERED',
      recipients: [
        { name: 'Dana Decliner', fields: [{ fieldType: 'SIGNATURE' }] },
        { name: 'Quiet Other', fields: [{ fieldType: 'SIGNATURE' }] },
        { name: 'Loud Other', fields: [{ fieldType: 'SIGNATURE' }] },
      ],
    });
    const [decliner, quiet, loud] = parties;
    await turnOff(app, sender, { workflowDeclined: false, workflowCompleted: true });
    await turnOff(app, quiet.user, { workflowVoided: false });
    await commence(app, sender, workflow.id);

    const res = await app.request('POST', `/workflow/v1/${workflow.id}/decline`, {
      token: await tokenFromMail(app, decliner.row.email),
      body: { reason: 'Not today' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await app.drainJobs();
    expect(await mailRows(app, workflow.id, 'DECLINED')).toEqual([]);
    expect(addressesOf(await mailRows(app, workflow.id, 'VOIDED'))).toEqual([loud.row.email]);

    // The same decline with the owner's default back on: the owner is told.
    await turnOff(app, sender, { workflowDeclined: true });
    const again = await draftWithRecipients(app, sender, {
      sequence: 'UNORDERED',
      recipients: [{ name: 'Dana Decliner', fields: [{ fieldType: 'SIGNATURE' }] }],
    });
    await commence(app, sender, again.workflow.id);
    const declined = await app.request('POST', `/workflow/v1/${again.workflow.id}/decline`, {
      token: await tokenFromMail(app, again.parties[0].row.email),
      body: { reason: 'Still no' },
    });
    expect(declined.status).toBe(200);
    await app.drainJobs();
    expect(addressesOf(await mailRows(app, again.workflow.id, 'DECLINED'))).toEqual([sender.email]);
  });

  test('an account whose address is not verified cannot turn off the mail that address receives', async ({
    app,
    sender,
  }) => {
    const { workflow, document, parties, fieldIds } = await draftWithRecipients(app, sender, {
      sequence: 'UNORDERED',
      recipients: [{ name: 'Una Verified', fields: [{ fieldType: 'SIGNATURE' }] }],
    });
    const [signer] = parties;
    // The recipient's address is held by an account that never proved it owns the address.
    await turnOff(app, signer.user, { workflowCompleted: false });
    await app.platform.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, signer.user.userId));

    await commence(app, sender, workflow.id);
    expect((await saveAll(app, await tokenFromMail(app, signer.row.email), document.id, fieldIds[0])).status).toBe(200);
    expect((await waitForSeal(app, workflow.id)).sealStatus).toBe('SEALED');
    await app.drainJobs();
    expect(addressesOf(await mailRows(app, workflow.id, 'COMPLETED'))).toEqual([sender.email, signer.row.email].sort());
  });

  test('mails a user cannot turn off are queued whatever the settings (an account-locked notice, a verification mail)', async ({
    app,
  }) => {
    const user = await createUser(app, { name: 'Lena Locked' });
    await turnOff(app, user, {
      workflowCompleted: false,
      workflowDeclined: false,
      workflowVoided: false,
      workflowDelegated: false,
      commentAdded: false,
      documentOpened: false,
    });
    const id = await app.platform.db.transaction((tx) =>
      app.platform.outbox.enqueue(tx, {
        to: user.email,
        subject: 'Security notice',
        text: 'x',
        kind: 'ACCOUNT_LOCKED',
      }),
    );
    expect(id).toEqual(expect.any(Number));
    const optional = await app.platform.db.transaction((tx) =>
      app.platform.outbox.enqueue(tx, { to: user.email.toUpperCase(), subject: 'Done', text: 'x', kind: 'COMPLETED' }),
    );
    // Matched whatever the case of the address.
    expect(optional).toBeNull();
  });
});
