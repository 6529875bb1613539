/**
 * Self-signing in the editor (RUNTIME.md, SELF rules): "Only me", a PDF dropped on the drop zone, fields for
 * the owner, then filled and signed right there with the session: COMPLETED and sealed without any mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { waitForSeal, workflowRow } from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';
import { storedFields, storedRecipients } from '../helpers/recipients.ts';
import {
  DESKTOP,
  contractPdf,
  drawOn,
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  screenshot,
  startService,
} from './browser.ts';
import { dragFieldOnto, dropFiles, signInInBrowser, workflowIdOf, expectSaved } from './editor-helpers.ts';

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let owner: TestUser;

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  owner = await createUser(t, { name: 'Sally Self' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('self-signing in the envelope editor', () => {
  it('Only me: drop a PDF, place fields, fill and sign in place; COMPLETED, sealed, no mail', {
    timeout: 240_000,
  }, async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInInBrowser(page, baseUrl, owner, '/envelopes/new');
      await page.getByRole('radio', { name: /Only me/ }).check();
      await dropFiles(page, page.getByRole('region', { name: 'Documents' }), [
        { name: 'Declaration.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await contractPdf(1)) },
      ]);
      await page.waitForURL(/\/envelopes\/\d+\/edit$/, { timeout: 20_000 });
      const workflowId = workflowIdOf(page);
      expect((await workflowRow(t, workflowId)).sequence).toBe('SELF');
      await page.getByText(`Only you sign this envelope: Sally Self (${owner.email}).`).waitFor();
      expect(await page.getByRole('radio', { name: 'Only me: I fill in and sign it myself' }).isChecked()).toBe(true);
      await expectNoAxeViolations(page, 'self: documents');

      await page.getByRole('button', { name: 'Next: Fields' }).click();
      await page.getByRole('group', { name: 'Page 1 of 1' }).and(page.locator('[data-rendered="true"]')).waitFor();
      await dragFieldOnto(page, 'Signature', 'Page 1 of 1', { x: 0.3, y: 0.7 });
      await page.getByRole('button', { name: /^Signature for Sally Self, page 1/ }).waitFor();
      await page
        .getByRole('complementary', { name: 'Add a field' })
        .getByRole('button', { name: 'Name', exact: true })
        .click();
      await page.getByRole('button', { name: /^Name for Sally Self, page 1/ }).waitFor();
      await page
        .getByRole('complementary', { name: 'Add a field' })
        .getByRole('button', { name: 'Date', exact: true })
        .click();
      const date = page.getByRole('button', { name: /^Date for Sally Self, page 1/ });
      await date.waitFor();
      // The date's properties: required, shown in German.
      await page.getByRole('checkbox', { name: 'Required' }).check();
      await page.getByLabel('Date format').selectOption('de');
      await expect.poll(() => page.getByText('Shown as: 14. März 2026').isVisible()).toBe(true);
      await expectSaved(page);
      await expect
        .poll(async () => (await storedFields(t, workflowId)).find((f) => f.fieldType === 'DATE')?.styling)
        .toEqual({ dateLang: 'de' });

      // A dropdown: its choices and its styling, from the properties panel.
      await page
        .getByRole('complementary', { name: 'Add a field' })
        .getByRole('button', { name: 'Dropdown', exact: true })
        .click();
      await page.getByRole('button', { name: /^Dropdown for Sally Self, page 1/ }).waitFor();
      await page.getByLabel('Choices, one per line').fill('Yes\n\nNo');
      await expect
        .poll(() => page.getByRole('alert').filter({ hasText: 'Give 1 to 100 choices, none of them empty.' }).count())
        .toBe(1);
      await page.getByLabel('Choices, one per line').fill('Yes\nNo');
      await page.getByRole('checkbox', { name: 'Bold' }).check();
      await page.getByLabel('Font size (pt)').fill('14');
      await page.getByLabel('Label', { exact: true }).fill('Agreed');
      await expect
        .poll(
          async () => {
            const dropdown = (await storedFields(t, workflowId)).find((f) => f.fieldType === 'DROPDOWN');
            return [dropdown?.options, dropdown?.styling, dropdown?.label];
          },
          { timeout: 10_000 },
        )
        .toEqual([['Yes', 'No'], { bold: true, fontSize: 14 }, 'Agreed']);
      await screenshot(page, 'editor-22-self-fields');
      await expectNoAxeViolations(page, 'self: field properties');

      await page.getByRole('button', { name: 'Next: Fill in and sign' }).click();
      await page.getByRole('heading', { name: 'Your fields' }).waitFor();
      // NAME comes filled with the owner's name; the disclosure is shown before signing.
      expect(await page.getByRole('textbox', { name: 'Name (optional)' }).inputValue()).toBe('Sally Self');
      await page.getByText('By signing you agree to the disclosure above.').waitFor();
      await screenshot(page, 'editor-20-self-sign');
      await expectNoAxeViolations(page, 'self: fill in and sign');

      // Signing before the required fields are done names what is missing, beside each.
      await page.getByRole('button', { name: 'Sign and complete' }).click();
      await expect.poll(() => page.getByText('2 fields need your attention.').isVisible()).toBe(true);
      await screenshot(page, 'editor-21-self-sign-errors');
      await expectNoAxeViolations(page, 'self: missing values');

      await page.getByLabel('Date (required)').fill('2026-03-14');
      await page.getByRole('combobox', { name: 'Agreed (optional)' }).selectOption('Yes');
      await drawOn(page, /Drawing area for your signature/);
      await page.getByRole('button', { name: 'Use this signature' }).click();
      await page.getByRole('button', { name: 'Sign and complete' }).click();
      await page.waitForURL(`${baseUrl}/envelopes/${workflowId}`, { timeout: 15_000 });
      expect((await workflowRow(t, workflowId)).status).toBe('COMPLETED');
      const [self] = await storedRecipients(t, workflowId);
      expect(self.status).toBe('SIGNED');
      const values = Object.fromEntries((await storedFields(t, workflowId)).map((f) => [f.fieldType, f.value]));
      expect(values).toMatchObject({ NAME: 'Sally Self', DATE: '2026-03-14', DROPDOWN: 'Yes' });
      expect(values.SIGNATURE).toMatch(/^data:image\/png;base64,/);
      expect((await waitForSeal(t, workflowId)).sealStatus).toBe('SEALED');
      // Self-signing sends nothing.
      expect((await t.mails()).filter((m) => m.workflowId === workflowId)).toEqual([]);

      await page.reload();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download Declaration' }).click(),
      ]);
      const report = await pdfsig(Buffer.concat(await (await download.createReadStream()).toArray()));
      expect(report.allValid, report.output).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
