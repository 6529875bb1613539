/**
 * A file name longer than 50 characters becomes an envelope name cut at a word with "…", and the editor tells the
 * sender so beside the name (which recipients see in their mail's subject); renaming it ends the notice. Desktop and
 * phone, in English and (chosen in the browser) in German.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { workflowRow } from '../helpers/ceremony.ts';
import {
  DESKTOP,
  PHONE,
  contractPdf,
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  screenshot,
  startService,
} from './browser.ts';
import { chooseFiles, signInInBrowser, workflowIdOf } from './editor-helpers.ts';

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let owner: TestUser;

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  owner = await createUser(t, { name: 'Lorna Longname' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const LONG = 'Master services agreement between Acme Holdings Incorporated and Globex Corporation 2026.pdf';

const SCREENS: [string, BrowserContextOptions, string, RegExp][] = [
  ['desktop', DESKTOP, 'Envelope name', /^This name comes from a file name longer than 50 characters/],
  ['phone', PHONE, 'Name des Umschlags', /^Dieser Name stammt aus einem Dateinamen mit mehr als 50 Zeichen/],
];

describe('the envelope editor, a long file name', () => {
  for (const [screen, options, label, notice] of SCREENS) {
    it(`on ${screen}: the name is cut at a word with "…" and the sender is told, until it is renamed`, {
      timeout: 120_000,
    }, async () => {
      const { page, problems, close } = await openPage(browser, options);
      try {
        await signInInBrowser(page, baseUrl, owner, '/envelopes/new');
        if (label !== 'Envelope name') {
          // German, as the Language menu would leave it (the sign-in helper speaks English).
          await page.evaluate("localStorage.setItem('language', 'de')");
          await page.reload();
        }
        const choose = page.getByRole('button', { name: /Choose files|Dateien auswählen/ });
        await chooseFiles(page, choose, [
          { name: LONG, mimeType: 'application/pdf', buffer: Buffer.from(await contractPdf(1)) },
        ]);
        await page.waitForURL(/\/envelopes\/\d+\/edit/);
        const name = page.getByRole('textbox', { name: label });
        await expect.poll(() => name.inputValue()).toBe('Master services agreement between Acme Holdings…');
        const status = page.getByRole('status').filter({ hasText: notice });
        await status.waitFor();
        // The notice describes the input, so a screen reader says it with the name.
        expect(await name.getAttribute('aria-describedby')).toContain(await status.getAttribute('id'));
        await screenshot(page, `editor-long-name-${screen}`);
        await expectNoAxeViolations(page, `long file name (${screen})`);

        await name.fill('Acme and Globex services agreement');
        await name.press('Enter');
        await expect.poll(() => status.count()).toBe(0);
        const workflowId = workflowIdOf(page);
        await expect
          .poll(async () => (await workflowRow(t, workflowId)).name)
          .toBe('Acme and Globex services agreement');
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  }
});
