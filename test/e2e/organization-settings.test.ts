import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { freePort } from '../helpers/free-port.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { startSmtpPeer } from '../mail-settings/provider-servers.ts';
import { pngImage } from '../branding/branding-forms.ts';
import {
  DESKTOP,
  expectNoAxeViolations,
  launchBrowser,
  mailedLink,
  openPage,
  screenshot,
  sendEnvelope,
} from './browser.ts';
import { signInThrough } from './workspace-kit.ts';

/**
 * Billing, mail settings and branding through the organization screens: the owner moves to a package that allows
 * custom mail, configures the organization's own SMTP server (a real SMTP peer on loopback: a wrong password fails
 * at AUTH, the right one delivers the test mail), sees its delivery log fill, and brands the organization with a
 * live preview that the signing page then matches.
 */
let t: TestApp;
let baseUrl: string;
let browser: Browser;
let peer: Awaited<ReturnType<typeof startSmtpPeer>>;
let owner: TestUser;

beforeAll(async () => {
  peer = await startSmtpPeer({ user: 'acme-mailer', password: 'right password' });
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  // The organization's SMTP server is on loopback, which the outbound rules refuse unless told otherwise. The owner
  // chooses a priced package on the billing screen: an installation with BILLING_SELF_SERVICE (the default, where the
  // operator grants those, is test/e2e/organization-billing.test.ts).
  t = await createTestApp({ publicUrl: baseUrl, outboundAllowPrivate: true, billingSelfService: true });
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await launchBrowser();
  owner = await createUser(t, { name: 'Ada Acme' });
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await peer?.close();
});

async function status(page: Page, text: string | RegExp) {
  await expect
    .poll(() => page.getByRole('status').allTextContents(), { timeout: 15_000 })
    .toContainEqual(expect.stringMatching(text));
}

