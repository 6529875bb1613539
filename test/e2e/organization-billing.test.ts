import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { organizations } from '../../src/platform/db/schema/index.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { DESKTOP, expectNoAxeViolations, launchBrowser, openPage, screenshot, startService } from './browser.ts';
import { signInThrough } from './workspace-kit.ts';

/**
 * The billing screen when plans belong to the operator (BILLING_SELF_SERVICE unset): priced packages are shown
 * with who grants them and no button that could only answer PAYMENT_REQUIRED; the free package renews once its
 * cycle has ended. After the operator grants Enterprise, its renewal is the operator's too. (Self-service, where every
 * package has its button, is test/e2e/organization-settings.test.ts.)
 */
const ADMIN_TOKEN = crypto.randomBytes(24).toString('hex');
let t: TestApp;
let baseUrl: string;
let browser: Browser;
let owner: TestUser;

beforeAll(async () => {
  ({ t, baseUrl } = await startService({ adminToken: ADMIN_TOKEN }));
  browser = await launchBrowser();
  owner = await createUser(t, { name: 'Petra Plan' });
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the billing screen in Chromium, packages granted by the operator', { timeout: 300_000 }, () => {
  it("priced packages say the operator grants them, with no button; the free one renews once its cycle ends; after a grant the renewal is the operator's", async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, '/organization/billing');
      await page.getByRole('heading', { level: 3, name: 'Your package: Starter' }).waitFor();
      await page.getByText('Priced packages are granted and renewed by the operator of this service.').waitFor();
      await page
        .getByText('Business is granted by the operator of this service: ask them to put your organization on it.')
        .waitFor();
      await page
        .getByText('Enterprise is granted by the operator of this service: ask them to put your organization on it.')
        .waitFor();
      expect(await page.getByRole('button', { name: /^Switch to/ }).count()).toBe(0);
      // The free package's cycle is its allowance: while it runs there is nothing to renew.
      await page.getByText(/Starter starts a new cycle with fresh credits once this one ends/).waitFor();
      expect(await page.getByRole('button', { name: 'Renew package' }).count()).toBe(0);
      await expectNoAxeViolations(page, 'billing, operator-granted packages');
      await screenshot(page, 'organization-11-billing-operator');

      // Once it has ended, the free package renews here.
      await t.platform.db
        .update(organizations)
        .set({ packageExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(organizations.id, owner.organizationId));
      await page.reload();
      await page.getByRole('button', { name: 'Renew package' }).click();
      await page
        .getByRole('dialog', { name: 'Renew Starter now?' })
        .getByRole('button', { name: 'Renew package' })
        .click();
      await expect
        .poll(() => page.getByRole('status').allTextContents(), { timeout: 15_000 })
        .toContainEqual(expect.stringMatching('Starter renewed: a new cycle started.'));

      // The operator grants Enterprise; the screen then offers the way back to Starter, and no renewal.
      const enterprise = (await t.request('GET', '/auth/v1/packages?search=Enterprise')).body.content[0].id;
      const granted = await t.request('PUT', `/admin/v1/organizations/${owner.organizationId}/package`, {
        token: ADMIN_TOKEN,
        body: { pkgId: enterprise },
      });
      expect(granted.status).toBe(200);
      await page.reload();
      await page.getByRole('heading', { level: 3, name: 'Your package: Enterprise' }).waitFor();
      await page
        .getByText('Enterprise is renewed by the operator of this service: ask them for a new cycle.')
        .waitFor();
      expect(await page.getByRole('button', { name: 'Renew package' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Switch to Starter' }).waitFor();
      expect(await page.getByRole('button', { name: 'Switch to Business' }).count()).toBe(0);
      await expectNoAxeViolations(page, 'billing, on a granted package');
      await screenshot(page, 'organization-12-billing-granted');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
