import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser } from '../helpers/factories.ts';
import { users } from '../../src/platform/db/schema/index.ts';
import { DESKTOP, expectNoAxeViolations, launchBrowser, openPage, screenshot, startService } from './browser.ts';

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

describe('the own sign-in page in Chromium', () => {
  it('password (a wrong one first), then the TOTP code; lands in the app with an HttpOnly session cookie', async () => {
    const user = await createUser(t);
    const secret = new Secret({ size: 20 });
    await t.platform.db.update(users).set({ twoFactorEnabled: true, totpSecret: secret.base32 }).where(eq(users.id, user.userId));
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      // Landing back on /bff/auth/me shows the session's identity as JSON: proof that the cookie works in a browser.
      await page.goto(`${baseUrl}/bff/auth/authorize?returnTo=${encodeURIComponent('/bff/auth/me')}`);
      await page.waitForURL(/\/signin\?state=/);
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await expectNoAxeViolations(page, 'sign-in form');
      await screenshot(page, 'signin-01-form');

      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('The email or password is not correct.');
      await expectNoAxeViolations(page, 'sign-in, wrong password');

      await page.getByLabel('Password').fill(user.password);
      await page.getByLabel('Keep me signed in on this device for 30 days').check();
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Two-factor authentication' }).waitFor();
      await expectNoAxeViolations(page, 'two-factor code');
      await screenshot(page, 'signin-02-totp');
      await page.getByLabel('Authentication code').fill(new TOTP({ secret }).generate());
      await page.getByRole('button', { name: 'Verify code' }).click();

      await page.waitForURL(`${baseUrl}/bff/auth/me`);
      const shown = JSON.parse(await page.locator('body').innerText());
      expect(shown).toMatchObject({ userId: user.userId, email: user.email, rememberMe: true });
      const cookies = await page.context().cookies(baseUrl);
      const session = cookies.find((c) => c.name === 'sig_session')!;
      expect(session.httpOnly).toBe(true);
      expect(session.sameSite).toBe('Lax');
      expect(session.expires).toBeGreaterThan(Date.now() / 1000 + 29 * 24 * 3600);
      // Scripts cannot read it.
      expect(await page.evaluate('document.cookie')).not.toContain('sig_session');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('an expired or foreign sign-in page offers to start again; opened without a state it starts a sign-in', async () => {
    const user = await createUser(t);
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await page.goto(`${baseUrl}/signin?state=not-a-real-state`);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('This sign-in page has expired');
      await expectNoAxeViolations(page, 'expired state');
      await page.getByRole('link', { name: 'Start again' }).click();
      await page.waitForURL(/\/signin\?state=/);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
