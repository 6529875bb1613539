/**
 * A recipient typed into the new-recipient form but not added is not thrown away when the sender goes on to the
 * fields: it is added (a complete one), or the step stays with the form's error on the input (an incomplete one).
 * Desktop and phone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, type TestUser } from '../helpers/factories.ts';
import { storedRecipients } from '../helpers/recipients.ts';
import { DESKTOP, PHONE, expectNoAxeViolations, launchBrowser, openPage, screenshot, startService } from './browser.ts';
import { signInInBrowser } from './editor-helpers.ts';

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let owner: TestUser;

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  owner = await createUser(t, { name: 'Tara Typist' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const SCREENS: [string, BrowserContextOptions][] = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
];

describe('the envelope editor, a recipient typed but not added', () => {
  for (const [screen, options] of SCREENS) {
    it(`on ${screen}: "Next: Fields" adds a complete one, and keeps the step with the error for an incomplete one`, {
      timeout: 120_000,
    }, async () => {
      const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'UNORDERED', name: `Typed on ${screen}` });
      const { page, problems, close } = await openPage(browser, options);
      try {
        await signInInBrowser(page, baseUrl, owner, `/envelopes/${workflow.id}/edit`);
        await page.getByRole('heading', { level: 1, name: 'Prepare envelope' }).waitFor();
        const form = page.getByRole('form', { name: /New recipient|Add another recipient/ });

        // Only a name: the step stays, the email input says what is missing and has the focus.
        await form.getByLabel('Name', { exact: true }).fill('Nora Noemail');
        await page.getByRole('button', { name: 'Next: Fields' }).click();
        const email = form.getByLabel('Email', { exact: true });
        await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
        await expect.poll(() => email.evaluate((el: any) => el === el.ownerDocument.activeElement)).toBe(true);
        expect(page.url()).not.toContain('step=fields');
        expect(await storedRecipients(t, workflow.id)).toEqual([]);
        await screenshot(page, `editor-typed-recipient-incomplete-${screen}`);
        await expectNoAxeViolations(page, `incomplete recipient kept (${screen})`);

        // Completed and not added: going on adds it, and the fields step offers the fields for her.
        await email.fill('nora.typed@example.com');
        await page.getByRole('button', { name: 'Next: Fields' }).click();
        await page.waitForURL(/step=fields/);
        await expect
          .poll(async () => (await storedRecipients(t, workflow.id)).map((r) => [r.name, r.email]))
          .toEqual([['Nora Noemail', 'nora.typed@example.com']]);
        await expect
          .poll(() => page.getByLabel('Fields for').evaluate((el: any) => el.selectedOptions[0]?.textContent))
          .toBe('Nora Noemail');
        await screenshot(page, `editor-typed-recipient-added-${screen}`);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  }
});
