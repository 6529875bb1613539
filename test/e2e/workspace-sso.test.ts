import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { freePort } from '../helpers/free-port.ts';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.ts';
import { startService } from '../web-session/helpers.ts';
import { DESKTOP, expectNoAxeViolations, launchBrowser, openPage, screenshot } from './browser.ts';
import { expectWorkspaceLayout } from './workspace-kit.ts';

// A whole journey through two servers in a real browser, on a machine that may be shared: minutes, not seconds.
vi.setConfig({ testTimeout: 180_000 });

let t: TestApp;
let baseUrl: string;
let idp: TestOidcProvider;
let browser: Browser;

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  idp = await startOidcProvider({
    clients: [
      {
        client_id: 'web-app',
        client_secret: 'web-app-secret',
        redirect_uris: [`${baseUrl}/bff/auth/callback`],
        post_logout_redirect_uris: [`${baseUrl}/`],
      },
    ],
  });
  ({ t } = await startService(
    { oidc: { issuer: idp.issuer, clientId: 'web-app', clientSecret: 'web-app-secret' } },
    port,
  ));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await idp?.close();
});

describe('the workspace signed in through the configured OpenID provider', () => {
  it('a browser opening a dashboard address goes to the provider, comes back signed in to that address, and signs out at the provider too', async () => {
    idp.accounts.set('sub-ada', {
      sub: 'sub-ada',
      email: 'ada@idp.example',
      email_verified: true,
      name: 'Ada Lovelace',
    });
    idp.loginAs('sub-ada');
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await page.goto(`${baseUrl}/?status=Sent&q=lease`);
      // Through the provider (its login answered by the test helper) and back to the very address asked for.
      await page.waitForURL(`${baseUrl}/?status=Sent&q=lease`);
      await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
      await expectWorkspaceLayout(page);
      expect(await page.getByRole('navigation', { name: 'Account' }).textContent()).toContain(
        'Signed in as Ada Lovelace',
      );
      expect(await page.getByRole('searchbox').first().inputValue()).toBe('lease');
      expect(idp.interactions.length).toBeGreaterThan(0);
      await expectNoAxeViolations(page, 'dashboard after single sign-on');
      await screenshot(page, 'workspace-sso-01-dashboard');

      // Sign out ends the service's session and the provider's (RP-initiated logout), then comes back to /.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL((url) => url.origin === idp.issuer || url.pathname !== '/' || url.search === '');
      const me = await page.request.get(`${baseUrl}/bff/auth/me`);
      expect(me.status()).toBe(401);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