describe('the organization screens in Chromium: billing, mail settings, branding', { timeout: 300_000 }, () => {
  it('billing: the current package and credits; switching to Business after confirming', async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, '/organization/billing');
      await page.getByRole('heading', { level: 3, name: 'Your package: Starter' }).waitFor();
      await page.getByRole('button', { name: 'Switch to Business' }).waitFor();
      await expectNoAxeViolations(page, 'billing');
      await screenshot(page, 'organization-10-billing');
      await page.getByRole('button', { name: 'Switch to Business' }).click();
      const dialog = page.getByRole('dialog', { name: 'Switch to Business?' });
      await expectNoAxeViolations(page, 'switch package dialog');
      await dialog.getByRole('button', { name: 'Switch to this package' }).click();
      await status(page, 'Your organization is now on Business.');
      await page.getByRole('heading', { level: 3, name: 'Your package: Business' }).waitFor();
      const billing = await t.request('GET', '/organization/v1/billing', { token: owner.token });
      expect(billing.body).toMatchObject({ package: { name: 'Business' }, credits: 1000 });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("mail settings: the SMTP form, a test failing at AUTH, a test reaching the SMTP peer, saved; the delivery log shows the organization's mail", async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, '/organization/mail');
      await page.getByText("Now: the platform sends your organization's mail.").waitFor();
      // The delivery route rule (RUNTIME.md round three): mail that proves who someone is never takes the organization's route.
      await page.getByText(/Mail that proves who someone is always goes through the platform's mail/).waitFor();
      await page.getByRole('radio', { name: 'Our own mail provider' }).check();
      await page.getByRole('radio', { name: 'SMTP server' }).check();
      await page.getByRole('textbox', { name: 'Server host name' }).fill('127.0.0.1');
      await page.getByRole('textbox', { name: 'Port' }).fill(String(peer.port));
      await page.getByLabel('Encryption').selectOption('NONE');
      await page.getByRole('textbox', { name: 'User name' }).fill('acme-mailer');
      await page.getByLabel(/^Password/).fill('wrong password');
      await page.getByRole('textbox', { name: 'Sender address' }).fill('contracts@acme.example');
      await page.getByRole('textbox', { name: 'Send a test mail to' }).fill('ops@acme.example');
      await expectNoAxeViolations(page, 'SMTP form');
      await page.getByRole('button', { name: 'Send test mail' }).click();
      await expect
        .poll(() => page.getByRole('alert').allTextContents(), { timeout: 30_000 })
        .toContainEqual(expect.stringContaining('The test failed: the provider refused the credentials.'));
      await expectNoAxeViolations(page, 'SMTP test failed');
      await screenshot(page, 'organization-11-mail-test-failed');

      await page.getByLabel(/^Password/).fill('right password');
      await page.getByRole('button', { name: 'Send test mail' }).click();
      await status(page, /The test mail was accepted/);
      expect(peer.received.filter((m) => m.to.includes('ops@acme.example') && m.user === 'acme-mailer')).toHaveLength(
        1,
      );

      // The other providers have their own forms.
      await page.getByRole('radio', { name: 'Amazon SES (API v2)' }).check();
      await page.getByRole('textbox', { name: 'Access key ID' }).waitFor();
      await page.getByRole('textbox', { name: 'Region' }).waitFor();
      await page.getByRole('radio', { name: 'Microsoft 365 (Graph, OAuth 2.0)' }).check();
      await page.getByRole('textbox', { name: 'Tenant ID' }).waitFor();
      await page.getByRole('radio', { name: 'SendGrid (Web API v3)' }).check();
      await page.getByRole('button', { name: 'Save mail settings' }).click();
      // SendGrid without its API key: the API names the missing key, shown on that field.
      await expect.poll(() => page.getByText('EMAIL_API needs API_KEY, EMAIL_FROM').count()).toBeGreaterThan(0);
      await expectNoAxeViolations(page, 'missing keys');

      await page.getByRole('radio', { name: 'SMTP server' }).check();
      await page.getByRole('button', { name: 'Save mail settings' }).click();
      await status(page, "Saved: your organization's mail now goes through SMTP server.");
      const saved = await t.request('GET', '/organization/v1/email-settings', { token: owner.token });
      expect(saved.body).toMatchObject({
        emailMode: 'ORG_MANAGED',
        provider: 'SMTP',
        configurations: { SMTP_SERVER: '127.0.0.1', PASSWORD: '********' },
      });

      // Mail of the organization now goes through its own server, and the log says so.
      await sendEnvelope(t, owner, {
        title: 'Routed agreement',
        recipients: [
          { name: 'Rita Routed', email: 'rita@example.com', fields: [{ fieldType: 'SIGNATURE', label: 'Signature' }] },
        ],
      });
      await t.drainJobs();
      await expect
        .poll(() => peer.received.some((m) => m.to.includes('rita@example.com')), { timeout: 20_000 })
        .toBe(true);
      await page.getByRole('button', { name: 'Refresh' }).click();
      const row = page.getByRole('row', { name: /rita@example\.com/ });
      await row.waitFor();
      await expect.poll(() => row.textContent()).toContain('Sent');
      // Reloaded, the secret reads masked: the field is empty and says it must be typed again.
      await page.reload();
      await page.getByText('A value is saved, but it is never shown back.').first().waitFor();
      await expectNoAxeViolations(page, 'mail settings saved with delivery log');
      await page.getByRole('heading', { name: 'Delivery log' }).scrollIntoViewIfNeeded();
      await screenshot(page, 'organization-12-mail-log');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('branding: colour, sender name and logo previewed live, saved, then the signing page shows them', async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, '/organization/branding');
      await page.getByText("Your organization uses the platform's look.").waitFor();
      const signingPreview = page.getByTestId('signing-preview');
      const mailPreview = page.getByTestId('mail-preview');
      const barColour = () =>
        signingPreview
          .locator('.brand-bar')
          .evaluate((e: any) => e.ownerDocument.defaultView.getComputedStyle(e).backgroundColor);
      expect(await barColour()).toBe('rgb(29, 78, 216)');

      await page.getByRole('textbox', { name: 'Brand colour', exact: true }).fill('#0F766E');
      await expect.poll(barColour).toBe('rgb(15, 118, 110)');
      expect(
        await mailPreview.evaluate((e: any) => e.ownerDocument.defaultView.getComputedStyle(e).borderTopColor),
      ).toBe('rgb(15, 118, 110)');
      await page.getByRole('textbox', { name: 'Sender name' }).fill('Acme Legal');
      await signingPreview.getByText('From Acme Legal').waitFor();
      await mailPreview.getByText('Acme Legal').waitFor();
      // A file that is not PNG or JPEG is refused before upload.
      await page.getByLabel('Logo').setInputFiles({
        name: 'logo.svg',
        mimeType: 'image/svg+xml',
        buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      });
      await page.getByText('Choose a PNG or JPEG image.').waitFor();
      await page
        .getByLabel('Logo')
        .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: pngImage(200, 80) });
      await signingPreview.getByRole('img', { name: 'Acme Legal logo' }).waitFor();
      await mailPreview.getByRole('img', { name: 'Acme Legal' }).waitFor();
      // An invalid colour is said next to the field and the preview keeps the last valid look.
      await page.getByRole('textbox', { name: 'Brand colour', exact: true }).fill('#0F766');
      await page.getByText('Write the colour as # and six hexadecimal digits').waitFor();
      await page.getByRole('textbox', { name: 'Brand colour', exact: true }).fill('#0F766E');
      await expectNoAxeViolations(page, 'branding preview');
      await screenshot(page, 'organization-13-branding-preview');
      await page.setViewportSize({ width: 800, height: 1000 });
      await expectNoAxeViolations(page, 'branding preview, tablet');
      await screenshot(page, 'organization-13-branding-preview-800');
      await page.setViewportSize({ width: 1280, height: 900 });

      await page.getByRole('button', { name: 'Save branding' }).click();
      await status(page, 'Branding saved. New mail and signing pages use it.');
      const saved = await t.request('GET', '/organization/v1/branding', { token: owner.token });
      expect(saved.body).toMatchObject({
        primaryColor: '#0f766e',
        senderName: 'Acme Legal',
        logoUrl: expect.stringMatching(/^\/branding\/v1\/logos\/[0-9a-f]{64}$/),
      });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }

    const email = 'bea.branded@example.com';
    await sendEnvelope(t, owner, {
      title: 'Branded agreement',
      recipients: [{ name: 'Bea Branded', email, fields: [{ fieldType: 'SIGNATURE', label: 'Signature' }] }],
    });
    const signer = await openPage(browser, DESKTOP);
    try {
      await signer.page.goto(await mailedLink(t, email));
      // The page's "opening" frame shows the banner too and is replaced once the envelope is read: wait for the
      // envelope's heading so the banner read below is the ceremony's (a detached one reads as '' — CI saw it).
      await signer.page.getByRole('heading', { level: 1, name: 'Branded agreement' }).waitFor();
      const banner = signer.page.getByRole('banner');
      await banner.getByRole('img', { name: 'Acme Legal logo' }).waitFor();
      await banner.getByText('From Acme Legal').waitFor();
      await expect
        .poll(() => banner.evaluate((e: any) => e.ownerDocument.defaultView.getComputedStyle(e).backgroundColor))
        .toBe('rgb(15, 118, 110)');
      await screenshot(signer.page, 'organization-14-signing-page-branded');
      expect(signer.problems).toEqual([]);
    } finally {
      await signer.close();
    }
  });
});
