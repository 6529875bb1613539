/**
 * The editor's documents, recipients and sending rules, and where the service's refusals show: a file of the
 * wrong type beside the drop zone, a Word file converted, several documents reordered, replaced (with the
 * upload's progress) and removed, recipient errors beside their inputs, reminders, a refused send; and the
 * editor on a tablet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, type TestUser } from '../helpers/factories.ts';
import { documentRows, workflowRow } from '../helpers/ceremony.ts';
import { makeDocx } from '../helpers/documents.ts';
import { has } from '../helpers/tools.ts';
import { addRecipients, addField, storedRecipients } from '../helpers/recipients.ts';
import {
  DESKTOP,
  contractPdf,
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  screenshot,
  startService,
} from './browser.ts';
import { addRecipient, chooseFiles, signInInBrowser, workflowIdOf, expectSaved } from './editor-helpers.ts';

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let owner: TestUser;

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  owner = await createUser(t, { name: 'Dora Documents' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const pdf = async (name: string, pages: number) => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.from(await contractPdf(pages)),
});
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('documents in the envelope editor', () => {
  it('a wrong file type is refused beside the drop zone; PDF and Word together; reorder, replace with progress, remove', {
    timeout: 300_000,
  }, async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInInBrowser(page, baseUrl, owner, '/envelopes/new');
      const zone = page.getByRole('region', { name: 'Documents' });
      await chooseFiles(page, page.getByRole('button', { name: 'Choose files' }), [
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a document') },
      ]);
      const refusal = zone.getByRole('alert');
      await expect.poll(() => refusal.textContent()).toMatch(/^notes\.txt was not uploaded: Invalid document type/);
      // The message is tied to the button that chose the file.
      const described = await zone.getByRole('button', { name: 'Choose files' }).getAttribute('aria-describedby');
      expect(described).toContain(await refusal.getAttribute('id'));
      await screenshot(page, 'editor-30-wrong-type');
      await expectNoAxeViolations(page, 'upload refused');

      const annexDocx = {
        name: 'Annex.docx',
        mimeType: DOCX,
        buffer: Buffer.from(makeDocx(['Annex A', 'Prices and terms.'])),
      };
      if (!has('soffice')) {
        // Without LibreOffice (tools.ts) a Word file is refused with the service's reason, beside the button that chose it.
        await chooseFiles(page, page.getByRole('button', { name: 'Choose files' }), [annexDocx]);
        await expect.poll(() => refusal.textContent()).toMatch(/^Annex\.docx was not uploaded: .*LibreOffice/);
        await screenshot(page, 'editor-30-word-unavailable');
      }
      // A PDF and a Word file at once: the Word file is converted (LibreOffice) and joins the same draft; without
      // LibreOffice the annex is a PDF, and the rest of the editing is the same.
      await chooseFiles(page, page.getByRole('button', { name: 'Choose files' }), [
        await pdf('Main contract.pdf', 1),
        has('soffice') ? annexDocx : await pdf('Annex.pdf', 1),
      ]);
      await page.waitForURL(/\/envelopes\/\d+\/edit$/, { timeout: 90_000 });
      const workflowId = workflowIdOf(page);
      const docs = page.getByRole('region', { name: 'Documents' }).first();
      await expect
        .poll(async () => (await documentRows(t, workflowId)).map((d) => d.name))
        .toEqual(['Main contract', 'Annex']);
      await page.getByText('Annex', { exact: true }).waitFor();

      // Order: the annex first, by its button; the focus stays on the moved document.
      await page.getByRole('button', { name: 'Move Annex up' }).click();
      await expect
        .poll(async () =>
          (await documentRows(t, workflowId)).sort((a, b) => a.position - b.position).map((d) => d.name),
        )
        .toEqual(['Annex', 'Main contract']);
      await expect
        .poll(() => page.evaluate('document.activeElement && document.activeElement.getAttribute("aria-label")'))
        .toBe('Move Annex down');

      // Replacing the main contract with a longer PDF, its progress shown while it travels (upload slowed to 64 kB/s).
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: 64 * 1024,
      });
      const longer = await pdf('Main contract v2.pdf', 120);
      expect(longer.buffer.length).toBeGreaterThan(100_000);
      await chooseFiles(page, docs.getByRole('button', { name: 'Replace Main contract' }), [longer]);
      const bar = page.getByRole('progressbar', { name: 'Uploading Main contract v2.pdf' });
      await bar.waitFor({ timeout: 10_000 });
      const partway = Number(await bar.evaluate((el: any) => el.value));
      expect(partway).toBeLessThan(100);
      await screenshot(page, 'editor-31-progress');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      await page.getByText('120 pages').waitFor({ timeout: 60_000 });
      expect((await documentRows(t, workflowId)).find((d) => d.name === 'Main contract')!.pages).toBe(120);

      // A replacement must be a PDF: a Word file is refused beside that document.
      await chooseFiles(page, docs.getByRole('button', { name: 'Replace Annex' }), [
        { name: 'Annex v2.docx', mimeType: DOCX, buffer: Buffer.from(makeDocx(['New annex'])) },
      ]);
      await expect
        .poll(() => docs.getByRole('listitem').filter({ hasText: 'Annex' }).getByRole('alert').textContent())
        .toMatch(/Invalid document type/);
      await expectNoAxeViolations(page, 'replacement refused');

      // Removing the annex asks first.
      await docs.getByRole('button', { name: 'Remove Annex' }).click();
      const dialog = page.getByRole('dialog', { name: 'Remove this document?' });
      await dialog.waitFor();
      await expectNoAxeViolations(page, 'remove dialog');
      await dialog.getByRole('button', { name: 'Remove' }).click();
      await expect.poll(async () => (await documentRows(t, workflowId)).map((d) => d.name)).toEqual(['Main contract']);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('recipient errors beside their inputs, a role change the service refuses, reminders, and a send warned of a missing signature field', {
    timeout: 240_000,
  }, async () => {
    const { workflow, document } = await createDraftWorkflow(t, owner, {
      sequence: 'UNORDERED',
      name: 'Rules contract',
    });
    const [ana] = await addRecipients(t, owner.token, workflow.id, [
      { name: 'Ana Alves', emailAddress: 'ana.rules@example.com', useDigitalCert: false, recipientColor: '#1A56DB' },
    ]);
    await addField(t, owner.token, document.id, {
      recipientId: ana.id,
      pageNo: 1,
      box: { x: 72, y: 600, width: 180, height: 40 },
      fieldType: 'TEXT',
    });
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInInBrowser(page, baseUrl, owner, `/envelopes/${workflow.id}/edit`);
      const form = page.getByRole('form', { name: 'Add another recipient' });

      // Checked here first, with the service's own rule.
      await form.getByLabel('Name', { exact: true }).fill('R2 D2');
      await form.getByLabel('Email', { exact: true }).fill('r2d2@example.com');
      await form.getByRole('button', { name: 'Add recipient' }).click();
      await expect
        .poll(() => form.getByRole('alert').textContent())
        .toBe(
          'Enter the name: letters (hyphens and apostrophes between letters) and single spaces, 2 to 50 characters.',
        );
      expect(await form.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      expect(await page.evaluate('document.activeElement && document.activeElement.value')).toBe('R2 D2');

      // ORDERED, then the same email again: the service's DUPLICATE_RECIPIENT shows beside the email.
      await page.getByRole('radio', { name: 'One after another, in the order below' }).check();
      await expect.poll(async () => (await workflowRow(t, workflow.id)).sequence).toBe('ORDERED');
      await form.getByLabel('Name', { exact: true }).fill('Ana Again');
      await form.getByLabel('Email', { exact: true }).fill('ana.rules@example.com');
      await form.getByRole('button', { name: 'Add recipient' }).click();
      await expect.poll(() => form.getByRole('alert').textContent()).toBe('This person is already a recipient.');
      expect(await form.getByLabel('Email', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      await screenshot(page, 'editor-32-recipient-errors');
      await expectNoAxeViolations(page, 'recipient errors');

      // Ana has a field: making her a CC is refused by the service, said beside the role, which goes back.
      const card = page.getByRole('group', { name: 'Recipient 1: Ana Alves' });
      await card.getByLabel('Role').selectOption({ label: 'Receives a copy' });
      await expect.poll(() => card.getByRole('alert').textContent()).toMatch(/move or remove its fields/);
      await expect.poll(() => card.getByLabel('Role').inputValue()).toBe('SIGNER');
      expect((await storedRecipients(t, workflow.id))[0].role).toBe('SIGNER');

      // Identity step-up and an access password, saved as they are set.
      await card.getByText('Identity, certificate and password').click();
      await card.getByRole('checkbox', { name: 'Confirm their identity with a code sent by email' }).check();
      await card.getByLabel('Access password (optional)').fill('open sesame');
      await card.getByLabel('Access password (optional)').blur();
      await card.getByText('The access password is set.').waitFor();
      const stored = (await storedRecipients(t, workflow.id))[0];
      expect(stored.enforceIdentity).toBe(true);
      expect(stored.passwordHash).toMatch(/^\$argon2/);

      await addRecipient(page, { name: 'Ben Brown', email: 'ben.rules@example.com' });
      await expectSaved(page);
      expect((await storedRecipients(t, workflow.id)).map((r) => [r.name, r.recipientOrder])).toEqual([
        ['Ana Alves', 1],
        ['Ben Brown', 2],
      ]);

      // ORDERED: Ben dragged above Ana by his handle (the move buttons are the keyboard's way, tested elsewhere).
      const handle = page
        .getByRole('listitem')
        .filter({ has: page.getByRole('group', { name: 'Recipient 2: Ben Brown' }) })
        .locator('.ed-handle');
      const grip = (await handle.boundingBox())!;
      const anaCard = (await card.boundingBox())!;
      await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
      await page.mouse.down();
      for (let i = 1; i <= 6; i++)
        await page.mouse.move(
          grip.x + grip.width / 2,
          grip.y + grip.height / 2 + ((anaCard.y + 10 - grip.y - grip.height / 2) * i) / 6,
        );
      await page.mouse.up();
      await expect
        .poll(async () => (await storedRecipients(t, workflow.id)).map((r) => [r.name, r.recipientOrder]))
        .toEqual([
          ['Ana Alves', 2],
          ['Ben Brown', 1],
        ]);
      await page.getByRole('group', { name: 'Recipient 1: Ben Brown' }).waitFor();

      // Sending: reminders (a value out of range is explained, a valid one saved), then a refusal for Ana's missing signature.
      await page.getByRole('button', { name: 'Next: Fields' }).click();
      await page.getByRole('button', { name: 'Next: Review and send' }).click();
      await page
        .getByText(
          'Ana Alves has no signature or initials field yet: they would finish by filling their fields, without signing. Place one in the Fields step.',
        )
        .waitFor();
      await page.getByRole('checkbox', { name: 'Email reminders to recipients who have not acted yet' }).check();
      await page.getByLabel('Days (1 to 30)').fill('45');
      await page.getByLabel('Days (1 to 30)').blur();
      await expect
        .poll(() => page.getByRole('alert').filter({ hasText: 'Enter a whole number of days from 1 to 30.' }).count())
        .toBe(1);
      await page.getByLabel('Days (1 to 30)').fill('2');
      await page.getByLabel('Days (1 to 30)').blur();
      await expect
        .poll(async () => {
          const row = await workflowRow(t, workflow.id);
          return [row.reminderEnabled, row.reminderIntervalDays, row.reminderOffsetMinutes];
        })
        .toEqual([true, 2, null]);
      await page.getByRole('radio', { name: 'Minutes after they receive the envelope' }).check();
      await page.getByLabel('Minutes (1 to 1439)').fill('90');
      await page.getByLabel('Minutes (1 to 1439)').blur();
      await expect.poll(async () => (await workflowRow(t, workflow.id)).reminderOffsetMinutes).toBe(90);
      // Read back after a reload.
      await page.reload();
      await page.getByRole('radio', { name: 'Minutes after they receive the envelope' }).waitFor();
      expect(await page.getByRole('radio', { name: 'Minutes after they receive the envelope' }).isChecked()).toBe(true);
      expect(await page.getByLabel('Minutes (1 to 1439)').inputValue()).toBe('90');

      // The page warns of signers without a signature field (in signing order: Ben first since he was dragged there); the
      // service sends anyway (RUNTIME.md: they finish when their required fields are filled).
      const warnings = page.locator('.ed-warning li');
      expect(await warnings.allTextContents()).toEqual([
        'Ben Brown has no signature or initials field yet: they would finish by filling their fields, without signing. Place one in the Fields step.',
        'Ana Alves has no signature or initials field yet: they would finish by filling their fields, without signing. Place one in the Fields step.',
      ]);
      await screenshot(page, 'editor-33-send-warned');
      await expectNoAxeViolations(page, 'send warned');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.waitForURL(new RegExp(`/envelopes/${workflow.id}$`));
      expect((await workflowRow(t, workflow.id)).status).toBe('SENT');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('works on a tablet (768 px): every step without sideways scrolling, axe-clean', { timeout: 180_000 }, async () => {
    const { workflow, document } = await createDraftWorkflow(t, owner, {
      sequence: 'UNORDERED',
      name: 'Tablet contract',
      pages: 2,
    });
    const [ana] = await addRecipients(t, owner.token, workflow.id, [
      { name: 'Ana Alves', emailAddress: 'ana.tablet@example.com', useDigitalCert: false, recipientColor: '#1A56DB' },
    ]);
    await addField(t, owner.token, document.id, {
      recipientId: ana.id,
      pageNo: 1,
      box: { x: 72, y: 500, width: 180, height: 50 },
      fieldType: 'SIGNATURE',
    });
    const { page, problems, close } = await openPage(browser, {
      viewport: { width: 768, height: 1024 },
      hasTouch: true,
    });
    try {
      await signInInBrowser(page, baseUrl, owner, `/envelopes/${workflow.id}/edit`);
      const noSideways = async () =>
        expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(768);
      await page.getByRole('heading', { level: 1, name: 'Prepare envelope' }).waitFor();
      await noSideways();
      await screenshot(page, 'editor-40-tablet-prepare');
      await expectNoAxeViolations(page, 'tablet, prepare');
      await page.getByRole('button', { name: 'Next: Fields' }).click();
      await page.getByRole('group', { name: 'Page 1 of 2' }).and(page.locator('[data-rendered="true"]')).waitFor();
      await page.getByRole('button', { name: /^Signature for Ana Alves, page 1/ }).click();
      await noSideways();
      await screenshot(page, 'editor-41-tablet-fields');
      await expectNoAxeViolations(page, 'tablet, fields');
      await page.getByRole('button', { name: 'Next: Review and send' }).click();
      await page.getByLabel('Email subject').waitFor();
      await noSideways();
      await screenshot(page, 'editor-42-tablet-send');
      await expectNoAxeViolations(page, 'tablet, send');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
