/**
 * On a phone the field being filled opens as a bottom sheet of at most half the screen: its heading, its main
 * action and the guide's buttons stay in view, only the editor scrolls; nothing is hidden behind the bars, from
 * 320 to 430 px wide.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import {
  PHONE,
  drawWithFinger,
  expectNoAxeViolations,
  launchBrowser,
  mailedLink,
  openPage,
  screenshot,
  sendEnvelope,
  sender,
  startService,
  tapUntil,
} from './browser.ts';

vi.setConfig({ testTimeout: 180_000 });

let t: TestApp;
let browser: Browser;
let owner: TestUser;

beforeAll(async () => {
  ({ t } = await startService());
  browser = await launchBrowser();
  owner = await sender(t);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** The part of `target` not covered by the fixed bars: it lies between the banner's bottom and the action bar's top. */
async function inView(page: Page, target: Locator, height: number): Promise<void> {
  const box = await target.boundingBox();
  const bar = await page.getByRole('region', { name: 'Filling and signing' }).boundingBox();
  const banner = await page.getByRole('banner').boundingBox();
  if (!box || !bar || !banner) throw new Error('no box');
  expect(box.y, 'below the banner').toBeGreaterThanOrEqual(banner.y + banner.height - 1);
  expect(box.y + box.height, 'inside the screen').toBeLessThanOrEqual(height + 1);
  const inBar = box.y >= bar.y - 1;
  if (!inBar) expect(box.y + box.height, 'above the action bar').toBeLessThanOrEqual(bar.y + 1);
}

describe('signing on a phone', () => {
  for (const [width, height] of [
    [320, 640],
    [390, 844],
    [430, 932],
  ] as const) {
    it(`at ${width} × ${height}: the consent's buttons are in view, the signature sheet takes at most half`, async () => {
      const email = `sheet.${width}@example.com`;
      await sendEnvelope(t, owner, {
        title: `Sheet at ${width}`,
        recipients: [
          {
            name: 'Sasha Sheet',
            email,
            fields: [
              { fieldType: 'TEXT', fieldRequired: true, label: 'Your city' },
              { fieldType: 'SIGNATURE', label: 'Signature' },
            ],
          },
        ],
      });
      const { page, problems, close } = await openPage(browser, { ...PHONE, viewport: { width, height } });
      try {
        await page.goto(await mailedLink(t, email));
        await page.locator('.page[data-rendered="true"]').first().waitFor();
        // The consent: both answers can be brought into view above the action bar.
        for (const name of ['I agree, continue', 'I do not agree (decline)']) {
          const button = page.getByRole('button', { name, exact: true });
          await button.scrollIntoViewIfNeeded();
          await inView(page, button, height);
        }
        await page.getByRole('button', { name: 'I agree, continue' }).tap();
        await page.getByRole('button', { name: 'Go to the first field' }).tap();
        await page.getByRole('textbox', { name: 'Your city (required)' }).fill('Lisbon');
        await page.getByRole('button', { name: 'Next field' }).tap();

        // The signature's sheet: at most half the screen, its heading, its action and the guide in view.
        const sheet = page.getByRole('region', { name: 'Filling and signing' });
        await page.getByRole('heading', { name: /^Signature \(field 2 of 2\)/ }).waitFor();
        const sheetBox = await sheet.boundingBox();
        expect(sheetBox?.height ?? 0).toBeLessThanOrEqual(height / 2 + 1);
        // The whole drawing area is in view as the sheet opens, between its heading and its action, unscrolled.
        const pad = await page.getByRole('img', { name: /Drawing area for your signature/ }).boundingBox();
        const head = await page.locator('.field-panel-head').boundingBox();
        const action = await page.getByRole('button', { name: 'Use this signature' }).boundingBox();
        if (!pad || !head || !action) throw new Error('no box');
        expect(pad.y, 'pad below the sheet heading').toBeGreaterThanOrEqual(head.y + head.height - 1);
        expect(pad.y + pad.height, 'pad above its action').toBeLessThanOrEqual(action.y + 1);
        await drawWithFinger(page, /Drawing area for your signature/);
        for (const target of [
          page.getByRole('heading', { name: /^Signature \(field 2 of 2\)/ }),
          page.getByRole('button', { name: 'Use this signature' }),
          page.getByRole('button', { name: 'Previous field' }),
        ])
          await inView(page, target, height);
        await expectNoAxeViolations(page, `signature sheet at ${width}`);
        await screenshot(page, `signing-sheet-${width}`);

        // Close shows Finish and Decline again; the field opens again from the guide.
        const decline = page.getByRole('button', { name: 'Decline', exact: true });
        await tapUntil(page.getByRole('button', { name: 'Close', exact: true }), decline);
        await inView(page, decline, height);
        await page
          .getByRole('button', { name: /Go to the|Review|Next/ })
          .first()
          .tap();
        await page.getByRole('button', { name: 'Use this signature' }).waitFor();
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  }
});

describe('opening a link', () => {
  it('on a phone: while the envelope loads, the shape of the page is shown and announced once', async () => {
    const email = 'sheet.opening@example.com';
    await sendEnvelope(t, owner, {
      title: 'Opening slowly',
      recipients: [{ name: 'Olga Opening', email, fields: [{ fieldType: 'SIGNATURE' }] }],
    });
    const { page, problems, close } = await openPage(browser, PHONE);
    try {
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(/\/signing\/overview$/, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(await mailedLink(t, email));
      const skeleton = page.locator('[aria-busy="true"][role="status"]');
      await skeleton.waitFor();
      expect(await skeleton.textContent()).toBe('Loading…');
      expect(await page.getByRole('heading', { level: 1, name: 'Opening your document…' }).count()).toBe(1);
      await expectNoAxeViolations(page, 'signing page opening');
      await screenshot(page, 'signing-opening-phone');
      release();
      await page.getByRole('button', { name: 'I agree, continue' }).waitFor();
      expect(await skeleton.count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
