import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser } from '../helpers/factories.ts';
import { DESKTOP, PHONE, expectNoAxeViolations, launchBrowser, openPage, screenshot, startService } from './browser.ts';

/*
 * $PUBLIC_URL/auth/sso/callback in a real browser (RUNTIME.md "Request shapes"): a page of this origin opens the
 * authorization URL of GET /auth/v1/signin (no redirectUri) in a window; the person signs in on the service's own page;
 * the callback page posts {type: "sso-callback", code, state} to the opener and closes; the opener exchanges the code.
 * A page of another origin that opens the callback receives nothing.
 */
vi.setConfig({ testTimeout: 120_000 });

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

describe('the SSO callback page', () => {
  it('hands code and state to the opener of this origin, which signs in with them', async () => {
    const user = await createUser(t, { name: 'Olga Opener' });
    const started = await t.request('GET', '/auth/v1/signin');
    expect(started.status).toBe(200);
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await page.goto(`${baseUrl}/signin?state=opener`);
      await page.evaluate(() => {
        (globalThis as any).received = null;
        (globalThis as any).addEventListener('message', (event: any) => {
          if (event.data?.type === 'sso-callback')
            (globalThis as any).received = { origin: event.origin, data: event.data };
        });
      });
      const [popup] = await Promise.all([
        page.waitForEvent('popup'),
        page.evaluate((url) => {
          (globalThis as any).open(url, 'sso', 'width=480,height=640');
        }, started.body.authorizationUrl),
      ]);
      await popup.getByLabel('Email').fill(user.email);
      await popup.getByLabel('Password').fill(user.password);
      await popup.getByRole('button', { name: 'Sign in', exact: true }).click();
      await popup.waitForEvent('close');
      const received = (await page
        .waitForFunction(() => (globalThis as any).received)
        .then((handle) => handle.jsonValue())) as { origin: string; data: { code: string; state: string } };
      expect(received.origin).toBe(baseUrl);
      expect(received.data.state).toBe(started.body.state);
      const tokens = await t.request('POST', '/auth/v1/signin/callback', {
        body: { code: received.data.code, state: received.data.state },
      });
      expect(tokens.status, tokens.raw).toBe(200);
      expect((await t.request('GET', '/user/v1/settings/profile', { token: tokens.body.accessToken })).body.id).toBe(
        user.userId,
      );
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('gives nothing to an opener of another origin, and tells a person alone to return to the app (phone, axe-clean)', async () => {
    const { page, problems, close } = await openPage(browser, PHONE);
    try {
      // localhost is another origin than 127.0.0.1 for the browser.
      const other = baseUrl.replace('127.0.0.1', 'localhost');
      await page.goto(`${other}/signin?state=elsewhere`);
      await page.evaluate(() => {
        (globalThis as any).messages = 0;
        (globalThis as any).addEventListener('message', () => {
          (globalThis as any).messages += 1;
        });
      });
      const [popup] = await Promise.all([
        page.waitForEvent('popup'),
        page.evaluate((url) => {
          (globalThis as any).open(url, 'sso');
        }, `${baseUrl}/auth/sso/callback?code=stolen&state=s`),
      ]);
      await popup
        .getByRole('status')
        .filter({ hasText: 'Sign-in finished. Return to the app that asked you to sign in.' })
        .waitFor();
      await page.waitForTimeout(500);
      expect(await page.evaluate(() => (globalThis as any).messages)).toBe(0);

      // Opened on its own (a native client's browser): it says what to do, and the code leaves the address bar.
      await page.goto(`${baseUrl}/auth/sso/callback?code=abc&state=def`);
      await page
        .getByRole('status')
        .filter({ hasText: 'Sign-in finished. Return to the app that asked you to sign in.' })
        .waitFor();
      expect(new URL(page.url()).search).toBe('');
      await expectNoAxeViolations(page, 'sso callback alone');
      await screenshot(page, 'sso-callback-alone-phone');
      await page.goto(`${baseUrl}/auth/sso/callback?error=access_denied&state=def`);
      await page
        .getByRole('status')
        .filter({ hasText: 'The sign-in did not finish (access_denied). Return to the app and try again.' })
        .waitFor();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
