/**
 * After "I agree, continue" the focus goes to the guide's "Go to the first field", so a keyboard or screen-reader
 * user goes on with one key instead of Tabbing through zoom and comments; desktop and phone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import {
  DESKTOP,
  PHONE,
  expectNoAxeViolations,
  launchBrowser,
  mailedLink,
  openPage,
  screenshot,
  sender,
  sendEnvelope,
  startService,
} from './browser.ts';

let t: TestApp;
let browser: Browser;
let owner: TestUser;

beforeAll(async () => {
  ({ t } = await startService());
  owner = await sender(t);
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

const focusedText = (page: import('playwright-core').Page) =>
  page.evaluate(
    'document.activeElement && document.activeElement.tagName + " " + document.activeElement.textContent.trim()',
  );

describe('the signing page after the consent', () => {
  for (const [screen, options] of SCREENS) {
    it(`on ${screen}: the focus moves to "Go to the first field", and Enter goes there`, async () => {
      const email = `consent.focus.${screen}@example.com`;
      await sendEnvelope(t, owner, {
        title: `Focus after consent (${screen})`,
        recipients: [{ name: 'Fiona Focus', email, fields: [{ fieldType: 'SIGNATURE', label: 'Signature' }] }],
      });
      const { page, problems, close } = await openPage(browser, options);
      try {
        await page.goto(await mailedLink(t, email));
        const agree = page.getByRole('button', { name: 'I agree, continue' });
        await agree.focus();
        await page.keyboard.press('Enter');
        await expect.poll(() => focusedText(page)).toBe('BUTTON Go to the first field');
        await screenshot(page, `signing-consent-focus-${screen}`);
        await expectNoAxeViolations(page, `after the consent (${screen})`);
        await page.keyboard.press('Enter');
        await page
          .getByRole('heading', { name: /Signature/ })
          .first()
          .waitFor();
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  }
});
