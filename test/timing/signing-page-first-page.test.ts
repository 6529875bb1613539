import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import {
  DESKTOP,
  launchBrowser,
  mailedLink,
  openPage,
  screenshot,
  sender,
  sendEnvelope,
  startService,
} from '../e2e/browser.ts';
import { waitForQuietMachine } from './quiet-machine.ts';

/**
 * The signing page's first paint on a long document (issue: first page visible in 1.5 s on a 100-page document over
 * loopback). The first page is the server's picture of it (GET /document/v1/page-image: drawn on this first ask, then stored) until
 * pdf.js has drawn it.
 */
let t: TestApp;
let owner: TestUser;
let browser: Browser;

beforeAll(async () => {
  ({ t } = await startService());
  owner = await sender(t);
  browser = await launchBrowser();
  // A running service has served pages before: one untimed opening warms its code paths (and Chromium's), so the
  // timed ones measure the steady state rather than the first request after start-up.
  await sendEnvelope(t, owner, {
    title: 'Warm-up',
    pages: 2,
    recipients: [
      { name: 'Walter Warm', email: 'warm.up@example.com', fields: [{ fieldType: 'SIGNATURE', label: 'Signature' }] },
    ],
  });
  const warm = await openPage(browser, DESKTOP);
  try {
    await warm.page.goto(await mailedLink(t, 'warm.up@example.com'));
    await warm.page.locator('.page[data-rendered="true"]').first().waitFor();
    await warm.page.getByRole('region', { name: 'Page 1 of 2' }).getByText('Service Agreement').first().waitFor();
  } finally {
    await warm.close();
  }
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the signing page on a long document', () => {
  // Runs alone (vitest.config.ts: the timing project, after every other file), so the budget is measured on a quiet
  // machine; up to two more tries (each with its own envelope and link) for a noisy moment of a shared host.
  it('shows the first page of a 100-page document within 1.5 s and draws the others only when scrolled to', {
    retry: 2,
  }, async () => {
    const email = 'long.reader@example.com';
    await sendEnvelope(t, owner, {
      title: 'A long one',
      pages: 100,
      recipients: [{ name: 'Lena Long', email, fields: [{ fieldType: 'SIGNATURE', label: 'Signature', pageNo: 100 }] }],
    });
    const link = await mailedLink(t, email);
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      const idle = await waitForQuietMachine();
      console.log(`machine ${(idle * 100).toFixed(0)}% idle over the second before the timed opening`);
      const started = Date.now();
      await page.goto(link);
      await page.getByRole('region', { name: 'Page 1 of 100' }).and(page.locator('[data-rendered="true"]')).waitFor();
      const elapsed = Date.now() - started;
      console.log(`first page of 100 after ${elapsed} ms`);
      await screenshot(page, '30-long-document-first-paint');
      expect(elapsed, `first page after ${elapsed} ms`).toBeLessThanOrEqual(1500);
      expect(await page.locator('.page[data-rendered="true"]').count()).toBeLessThan(10);
      // Then pdf.js takes over from the picture: page 1 gets its text layer (its words are text, not a picture).
      await expect
        .poll(() => page.getByRole('region', { name: 'Page 1 of 100' }).getByText('Service Agreement').count(), {
          timeout: 15_000,
        })
        .toBeGreaterThan(0);
      await expect.poll(() => page.getByRole('region', { name: 'Page 1 of 100' }).locator('img').count()).toBe(0);
      // Zoom for detail (an A1 drawing needs several steps): the page grows and is drawn again.
      const before = (await page.getByRole('region', { name: 'Page 1 of 100' }).boundingBox())!.width;
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await expect
        .poll(async () => (await page.getByRole('region', { name: 'Page 1 of 100' }).boundingBox())!.width)
        .toBeGreaterThan(before * 1.4);
      await page.getByRole('button', { name: 'Fit to width' }).click();
      // The signer's field on the last page: the guide scrolls there, and that page is drawn.
      await page.getByRole('button', { name: 'I agree, continue' }).click();
      await page.getByRole('button', { name: 'Go to the first field' }).click();
      await page.getByRole('region', { name: 'Page 100 of 100' }).and(page.locator('[data-rendered="true"]')).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
