import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import { recipientRow, waitForSeal } from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';
import { startCscServer, type CscTestServer } from '../helpers/csc-server.ts';
import { sealedBytes, signatureFieldNames, useEnterprisePlan } from '../remote-signing/helpers.ts';
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
let csc: CscTestServer;

beforeAll(async () => {
  csc = await startCscServer();
  ({ t } = await startService({
    outboundAllowPrivate: true,
    csc: { baseUrl: csc.url, clientId: csc.clientId, clientSecret: csc.clientSecret, timeoutMs: 5000 },
  }));
  owner = await sender(t);
  await useEnterprisePlan(t, owner);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await csc?.close();
});

describe('the signing page with a remote (CSC) signing provider', () => {
  it("a DIGITAL_SIGNATURE field signed at the provider's authorization page and back through /csc/callback: COMPLETED, sealed, pdfsig valid", async () => {
    const email = 'rita.remote@example.com';
    const env = await sendEnvelope(t, owner, {
      title: 'Qualified signature, please',
      recipients: [
        {
          name: 'Rita Remote',
          email,
          fields: [
            { fieldType: 'TEXT', fieldRequired: true, label: 'Company' },
            { fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true, label: 'Qualified signature' },
          ],
        },
      ],
    });
    await csc.addCredentials(email, 'Rita Remote', [
      { signatureQualifier: 'eu_eidas_qes', key: 'EC', description: 'Rita qualified certificate' },
    ]);
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await page.goto(await mailedLink(t, email));
      await page.getByRole('button', { name: 'I agree, continue' }).click();
      await page.getByRole('button', { name: 'Go to the first field' }).click();
      await page.getByRole('textbox', { name: 'Company (required)' }).fill('Remote Ltd');
      await page.getByRole('button', { name: 'Next field' }).click();

      // The signature field offers the provider, with the signer's certificate there.
      await page.getByRole('heading', { name: 'Remote signing' }).waitFor();
      const certificate = page.getByRole('combobox', { name: 'Certificate' });
      await certificate.waitFor();
      expect(await certificate.locator('option').allTextContents()).toEqual([
        'Rita qualified certificate, qualified electronic signature',
      ]);
      await page.getByRole('button', { name: 'Sign with your remote signing provider' }).scrollIntoViewIfNeeded();
      await screenshot(page, 'csc-01-remote-signing');
      await expectNoAxeViolations(page, 'remote signing offered');

      // Off to the provider (which approves at once) and back through /csc/callback.
      await page.getByRole('button', { name: 'Sign with your remote signing provider' }).click();
      await expect
        .poll(() => page.getByRole('heading', { name: 'Thank you, you have signed' }).isVisible(), { timeout: 30_000 })
        .toBe(true);
      expect(new URL(page.url()).pathname).toMatch(/^\/sign\//);
      expect(csc.requests).toContain('GET /oauth2/authorize');
      await screenshot(page, 'csc-02-signed');
      await expectNoAxeViolations(page, 'remote signature done');
      expect((await recipientRow(t, env.rows[0].id)).status).toBe('SIGNED');

      expect((await waitForSeal(t, env.workflowId)).sealStatus).toBe('SEALED');
      const report = await pdfsig(await sealedBytes(t, env.documentId));
      expect(report.allValid, report.output).toBe(true);
      expect(report.output).toContain('Signer Certificate Common Name: Rita Remote');
      expect(signatureFieldNames(report.output).at(-1)).toMatch(/^PlatformSeal/);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the provider refusing: the signer is told nothing was signed, and can try again', async () => {
    const email = 'rex.refused@example.com';
    const env = await sendEnvelope(t, owner, {
      title: 'Sign remotely',
      recipients: [
        {
          name: 'Rex Refused',
          email,
          fields: [{ fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true, label: 'Signature' }],
        },
      ],
    });
    await csc.addCredentials(email, 'Rex Refused', [
      { signatureQualifier: 'eu_eidas_aes', description: 'Rex advanced certificate' },
    ]);
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await page.goto(await mailedLink(t, email));
      await page.getByRole('button', { name: 'I agree, continue' }).click();
      await page.getByRole('button', { name: 'Go to the first field' }).click();
      csc.fail({ refuseAuthorization: true });
      await page.getByRole('button', { name: 'Sign with your remote signing provider' }).click();
      await expect
        .poll(() => page.getByRole('alert').filter({ hasText: 'did not authorize the signature' }).isVisible(), {
          timeout: 30_000,
        })
        .toBe(true);
      await screenshot(page, 'csc-03-refused');
      await expectNoAxeViolations(page, 'remote signature refused');
      expect((await recipientRow(t, env.rows[0].id)).status).not.toBe('SIGNED');

      csc.fail({});
      await page.getByRole('button', { name: 'Go to the first field' }).click();
      await page.getByRole('button', { name: 'Sign with your remote signing provider' }).click();
      await expect
        .poll(() => page.getByRole('heading', { name: 'Thank you, you have signed' }).isVisible(), { timeout: 30_000 })
        .toBe(true);
      expect((await recipientRow(t, env.rows[0].id)).status).toBe('SIGNED');
      expect(problems).toEqual([]);
    } finally {
      csc.fail({});
      await close();
    }
  });
});
