import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser } from 'playwright-core';
import { users } from '../../src/platform/db/schema/index.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser } from '../helpers/factories.ts';
import { DESKTOP, expectNoAxeViolations, launchBrowser, openPage, screenshot, startService } from './browser.ts';
import { expectWorkspaceLayout } from './workspace-kit.ts';

// Whole journeys in a real browser against a real service, on a machine that may be shared: minutes, not seconds.
vi.setConfig({ testTimeout: 180_000 });

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

describe('sign up, confirm, sign in, sign out', () => {
  it('the rules show at the fields; a taken email says so; then the mailed link confirms and sign-in lands on the empty dashboard', async () => {
    const taken = await createUser(t);
    const email = `new-${Date.now()}@example.com`;
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      // A newcomer opens the service: sign-in, which offers to create an account.
      await page.goto(`${baseUrl}/`);
      await page.waitForURL(/\/signin\?state=/);
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.waitForURL(`${baseUrl}/signup`);
      await page.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor();
      await expectNoAxeViolations(page, 'sign-up form');
      await screenshot(page, 'workspace-signup-01-form');

      // Every rule broken at once: each field says what is wrong, the first one has the focus.
      await page.getByLabel('Your name').fill('X1');
      await page.getByLabel('Email').fill('not-an-email');
      await page.getByLabel('Password').fill('short');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page
        .getByText(
          'Use 3 to 20 characters: letters, a hyphen or apostrophe between two letters, single spaces between words',
        )
        .waitFor();
      await page.getByText('Enter an email address like name@example.com.').waitFor();
      await page.getByText('Use at least 8 characters (at most 128).').waitFor();
      expect(await page.getByLabel('Your name').getAttribute('aria-invalid')).toBe('true');
      expect(await page.evaluate('document.activeElement.name')).toBe('name');
      await expectNoAxeViolations(page, 'sign-up form with errors');
      await screenshot(page, 'workspace-signup-02-errors');

      // An email already registered: 409, said at the email field.
      await page.getByLabel('Your name').fill('Nora Newcomer');
      await page.getByLabel('Email').fill(taken.email);
      await page.getByLabel('Password').fill('a good password');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText('An account with this email already exists').waitFor();

      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { level: 1, name: 'Check your mail' }).waitFor();
      await expectNoAxeViolations(page, 'sign-up done');
      await screenshot(page, 'workspace-signup-03-done');

      // The link from the mail, opened in the same browser (not signed in yet).
      const [mail] = await t.mails({ to: email, kind: 'EMAIL_VERIFICATION' });
      const link = /(https?:\/\/\S+\/verify-email\/[A-Za-z0-9_-]+)/.exec(mail.textBody)![1];
      await page.goto(link);
      // Opening the link changes nothing (a mail scanner opens it too); the person confirms.
      await page.getByRole('heading', { level: 1, name: 'Confirm your email address' }).waitFor();
      expect(
        (await t.platform.db.select().from(users).where(eq(users.email, email))).map((u) => u.emailVerifiedAt),
      ).toEqual([null]);
      await expectNoAxeViolations(page, 'confirm the address');
      await page.getByRole('button', { name: 'Confirm my address' }).click();
      await page.getByRole('heading', { level: 1, name: 'Email address confirmed' }).waitFor();
      await expectNoAxeViolations(page, 'email confirmed');
      await screenshot(page, 'workspace-signup-04-confirmed');

      // On to sign-in, and into the empty dashboard.
      await page.getByRole('link', { name: 'Go to your documents' }).click();
      await page.waitForURL(/\/signin\?state=/);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('a good password');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL(`${baseUrl}/`);
      await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
      await page.getByRole('heading', { name: 'No envelopes yet' }).waitFor();
      await expectWorkspaceLayout(page);
      expect(await page.getByRole('navigation', { name: 'Account' }).textContent()).toContain(
        'Signed in as Nora Newcomer',
      );
      expect(await page.getByRole('link', { name: 'New envelope' }).first().getAttribute('href')).toBe(
        '/envelopes/new',
      );
      await expectNoAxeViolations(page, 'empty dashboard');
      await screenshot(page, 'workspace-signup-05-empty-dashboard');

      // Sign out: the session ends, the browser goes to the logout URL, which (signed out) is sign-in again.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/signin\?state=/);
      const me = await page.request.get(`${baseUrl}/bff/auth/me`);
      expect(me.status()).toBe(401);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('an expired link offers a signed-in person a new one, and a signed-out one a way to sign in first', async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await page.goto(`${baseUrl}/verify-email/${'A'.repeat(43)}`);
      await page.getByRole('button', { name: 'Confirm my address' }).click();
      await page.getByRole('heading', { level: 1, name: 'This link has expired' }).waitFor();
      const signIn = page.getByRole('link', { name: 'Sign in to get a new link' });
      expect(await signIn.getAttribute('href')).toBe(
        `/bff/auth/authorize?returnTo=${encodeURIComponent(`/verify-email/${'A'.repeat(43)}`)}`,
      );
      await expectNoAxeViolations(page, 'expired link, signed out');

      // Signed in (an unverified account), the same page offers to send a new link.
      const user = await createUser(t, { emailVerified: false, name: 'Una Unverified' });
      await signIn.click();
      await page.waitForURL(/\/signin\?state=/);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('button', { name: 'Confirm my address' }).click();
      await page.getByRole('heading', { level: 1, name: 'This link has expired' }).waitFor();
      await page.getByRole('button', { name: 'Send me a new link' }).click();
      await page.getByText(`A new link is on its way to ${user.email}`).waitFor();
      await expectNoAxeViolations(page, 'expired link, new link sent');
      await screenshot(page, 'workspace-signup-06-resent');
      const mails = await t.mails({ to: user.email, kind: 'EMAIL_VERIFICATION' });
      expect(mails.length).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
