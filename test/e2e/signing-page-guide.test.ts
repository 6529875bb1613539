/**
 * The signing page's guide: after "I agree, continue" the focus goes to "Go to the first field" (a keyboard or
 * screen-reader user goes on with one key instead of Tabbing through zoom and comments), and a date field has a
 * "Today" button that fills the signer's own date, shown as the document will show it. Desktop and phone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import { fieldRow } from '../helpers/ceremony.ts';
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
/** The date step on a common phone size (390 × 844); the focus checks above use the narrowest (320 px). */
const DATE_SCREENS: [string, BrowserContextOptions][] = [
  ['desktop', DESKTOP],
  ['phone', { ...PHONE, viewport: { width: 390, height: 844 } }],
];

const focusedText = (page: Page) =>
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

describe('a date field on the signing page', () => {
  for (const [screen, options] of DATE_SCREENS) {
    it(`on ${screen}: "Today" fills today's date, saved and shown as the document will show it`, async () => {
      const email = `today.${screen}@example.com`;
      const { fieldIds } = await sendEnvelope(t, owner, {
        title: `Dated (${screen})`,
        recipients: [
          {
            name: 'Dora Dated',
            email,
            fields: [
              { fieldType: 'DATE', label: 'Signed on', fieldRequired: true },
              { fieldType: 'SIGNATURE', label: 'Signature', fieldRequired: true },
            ],
          },
        ],
      });
      const { page, problems, close } = await openPage(browser, options);
      try {
        await page.goto(await mailedLink(t, email));
        await page.getByRole('button', { name: 'I agree, continue' }).click();
        await page.getByRole('button', { name: 'Go to the first field' }).click();
        await page.getByRole('button', { name: 'Today', exact: true }).click();
        const now = new Date();
        const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
        expect(await page.getByLabel('Signed on (required)').inputValue()).toBe(today);
        const shown = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(
          new Date(`${today}T00:00:00Z`),
        );
        await expect.poll(() => page.getByText(`Shown on the document as: ${shown}`).isVisible()).toBe(true);
        await screenshot(page, `signing-date-today-${screen}`);
        // Going on saves the value (the guide saves a field when the signer leaves it, unless that would finish).
        await page.getByRole('button', { name: /^(Next field|Review your fields)$/ }).click();
        await expectNoAxeViolations(page, `date field with Today (${screen})`);
        await expect
          .poll(async () => (await fieldRow(t, fieldIds[0]['Signed on'])).value, { timeout: 15_000 })
          .toBe(today);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  }
});
