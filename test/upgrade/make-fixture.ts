/**
 * Makes the upgrade fixture (test/upgrade/fixture/): run by scripts/make-upgrade-fixture.sh inside a checkout of
 * an earlier release, as a Vitest file on PostgreSQL, so every record is written by that release's own code.
 * It leaves envelopes in every state a database of that release can hold, then writes the database as SQL
 * (pg_dump), the service's DATA_DIR (keys and stored files) and a manifest of what a reader should find.
 * Only helpers that exist in every release since round two are used (test/helpers: test-app, factories, ceremony).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { createTestApp } from '../helpers/test-app.ts';
import { createUser } from '../helpers/factories.ts';
import {
  commence,
  draftWithRecipients,
  saveAll,
  tokenFromMail,
  waitForSeal,
  workflowRow,
} from '../helpers/ceremony.ts';

const out = process.env.FIXTURE_OUT;

test.runIf(out)('writes an upgrade fixture', { timeout: 300_000 }, async () => {
  const t = await createTestApp();
  expect(t.databaseUrl, 'run on PostgreSQL (DATABASE_URL)').toBeTruthy();
  const owner = await createUser(t, { name: 'Ursula Upgrade', email: 'ursula.upgrade@example.com' });
  const workflows: Record<string, unknown>[] = [];
  const note = async (state: string, workflowId: number, extra: Record<string, unknown> = {}) => {
    const row = await workflowRow(t, workflowId);
    workflows.push({ state, workflowId, status: row.status, sealStatus: row.sealStatus, ...extra });
  };

  const draft = await draftWithRecipients(t, owner, {
    sequence: 'ORDERED',
    recipients: [{ name: 'Dora Draft', fields: [{ fieldType: 'SIGNATURE' }] }],
  });
  await note('draft', draft.workflow.id);

  const unopened = await draftWithRecipients(t, owner, {
    sequence: 'UNORDERED',
    recipients: [
      { name: 'Una Unopened', fields: [{ fieldType: 'SIGNATURE' }, { fieldType: 'TEXT', fieldRequired: true }] },
      { name: 'Cai Copy', role: 'CC' },
    ],
  });
  await commence(t, owner, unopened.workflow.id, { title: 'Sent, nobody has signed' });
  await note('sent', unopened.workflow.id);

  // In flight: the first of two ordered signers has signed; the second's turn has begun.
  const inFlight = await draftWithRecipients(t, owner, {
    sequence: 'ORDERED',
    recipients: [
      { name: 'Fay First', fields: [{ fieldType: 'SIGNATURE' }, { fieldType: 'DATE' }] },
      { name: 'Sid Second', fields: [{ fieldType: 'SIGNATURE' }, { fieldType: 'CHECKBOX', fieldRequired: true }] },
    ],
  });
  await commence(t, owner, inFlight.workflow.id, { title: 'Half signed' });
  const first = await saveAll(
    t,
    await tokenFromMail(t, inFlight.parties[0].user.email),
    inFlight.document.id,
    inFlight.fieldIds[0],
  );
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  await note('in-flight', inFlight.workflow.id, {
    next: { recipientId: inFlight.parties[1].row.id, documentId: inFlight.document.id, fieldIds: inFlight.fieldIds[1] },
  });

  const completed = await draftWithRecipients(t, owner, {
    sequence: 'ORDERED',
    recipients: [
      { name: 'Cleo Complete', fields: [{ fieldType: 'SIGNATURE' }, { fieldType: 'TEXT', fieldRequired: true }] },
      { name: 'Abe Approver', role: 'APPROVER' },
    ],
  });
  await commence(t, owner, completed.workflow.id, { title: 'Signed and sealed' });
  expect(
    (
      await saveAll(
        t,
        await tokenFromMail(t, completed.parties[0].user.email),
        completed.document.id,
        completed.fieldIds[0],
      )
    ).status,
  ).toBe(200);
  const approved = await t.request('POST', `/workflow/v1/${completed.workflow.id}/approve`, {
    token: await tokenFromMail(t, completed.parties[1].user.email),
    body: { comment: 'Checked' },
  });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  await waitForSeal(t, completed.workflow.id);
  await note('completed', completed.workflow.id);

  const approvedOnly = await draftWithRecipients(t, owner, {
    sequence: 'ORDERED',
    recipients: [{ name: 'Ada Approver', role: 'APPROVER' }],
  });
  await commence(t, owner, approvedOnly.workflow.id, { title: 'Approved only' });
  expect(
    (
      await t.request('POST', `/workflow/v1/${approvedOnly.workflow.id}/approve`, {
        token: await tokenFromMail(t, approvedOnly.parties[0].user.email),
        body: {},
      })
    ).status,
  ).toBe(200);
  await waitForSeal(t, approvedOnly.workflow.id);
  await note('approved', approvedOnly.workflow.id);

  const declined = await draftWithRecipients(t, owner, {
    sequence: 'ORDERED',
    recipients: [{ name: 'Dan Decline', fields: [{ fieldType: 'SIGNATURE' }] }],
  });
  await commence(t, owner, declined.workflow.id, { title: 'Declined' });
  const decline = await t.request('POST', `/workflow/v1/${declined.workflow.id}/decline`, {
    token: await tokenFromMail(t, declined.parties[0].user.email),
    body: { reason: 'Wrong address on page one' },
  });
  expect(decline.status, JSON.stringify(decline.body)).toBe(200);
  await note('declined', declined.workflow.id);
  await t.drainJobs();

  const target = path.resolve(out!);
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  // The database as plain SQL of INSERTs (no owners, no grants), so both PostgreSQL and PGlite can load it.
  execFileSync(
    'pg_dump',
    ['--no-owner', '--no-privileges', '--inserts', '--file', path.join(target, 'database.sql'), t.databaseUrl!],
    { stdio: 'inherit' },
  );
  // The keys and the stored files; the outbox's written mails are not records.
  fs.cpSync(t.config.dataDir, path.join(target, 'data'), {
    recursive: true,
    filter: (source) => path.basename(source) !== 'outbox',
  });
  const commit = process.env.FIXTURE_COMMIT ?? 'unknown';
  fs.writeFileSync(
    path.join(target, 'manifest.json'),
    `${JSON.stringify({ madeBy: commit, madeAt: new Date().toISOString(), owner: { email: owner.email, password: owner.password }, workflows }, null, 2)}\n`,
  );
  await t.close();
});
