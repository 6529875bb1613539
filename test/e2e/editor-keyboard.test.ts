/**
 * The envelope editor by keyboard alone: reorder ORDERED recipients with the move buttons, place fields on a
 * chosen page from the palette, move and resize them with the arrow keys, open their properties, delete one,
 * and send. Checked against what the service stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, type TestUser } from '../helpers/factories.ts';
import { addRecipients, storedFields, storedRecipients } from '../helpers/recipients.ts';
import { workflowRow } from '../helpers/ceremony.ts';
import { DESKTOP, expectNoAxeViolations, launchBrowser, openPage, screenshot, startService, tabTo } from './browser.ts';
import { signInInBrowser, expectSaved } from './editor-helpers.ts';

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let owner: TestUser;

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  owner = await createUser(t, { name: 'Kim Keyboard' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const focusedName = (page: Page) =>
  page.evaluate(
    'document.activeElement && (document.activeElement.getAttribute("aria-label") || document.activeElement.textContent)',
  );

describe('the envelope editor with the keyboard alone', () => {
  it('reorders recipients, places, moves and resizes fields with the keys, edits and deletes them, and sends', {
    timeout: 240_000,
  }, async () => {
    const { workflow } = await createDraftWorkflow(t, owner, {
      sequence: 'ORDERED',
      pages: 2,
      name: 'Keyboard contract',
    });
    await addRecipients(t, owner.token, workflow.id, [
      {
        name: 'Ana Alves',
        emailAddress: 'ana.keys@example.com',
        useDigitalCert: false,
        recipientColor: '#1A56DB',
        recipientOrder: 1,
      },
      {
        name: 'Ben Brown',
        emailAddress: 'ben.keys@example.com',
        useDigitalCert: false,
        recipientColor: '#C2410C',
        recipientOrder: 2,
      },
    ]);
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInInBrowser(page, baseUrl, owner, `/envelopes/${workflow.id}/edit`);
      await page.getByRole('heading', { level: 1, name: 'Prepare envelope' }).waitFor();

      // ORDERED: Ben moves up with the keyboard; the focus follows him.
      await tabTo(page, page.getByRole('button', { name: 'Move Ben Brown up' }), 80);
      await page.keyboard.press('Enter');
      await expect
        .poll(async () => (await storedRecipients(t, workflow.id)).map((r) => [r.name, r.recipientOrder]))
        .toEqual([
          ['Ana Alves', 2],
          ['Ben Brown', 1],
        ]);
      await expect.poll(() => focusedName(page)).toBe('Move Ben Brown down');
      expect(await page.getByRole('group', { name: 'Recipient 1: Ben Brown' }).count()).toBe(1);
      await expectNoAxeViolations(page, 'recipients reordered by keyboard');

      await tabTo(page, page.getByRole('button', { name: 'Next: Fields' }), 120);
      await page.keyboard.press('Enter');
      await page.getByRole('group', { name: 'Page 2 of 2' }).and(page.locator('[data-rendered="true"]')).waitFor();
      // The keys are explained on the screen, not only to screen readers.
      expect(await page.getByText('Arrow keys move it by 1 pt; with Shift, by 10 pt.').isVisible()).toBe(true);

      // For Ana (second in the list now), on page 2: chosen with the arrow keys in the two selects.
      await tabTo(page, page.getByLabel('Fields for'));
      await page.keyboard.press('ArrowDown');
      expect(await page.getByLabel('Fields for').evaluate((el: any) => el.selectedOptions[0].textContent)).toBe(
        'Ana Alves',
      );
      await page.keyboard.press('Tab');
      await page.keyboard.press('ArrowDown');
      expect(await page.getByLabel('Place on').evaluate((el: any) => el.selectedOptions[0].textContent)).toBe('Page 2');
      await tabTo(
        page,
        page
          .getByRole('complementary', { name: 'Add a field' })
          .getByRole('button', { name: 'Signature', exact: true }),
      );
      await page.keyboard.press('Enter');
      // The new field has the focus: the arrows move it at once.
      await expect.poll(() => focusedName(page)).toMatch(/^Signature for Ana Alves, page 2, required$/);
      await expectSaved(page);
      const [created] = await storedFields(t, workflow.id);
      expect(created.box).toEqual({ x: 36, y: 36, width: 180, height: 50 });

      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
      for (let i = 0; i < 2; i++) await page.keyboard.press('Shift+ArrowDown');
      for (let i = 0; i < 4; i++) await page.keyboard.press('Alt+ArrowRight');
      await page.keyboard.press('Control+Shift+ArrowDown');
      await expectSaved(page);
      await expect
        .poll(async () => (await storedFields(t, workflow.id))[0].box)
        .toEqual({ x: 39, y: 56, width: 184, height: 60 });
      // The focused field shows a focus ring.
      expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).not.toBe('none');
      await screenshot(page, 'editor-10-keyboard-field');
      await expectNoAxeViolations(page, 'field placed by keyboard');

      // Enter opens its properties; the label typed there is saved.
      await page.keyboard.press('Enter');
      await expect
        .poll(() =>
          page.evaluate('document.activeElement && document.activeElement.closest("#ed-properties") !== null'),
        )
        .toBe(true);
      await tabTo(page, page.getByLabel('Label', { exact: true }));
      await page.keyboard.type('Client signature');
      await expectSaved(page);
      await expect.poll(async () => (await storedFields(t, workflow.id))[0].label).toBe('Client signature');

      // A text field placed and then removed with Delete.
      await tabTo(
        page,
        page.getByRole('complementary', { name: 'Add a field' }).getByRole('button', { name: 'Text', exact: true }),
        80,
      );
      await page.keyboard.press('Enter');
      await expect.poll(() => focusedName(page)).toMatch(/^Text for Ana Alves, page 2/);
      await expectSaved(page);
      expect((await storedFields(t, workflow.id)).map((f) => f.fieldType)).toEqual(['SIGNATURE', 'TEXT']);
      await page.keyboard.press('Delete');
      await expect
        .poll(async () => (await storedFields(t, workflow.id)).map((f) => f.fieldType))
        .toEqual(['SIGNATURE']);

      // Ben's signature, on page 1 this time, then on to sending.
      await tabTo(page, page.getByLabel('Fields for'), 80);
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Tab');
      await page.keyboard.press('ArrowUp');
      await tabTo(
        page,
        page
          .getByRole('complementary', { name: 'Add a field' })
          .getByRole('button', { name: 'Signature', exact: true }),
      );
      await page.keyboard.press('Enter');
      await expect.poll(() => focusedName(page)).toMatch(/^Signature for Ben Brown, page 1/);
      await expectSaved(page);

      await tabTo(page, page.getByRole('button', { name: 'Next: Review and send' }), 120);
      await page.keyboard.press('Enter');
      await tabTo(page, page.getByLabel('Email subject'));
      await page.keyboard.press('Control+A');
      await page.keyboard.type('Keyboard contract, please sign');
      await tabTo(page, page.getByRole('button', { name: 'Send', exact: true }));
      await page.keyboard.press('Enter');
      await page.waitForURL(`${baseUrl}/envelopes/${workflow.id}`, { timeout: 15_000 });
      expect((await workflowRow(t, workflow.id)).status).toBe('SENT');
      // ORDERED with Ben first: only he has been mailed.
      expect(await t.mails({ to: 'ben.keys@example.com', kind: 'COMMENCE' })).toHaveLength(1);
      expect(await t.mails({ to: 'ana.keys@example.com', kind: 'COMMENCE' })).toHaveLength(0);

      // A sent envelope's editor says so and points to its page.
      await page.goto(`${baseUrl}/envelopes/${workflow.id}/edit`);
      await page.getByRole('heading', { level: 1, name: 'This envelope can no longer be edited' }).waitFor();
      await expectNoAxeViolations(page, 'editor of a sent envelope');
      await page.getByRole('link', { name: 'Open the envelope' }).click();
      await page.waitForURL(`${baseUrl}/envelopes/${workflow.id}`);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
