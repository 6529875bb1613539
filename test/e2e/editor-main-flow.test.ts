/**
 * Issue 14's main flow, in Chromium against the running service: a new user signs up, confirms the address,
 * uploads a PDF, adds two recipients, places their fields by dragging them with the mouse, sends; both sign
 * from their mails through the signing page; the sender sees COMPLETED, downloads the sealed PDF and `pdfsig`
 * finds the seal valid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { fieldRow, waitForSeal, workflowRow } from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';
import { storedFields, storedRecipients } from '../helpers/recipients.ts';
import {
  DESKTOP,
  contractPdf,
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  screenshot,
  startService,
} from './browser.ts';
import {
  addRecipient,
  chooseFiles,
  dragFieldOnto,
  signFromMail,
  signUpInBrowser,
  workflowIdOf,
  expectSaved,
} from './editor-helpers.ts';

let t: TestApp;
let baseUrl: string;
let browser: Browser;

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the envelope editor: from sign-up to a sealed envelope, without touching the API', () => {
  it('sign up, confirm, upload, two recipients, fields by drag, send, both sign from their mails, COMPLETED, sealed download valid for pdfsig', {
    timeout: 300_000,
  }, async () => {
    const sender = { name: 'Nora Newuser', email: 'nora.newuser@example.com', password: 'a long enough password' };
    const first = { name: 'Ana Alves', email: 'ana.alves@example.com' };
    const second = { name: 'Ben Brown', email: 'ben.brown@example.com' };
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signUpInBrowser(page, t, baseUrl, sender, '/envelopes/new');
      await page.getByRole('heading', { level: 1, name: 'New envelope' }).waitFor();
      await screenshot(page, 'editor-01-new');
      await expectNoAxeViolations(page, 'new envelope');

      await chooseFiles(page, page.getByRole('button', { name: 'Choose files' }), [
        { name: 'Service agreement.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await contractPdf(2)) },
      ]);
      await page.waitForURL(/\/envelopes\/\d+\/edit$/, { timeout: 20_000 });
      const workflowId = workflowIdOf(page);
      await page.getByRole('heading', { level: 1, name: 'Prepare envelope' }).waitFor();
      expect(await page.getByLabel('Envelope name').inputValue()).toBe('Service agreement');

      await addRecipient(page, first);
      await addRecipient(page, second);
      await expectSaved(page);
      await screenshot(page, 'editor-02-recipients');
      await expectNoAxeViolations(page, 'documents and recipients');
      const rows = await storedRecipients(t, workflowId);
      expect(rows.map((r) => [r.name, r.email, r.role])).toEqual([
        [first.name, first.email, 'SIGNER'],
        [second.name, second.email, 'SIGNER'],
      ]);
      expect(new Set(rows.map((r) => r.color)).size).toBe(2);

      await page.getByRole('button', { name: 'Next: Fields' }).click();
      await page.getByRole('group', { name: 'Page 1 of 2' }).and(page.locator('[data-rendered="true"]')).waitFor();
      // Fields for Ana: a signature and a date, dragged onto page 1; for Ben: a signature on page 2.
      await page.getByLabel('Fields for').selectOption({ label: first.name });
      await dragFieldOnto(page, 'Signature', 'Page 1 of 2', { x: 0.3, y: 0.55 });
      await page.getByRole('button', { name: /^Signature for Ana Alves, page 1/ }).waitFor();
      await dragFieldOnto(page, 'Date', 'Page 1 of 2', { x: 0.7, y: 0.55 });
      await page.getByRole('button', { name: /^Date for Ana Alves, page 1/ }).waitFor();
      await page.getByLabel('Fields for').selectOption({ label: second.name });
      await dragFieldOnto(page, 'Signature', 'Page 2 of 2', { x: 0.3, y: 0.4 });
      const benSignature = page.getByRole('button', { name: /^Signature for Ben Brown, page 2/ });
      await benSignature.waitFor();
      // Saved first (the service's answer gives the new field its id, and its box is drawn again with it), as a
      // person's next move would come after it.
      await expectSaved(page);

      // Moved with the mouse: the box follows the pointer and is saved where it was let go.
      const before = (await benSignature.boundingBox())!;
      await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
      await page.mouse.down();
      for (let i = 1; i <= 5; i++)
        await page.mouse.move(before.x + before.width / 2 + i * 10, before.y + before.height / 2 + i * 6);
      await page.mouse.up();
      // Resized by its corner handle.
      const moved = (await benSignature.boundingBox())!;
      await page.mouse.move(moved.x + moved.width + 2, moved.y + moved.height + 2);
      await page.mouse.down();
      for (let i = 1; i <= 5; i++)
        await page.mouse.move(moved.x + moved.width + 2 + i * 8, moved.y + moved.height + 2 + i * 4);
      await page.mouse.up();
      await expectSaved(page);
      await screenshot(page, 'editor-03-fields');
      await expectNoAxeViolations(page, 'fields placed');

      const fields = await storedFields(t, workflowId);
      expect(fields.map((f) => [f.fieldType, f.pageNo, rows.find((r) => r.id === f.recipientId)!.name]).sort()).toEqual(
        [
          ['DATE', 1, first.name],
          ['SIGNATURE', 1, first.name],
          ['SIGNATURE', 2, second.name],
        ],
      );
      const ben = fields.find((f) => f.pageNo === 2)!;
      const benBox = ben.box as { x: number; y: number; width: number; height: number };
      // Dropped centred at 30 % / 40 % of an A4 page (595 x 842 pt), then moved right and down and made larger.
      expect(benBox.x).toBeGreaterThan(595 * 0.3 - 90 + 20);
      expect(benBox.y).toBeGreaterThan(842 * 0.4 - 25 + 10);
      expect(benBox.width).toBeGreaterThan(180 + 20);
      expect(benBox.height).toBeGreaterThan(50 + 10);

      await page.getByRole('button', { name: 'Next: Review and send' }).click();
      await page.getByRole('heading', { name: 'Review and send' }).waitFor();
      await page.getByLabel('Email subject').fill('Please sign the service agreement');
      await page.getByLabel('Message to the recipients (optional)').fill('Hello both, please sign by Friday.');
      await screenshot(page, 'editor-04-send');
      await expectNoAxeViolations(page, 'review and send');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.waitForURL(`${baseUrl}/envelopes/${workflowId}`, { timeout: 15_000 });
      expect((await workflowRow(t, workflowId)).status).toBe('SENT');
      const mail = (await t.mails({ to: first.email, kind: 'COMMENCE' }))[0];
      expect(mail.subject).toContain('Please sign the service agreement');

      // Both sign from their mails, through the signing page.
      await signFromMail(browser, t, first.email);
      await signFromMail(browser, t, second.email);
      expect((await workflowRow(t, workflowId)).status).toBe('COMPLETED');
      expect((await fieldRow(t, ben.id)).value).toMatch(/^data:image\/png;base64,/);
      expect((await waitForSeal(t, workflowId)).sealStatus).toBe('SEALED');

      // The sender sees it completed and downloads the sealed document.
      await page.reload();
      await expect.poll(() => page.getByText('Completed').first().isVisible(), { timeout: 10_000 }).toBe(true);
      await screenshot(page, 'editor-05-completed');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download Service agreement' }).click(),
      ]);
      const bytes = Buffer.concat(await (await download.createReadStream()).toArray());
      const report = await pdfsig(bytes);
      expect(report.signatures, report.output).toBeGreaterThanOrEqual(1);
      expect(report.allValid, report.output).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
