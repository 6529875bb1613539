import { unzipSync } from 'fflate';
import { expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import {
  commence,
  documentRows,
  draftWithRecipients,
  recipientRow,
  saveAll,
  tokenFromMail,
  waitForSeal,
} from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';
import { createReminderService } from '../../src/modules/reminders/reminders.service.ts';
import { createSigningCodes, loadSigningCodeKey } from '../../src/modules/signing/signing-codes.ts';

async function raw(t: TestApp, url: string, token: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  return { status: res.statusCode, headers: res.headers, bytes: new Uint8Array(res.rawPayload), text: res.body };
}

/**
 * One envelope through the other modules' endpoints (settings, commence, guest links, fields/save, the
 * seal job), read back through history, reminders, the evidence report and the downloads.
 */
test('history, reminders, evidence report and downloads follow a real envelope from commence to seal', async ({
  app: t,
  owner,
}) => {
  const { workflow, document, parties, fieldIds } = await draftWithRecipients(t, owner, {
    sequence: 'UNORDERED',
    recipients: [
      { name: 'Alice Signer', fields: [{ fieldType: 'SIGNATURE' }] },
      { name: 'Bob Signer', fields: [{ fieldType: 'SIGNATURE' }, { fieldType: 'TEXT', fieldRequired: true }] },
    ],
  });
  const [alice, bob] = parties;
  const reminderRes = await t.request('PUT', `/workflow/v1/${workflow.id}/reminder`, {
    token: owner.token,
    body: { enabled: true, offsetMinutes: 30 },
  });
  expect(reminderRes.status, JSON.stringify(reminderRes.body)).toBe(200);

  const draftHistory = await t.request('GET', `/workflow/v1/${workflow.id}/history`, { token: alice.user.token });
  expect(draftHistory.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
  await commence(t, owner, workflow.id, { title: 'Please sign', message: 'Thanks' });

  const sent = await t.request('GET', `/workflow/v1/${workflow.id}/history`, { token: alice.user.token });
  expect(sent.status).toBe(200);
  expect(sent.body.metadata).toMatchObject({
    status: 'SENT',
    holder: 'Alice Signer, Bob Signer',
    flowType: 'UNORDERED',
  });
  expect(sent.body.metadata.dateSent).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  expect(sent.body.activities.map((a: any) => a.action)).toContain('Sent');

  // Reminders: 30 minutes after each recipient received the document, once.
  const reminders = createReminderService({
    db: t.platform.db,
    outbox: t.platform.outbox,
    codes: createSigningCodes(loadSigningCodeKey(t.config.dataDir)),
    publicUrl: t.config.publicUrl,
  });
  const dispatchedAt = (await recipientRow(t, alice.row.id)).dispatchedAt!;
  const at = (minutes: number) => new Date(dispatchedAt.getTime() + minutes * 60_000);
  expect(await reminders.runReminderSweep(at(29))).toEqual({ sent: 0 });
  expect(await reminders.runReminderSweep(at(31))).toEqual({ sent: 2 });

  // Alice signs from the reminder's link; Bob from the commence mail.
  const aliceToken = await tokenFromMail(t, alice.user.email, 'REMINDER');
  expect((await saveAll(t, aliceToken, document.id, fieldIds[0])).status).toBe(200);
  const midway = await t.request('GET', `/workflow/v1/${workflow.id}/history`, { token: aliceToken });
  expect(midway.body.metadata.holder).toBe('Bob Signer');
  expect(midway.body.activities.filter((a: any) => a.consent !== null)).toHaveLength(1);
  expect(
    (await t.request('GET', `/workflow/v1/evidence-report/${workflow.id}`, { token: owner.token })).body.message,
  ).toBe('INVALID_WORKFLOW_STATUS');
  expect(await reminders.runReminderSweep(at(24 * 60))).toEqual({ sent: 0 });

  const bobToken = await tokenFromMail(t, bob.user.email);
  expect((await saveAll(t, bobToken, document.id, fieldIds[1])).status).toBe(200);
  const sealed = await waitForSeal(t, workflow.id);
  expect(sealed).toMatchObject({ status: 'COMPLETED', sealStatus: 'SEALED' });

  const done = await t.request('GET', `/workflow/v1/${workflow.id}/history`, { token: owner.token });
  expect(done.body.metadata).toMatchObject({ status: 'COMPLETED', holder: '' });
  expect(done.body.metadata.documentRecipients[0].recipients.map((r: any) => r.status)).toEqual(['SIGNED', 'SIGNED']);
  const actions = done.body.activities.map((a: any) => a.action);
  expect(actions.filter((a: string) => a === 'Signed')).toHaveLength(2);
  expect(actions.at(-1)).toBe('Completed');

  const [stored] = await documentRows(t, workflow.id);
  const report = await raw(t, `/workflow/v1/evidence-report/${workflow.id}`, bobToken);
  expect(report.status).toBe(200);
  expect(report.text).toContain('INTACT');
  expect(report.text).toContain(stored.blobKey);
  expect(report.text).toContain(stored.sealedBlobKey!);
  expect(report.text).toContain('matches the text below');

  const file = await raw(
    t,
    `/document/v1/download/${workflow.id}?selectedOption=downloadDocument&documentId=${document.id}`,
    aliceToken,
  );
  expect(file.status).toBe(200);
  expect((await pdfsig(file.bytes)).allValid).toBe(true);
  const zip = await raw(t, `/document/v1/download/${workflow.id}?selectedOption=downloadAll`, owner.token);
  const entries = unzipSync(zip.bytes);
  expect(Object.keys(entries)).toHaveLength(2);
  for (const bytes of Object.values(entries)) expect((await pdfsig(bytes)).allValid).toBe(true);
});
