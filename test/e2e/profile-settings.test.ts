import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { freePort } from '../helpers/free-port.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser } from '../helpers/factories.ts';
import { pngBytes } from '../helpers/ceremony.ts';
import { users } from '../../src/platform/db/schema/index.ts';
import { DESKTOP, drawOn, expectNoAxeViolations, launchBrowser, openPage, screenshot, tabTo } from './browser.ts';
import { signInThrough } from './workspace-kit.ts';

let t: TestApp;
let baseUrl: string;
let browser: Browser;

beforeAll(async () => {
  // Passkeys need a secure context whose host is a domain: http://localhost is one, and PUBLIC_URL and the RP id name it.
  const port = await freePort();
  baseUrl = `http://localhost:${port}`;
  t = await createTestApp({ publicUrl: baseUrl, webauthnRpId: 'localhost' });
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await launchBrowser();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const TABLET = { viewport: { width: 800, height: 1000 } };

async function status(page: Page, text: string | RegExp) {
  await expect
    .poll(() => page.getByRole('status').allTextContents(), { timeout: 15_000 })
    .toContainEqual(expect.stringMatching(text));
}

describe('the profile in Chromium', { timeout: 300_000 }, () => {
  it('account: language and mail notifications saved; axe-clean at 1280 px and at tablet width', async () => {
    const user = await createUser(t, { name: 'Petra Profile' });
    for (const options of [DESKTOP, TABLET]) {
      const { page, problems, close } = await openPage(browser, options);
      try {
        await signInThrough(page, baseUrl, user, '/profile');
        await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
        await page.getByText(user.email).waitFor();
        await expectNoAxeViolations(page, `profile account ${options.viewport?.width}`);
        await screenshot(page, `profile-01-account-${options.viewport?.width}`);
        if (options === DESKTOP) {
          await page.getByLabel('Preferred language').selectOption('de');
          await page.getByRole('button', { name: 'Save language' }).click();
          await status(page, /Preferred language saved: Deutsch/);
          await page.getByLabel('a recipient opens an envelope I sent').uncheck();
          await page.getByRole('button', { name: 'Save notifications' }).click();
          await status(page, 'Notification settings saved.');
          expect((await t.request('GET', '/user/v1/settings/locale', { token: user.token })).body).toEqual({
            locale: 'de',
          });
          expect((await t.request('GET', '/user/v1/settings/notifications', { token: user.token })).body).toMatchObject(
            { documentOpened: false, workflowCompleted: true },
          );
        }
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }
  });

  it("two-factor sign-in: QR code and key shown, a wrong code refused with the API's message, a computed TOTP turns it on, sign-in then asks for a code", async () => {
    const user = await createUser(t, { name: 'Tom Totp' });
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, user, '/profile/security');
      await page.getByRole('heading', { level: 2, name: 'Two-factor sign-in' }).waitFor();
      await expectNoAxeViolations(page, 'security');
      // Keyboard: the setup button is reachable by Tab and starts the enrolment with Enter.
      const start = page.getByRole('button', { name: 'Set up two-factor sign-in' });
      await tabTo(page, start);
      await page.keyboard.press('Enter');
      const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
      await qr.waitFor();
      expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
      const key = (await page.getByTestId('totp-secret').textContent())!.trim();
      expect(key).toMatch(/^[A-Z2-7]{16,}$/);
      await expectNoAxeViolations(page, 'two-factor enrolment');
      await screenshot(page, 'profile-02-totp-enrol');

      await page.getByLabel('Code from the app').fill('12345');
      await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
      await page.getByText('Enter the 6 digits the app shows.').waitFor();
      const totp = new TOTP({ secret: Secret.fromBase32(key) });
      const wrong = String((Number(totp.generate()) + 1) % 1_000_000).padStart(6, '0');
      await page.getByLabel('Code from the app').fill(wrong);
      await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
      await expect
        .poll(() => page.getByRole('alert').allTextContents())
        .toContainEqual(expect.stringMatching(/code|TOTP/i));
      await expectNoAxeViolations(page, 'two-factor wrong code');

      await page.getByLabel('Code from the app').fill(totp.generate());
      await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
      await status(page, /Two-factor sign-in is on/);
      await page.getByRole('heading', { name: 'Turn off two-factor sign-in' }).waitFor();
      const [row] = await t.platform.db.select().from(users).where(eq(users.id, user.userId));
      expect(row.twoFactorEnabled).toBe(true);
      await screenshot(page, 'profile-03-totp-on');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
    // A fresh browser signing in is now asked for the code.
    const again = await openPage(browser, DESKTOP);
    try {
      await again.page.goto(`${baseUrl}/profile`);
      await again.page.waitForURL(/\/signin\?state=/);
      await again.page.getByLabel('Email').fill(user.email);
      await again.page.getByLabel('Password').fill(user.password);
      await again.page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await again.page.getByRole('heading', { level: 1, name: 'Two-factor authentication' }).waitFor();
    } finally {
      await again.close();
    }
  });

  it('passkeys: registered through the virtual authenticator, listed, deleted', async () => {
    const user = await createUser(t, { name: 'Pia Passkey' });
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
      await signInThrough(page, baseUrl, user, '/profile/security');
      await page.getByRole('heading', { level: 2, name: 'Passkeys' }).waitFor();
      await page.getByText('No passkeys yet.').waitFor();
      await page.getByLabel('Name of the new passkey').fill('Work laptop');
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await status(page, 'Passkey “Work laptop” added.');
      await page.getByRole('rowheader', { name: 'Work laptop' }).waitFor();
      expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);
      const listed = await t.request('GET', '/user/v1/settings/passkeys', { token: user.token });
      expect(listed.body).toEqual([expect.objectContaining({ name: 'Work laptop' })]);
      await expectNoAxeViolations(page, 'passkey listed');
      await screenshot(page, 'profile-04-passkey');

      await page.getByRole('button', { name: 'Delete passkey Work laptop' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete the passkey “Work laptop”?' });
      await dialog.waitFor();
      await expectNoAxeViolations(page, 'delete passkey dialog');
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await status(page, 'Passkey “Work laptop” deleted.');
      await page.getByText('No passkeys yet.').waitFor();
      expect((await t.request('GET', '/user/v1/settings/passkeys', { token: user.token })).body).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await cdp.detach().catch(() => {});
      await close();
    }
  });

  it('signature library: a drawn signature, typed initials and an uploaded stamp; a default changed; one deleted', async () => {
    const user = await createUser(t, { name: 'Sally Signer' });
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, user, '/profile/signatures');
      await page.getByRole('heading', { level: 2, name: 'Signature library' }).waitFor();
      await expectNoAxeViolations(page, 'empty library');

      // Saving without drawing says so next to the drawing area.
      await page.getByRole('button', { name: 'Save to the library' }).click();
      await page.getByText('Draw something first, or choose Type.').waitFor();
      await drawOn(page, /Drawing area for your signature/);
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Full signature');
      await page.getByRole('button', { name: 'Save to the library' }).click();
      await status(page, 'Signature “Full signature” saved.');
      await page.getByRole('img', { name: 'Signature “Full signature”' }).waitFor();

      await drawOn(page, /Drawing area for your signature/);
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Quick signature');
      await page.getByRole('button', { name: 'Save to the library' }).click();
      await status(page, 'Signature “Quick signature” saved.');

      await page.getByLabel('Kind').selectOption('INITIALS');
      await page.getByRole('radio', { name: 'Type' }).check();
      expect(await page.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe('SS');
      await page.getByLabel('Font').selectOption('LIBERATION_SANS_ITALIC');
      await page.getByRole('button', { name: 'Save to the library' }).click();
      await status(page, 'Initials “SS” saved.');

      await page.getByLabel('Kind').selectOption('STAMP');
      await page.getByRole('radio', { name: 'Upload an image' }).check();
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Company stamp');
      await page
        .getByLabel('Image file')
        .setInputFiles({ name: 'stamp.png', mimeType: 'image/png', buffer: pngBytes(120, 60, 7) });
      await page.getByRole('img', { name: 'The chosen image' }).waitFor();
      await page.getByRole('button', { name: 'Save to the library' }).click();
      await status(page, 'Stamp “Company stamp” saved.');

      await page.getByRole('button', { name: 'Make “Quick signature” the default' }).click();
      await status(page, '“Quick signature” is now the default.');
      await page.getByRole('button', { name: 'Delete “Full signature”' }).click();
      await page
        .getByRole('dialog', { name: 'Delete “Full signature”?' })
        .getByRole('button', { name: 'Delete' })
        .click();
      await status(page, '“Full signature” deleted.');

      const library = (await t.request('GET', '/user/v1/settings/signatures/library', { token: user.token }))
        .body as any[];
      expect(library.map((e) => [e.kind, e.name, e.captureMode, e.isDefault]).sort()).toEqual([
        ['INITIALS', 'SS', 'TYPE', true],
        ['SIGNATURE', 'Quick signature', 'DRAW', true],
        ['STAMP', 'Company stamp', 'UPLOAD', true],
      ]);
      await expectNoAxeViolations(page, 'library with entries');
      await screenshot(page, 'profile-05-library');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
