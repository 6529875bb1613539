import { freePort } from '../helpers/free-port.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser } from '../helpers/factories.ts';
import { createCa, issueCard, signHash, type TestCa } from '../helpers/card-certificates.ts';
import { users } from '../../src/platform/db/schema/index.ts';
import { DESKTOP, expectNoAxeViolations, launchBrowser, openPage, screenshot, tabTo } from './browser.ts';

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let ca: TestCa;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signin-e2e-'));

beforeAll(async () => {
  // Passkeys need a secure context whose host is a domain (an IP address cannot be an RP id): the page is
  // http://localhost, which browsers treat as secure, and PUBLIC_URL and WEBAUTHN_RP_ID name it.
  ca = await createCa('Sign-in Page Card CA');
  const caFile = path.join(dir, 'cards-ca.pem');
  fs.writeFileSync(caFile, ca.pem);
  const port = await freePort();
  baseUrl = `http://localhost:${port}`;
  t = await createTestApp({ publicUrl: baseUrl, webauthnRpId: 'localhost', smartCardCaFile: caFile });
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Opens the own sign-in page through the web session, which comes back to /bff/auth/me once signed in. */
async function openSignin(page: Page) {
  await page.goto(`${baseUrl}/bff/auth/authorize?returnTo=${encodeURIComponent('/bff/auth/me')}`);
  await page.waitForURL(/\/signin\?state=/);
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
}

/** The identity /bff/auth/me shows once the browser landed there signed in. */
async function landedAs(page: Page) {
  await page.waitForURL(`${baseUrl}/bff/auth/me`, { timeout: 15_000 }).catch(async (error: Error) => {
    throw new Error(
      `${error.message}\nThe page shows: ${await page
        .locator('main')
        .innerText()
        .catch(() => '(nothing)')}`,
    );
  });
  return JSON.parse(await page.locator('body').innerText()) as { userId: number; email: string; rememberMe: boolean };
}

describe('the own sign-in page in Chromium', () => {
  it('password (a wrong one first), then the TOTP code; lands in the app with an HttpOnly session cookie', async () => {
    const user = await createUser(t);
    const secret = new Secret({ size: 20 });
    await t.platform.db
      .update(users)
      .set({ twoFactorEnabled: true, totpSecret: secret.base32 })
      .where(eq(users.id, user.userId));
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
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('The email or password is not correct.');
      await expectNoAxeViolations(page, 'sign-in, wrong password');

      await page.getByLabel('Password').fill(user.password);
      await page.getByLabel('Keep me signed in on this device for 30 days').check();
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
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
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('This sign-in page has expired');
      await expectNoAxeViolations(page, 'expired state');
      await page.getByRole('link', { name: 'Start again' }).click();
      await page.waitForURL(/\/signin\?state=/);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a passkey: registered in settings from the signed-in browser (a virtual authenticator), then signs in from the page by keyboard', async () => {
    const user = await createUser(t);
    const { page, problems, close } = await openPage(browser, DESKTOP);
    const cdp = await page.context().newCDPSession(page);
    try {
      await cdp.send('WebAuthn.enable');
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
        },
      });

      await openSignin(page);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      expect((await landedAs(page)).userId).toBe(user.userId);

      // Settings, as the web app will call them with the session cookie (and its CSRF token); the authenticator answers.
      const registered = (await page.evaluate(`(async () => {
        const me = await (await fetch('/bff/auth/me')).json();
        const headers = { 'content-type': 'application/json', 'x-csrf-token': me.csrfToken };
        const options = await (await fetch('/user/v1/settings/passkeys/options', { method: 'POST', headers, body: '{}' })).json();
        const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
        const response = await fetch('/user/v1/settings/passkeys', { method: 'POST', headers, body: JSON.stringify({ ...credential.toJSON(), name: 'This laptop' }) });
        return { status: response.status, body: await response.json() };
      })()`)) as { status: number; body: any };
      expect(registered.status, JSON.stringify(registered.body)).toBe(200);
      expect(registered.body).toMatchObject({ name: 'This laptop' });
      const before = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(before.credentials).toHaveLength(1);

      const signedOut = await page.evaluate(`(async () => {
        const me = await (await fetch('/bff/auth/me')).json();
        const out = await fetch('/bff/auth/logout', { method: 'POST', headers: { 'x-csrf-token': me.csrfToken } });
        return [out.status, (await fetch('/bff/auth/me')).status];
      })()`);
      expect(signedOut).toEqual([200, 401]);

      await openSignin(page);
      const passkey = page.getByRole('button', { name: 'Sign in with a passkey' });
      // Without an email the page says what to do, next to the button, and announces it.
      await passkey.click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('Enter your email above first');
      await expectNoAxeViolations(page, 'passkey without an email');
      await screenshot(page, 'signin-03-passkey-needs-email');

      await page.getByLabel('Email').fill(user.email);
      await tabTo(page, passkey);
      await page.keyboard.press('Enter');
      const shown = await landedAs(page);
      expect(shown).toMatchObject({ userId: user.userId, email: user.email });
      // The authenticator really signed: its counter moved, and the server recorded the use.
      const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(after.credentials[0].signCount).toBeGreaterThan(before.credentials[0].signCount);
      const listed = (await page.evaluate(`fetch('/user/v1/settings/passkeys').then((r) => r.json())`)) as {
        lastUsedAt: string | null;
      }[];
      expect(listed[0].lastUsedAt).not.toBeNull();
      expect(problems).toEqual([]);
    } finally {
      await cdp.detach().catch(() => {});
      await close();
    }
  });

  it('a smart card: the test plays the card (certificate upload, the hash signed outside the browser, the signature pasted)', async () => {
    const user = await createUser(t);
    const card = await issueCard(ca, { email: user.email, kind: 'RSA' });
    const stranger = await issueCard(ca, { email: user.email, kind: 'EC' });
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await openSignin(page);
      await page.getByRole('heading', { level: 3, name: 'Sign in with a smart card' }).waitFor();

      // Not a certificate: said inline.
      await page.getByLabel('Card certificate (PEM)').fill('this is not a certificate');
      await page.getByRole('button', { name: 'Get the hash to sign' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('not a certificate this page can read');
      await expectNoAxeViolations(page, 'smart card, unreadable certificate');

      // The certificate file, as a person would choose it.
      await page
        .getByLabel('Or choose the certificate file')
        .setInputFiles({ name: 'card.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(card.pem) });
      await expect.poll(() => page.getByLabel('Card certificate (PEM)').inputValue()).toBe(card.pem.trim());
      await page.getByRole('button', { name: 'Get the hash to sign' }).click();
      await page.getByRole('heading', { level: 4, name: 'Sign this hash with your card' }).waitFor();
      const firstHash = await page.getByLabel('Hash to sign (base64)').inputValue();
      expect(Buffer.from(firstHash, 'base64')).toHaveLength(32);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
      await page.getByRole('button', { name: 'Copy hash' }).click();
      await expect.poll(() => page.getByRole('status').textContent()).toBe('The hash is copied.');
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(firstHash);
      await page.getByText("How to sign it with OpenSC's pkcs11-tool").click();
      const commands = await page.locator('pre.command').allInnerTexts();
      expect(commands[0]).toBe(`echo '${firstHash}' | base64 -d > hash.bin`);
      expect(commands.join('\n')).toMatch(/pkcs11-tool .*--sign --mechanism RSA-PKCS/);
      expect(commands.join('\n')).toMatch(/pkcs11-tool .*--sign --mechanism ECDSA/);
      await expectNoAxeViolations(page, 'smart card, hash to sign');
      await screenshot(page, 'signin-04-smart-card-hash');

      // A signature by another key: refused with the reason, and the spent hash gives way to a new one.
      await page.getByLabel('Signature (base64)').fill(signHash(stranger, firstHash));
      await page.getByRole('button', { name: 'Sign in with the card' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('The signature does not match');
      await expectNoAxeViolations(page, 'smart card, wrong signature');
      await screenshot(page, 'signin-05-smart-card-rejected');

      await page.getByRole('button', { name: 'Get the hash to sign' }).click();
      await page.getByRole('heading', { level: 4, name: 'Sign this hash with your card' }).waitFor();
      const hash = await page.getByLabel('Hash to sign (base64)').inputValue();
      expect(hash).not.toBe(firstHash);
      // Pasted as a terminal prints it, line-wrapped.
      await page.getByLabel('Signature (base64)').fill(signHash(card, hash).replace(/(.{64})/g, '$1\n'));
      await page.getByLabel('Keep me signed in on this device for 30 days').check();
      await page.getByRole('button', { name: 'Sign in with the card' }).click();
      const shown = await landedAs(page);
      expect(shown).toMatchObject({ userId: user.userId, email: user.email, rememberMe: true });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
