import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import { logoPart, pngImage, putBranding, settings } from '../branding/branding-forms.ts';
import {
  DESKTOP,
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
let owner: TestUser;
let browser: Browser;

beforeAll(async () => {
  ({ t } = await startService());
  owner = await sender(t);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe("the signing page in the sender organization's branding", () => {
  it('shows its logo (same origin, under the strict CSP), its name and its colour, darkened where white text needs it', async () => {
    // Gold: white text on it would fail WCAG contrast, so the page darkens it.
    const res = await putBranding(t, owner.token, [
      settings({ primaryColor: '#FFD700', senderName: 'Acme Gold' }),
      logoPart(pngImage(200, 80)),
    ]);
    expect(res.status).toBe(204);
    const email = 'branded.signer@example.com';
    await sendEnvelope(t, owner, {
      title: 'Branded agreement',
      recipients: [{ name: 'Bea Branded', email, fields: [{ fieldType: 'SIGNATURE', label: 'Signature' }] }],
    });
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await page.goto(await mailedLink(t, email));
      // The "opening" frame has a banner too and is replaced once the envelope is read: read the ceremony's banner.
      await page.getByRole('heading', { level: 1, name: 'Branded agreement' }).waitFor();
      const logo = page.getByRole('banner').getByRole('img', { name: 'Acme Gold logo' });
      await logo.waitFor();
      await expect.poll(() => logo.evaluate((img: any) => img.complete && img.naturalWidth)).toBe(200);
      expect(await logo.getAttribute('src')).toMatch(/^\/branding\/v1\/logos\/[0-9a-f]{64}$/);
      await expect.poll(() => page.getByRole('banner').getByText('From Acme Gold').isVisible()).toBe(true);
      const colour = (await page.evaluate(
        'getComputedStyle(document.documentElement).getPropertyValue("--brand-color").trim()',
      )) as string;
      expect(colour).toMatch(/^#[0-9a-f]{6}$/);
      expect(colour).not.toBe('#ffd700');
      expect(colour).not.toBe('#1d4ed8');
      // The hue stays the sender's: red above green above blue, as in gold.
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
      expect(r).toBeGreaterThan(g);
      expect(g).toBeGreaterThan(b);
      const bar = await page
        .getByRole('banner')
        .evaluate((element: any) => element.ownerDocument.defaultView.getComputedStyle(element).backgroundColor);
      expect(bar).toBe(`rgb(${r}, ${g}, ${b})`);
      await screenshot(page, '30-branded');
      await expectNoAxeViolations(page, 'branded signing page');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('keeps the platform look for an organization without branding', async () => {
    const plain = await sender(t);
    const email = 'plain.signer@example.com';
    await sendEnvelope(t, plain, {
      title: 'Plain agreement',
      recipients: [{ name: 'Pat Plain', email, fields: [{ fieldType: 'SIGNATURE', label: 'Signature' }] }],
    });
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await page.goto(await mailedLink(t, email));
      await page.getByRole('heading', { level: 1, name: 'Plain agreement' }).waitFor();
      expect(await page.getByRole('banner').getByRole('img').count()).toBe(0);
      const colour = await page.evaluate(
        'getComputedStyle(document.documentElement).getPropertyValue("--brand-color").trim()',
      );
      expect(colour).toBe('#1d4ed8');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
