import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { signerKeys } from '../../src/platform/db/schema/index.ts';
import { readSignatures } from '../../src/platform/pdf/read-signatures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { documentRows, fieldRow, pngDataUrl, recipientRow, waitForSeal, workflowRow } from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';
import {
  DESKTOP,
  PHONE,
  drawOn,
  expectNoAxeViolations,
  launchBrowser,
  mailedLink,
  openPage,
  screenshot,
  sender,
  sendEnvelope,
  startService,
} from './browser.ts';
import { signInThrough } from './workspace-kit.ts';

let t: TestApp;
let baseUrl: string;
let owner: TestUser;
let browser: Browser;
let dana: TestUser;

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  owner = await sender(t);
  dana = await createUser(t, { name: 'Dana Digital', email: 'dana.digital@example.com' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const PASSWORD = 'dana signs safely';

// Waits for the service's answers are generous: the machine these run on is often busy (argon2id, PDF signing).

async function sealedReport(workflowId: number) {
  expect((await waitForSeal(t, workflowId)).sealStatus).toBe('SEALED');
  const [doc] = await documentRows(t, workflowId);
  const bytes = await t.platform.blobs.get(doc.sealedBlobKey!);
  return { bytes, report: await pdfsig(bytes) };
}

describe('the signing page: DIGITAL_SIGNATURE with a personal certificate, and the signature library', () => {
  it('a signed-in recipient creates a signing password, signs, and uses a saved signature: pdfsig finds her signature and the seal valid', async () => {
    const saved = await t.request('POST', '/user/v1/settings/signatures/library', {
      token: dana.token,
      body: { kind: 'SIGNATURE', name: 'Everyday', captureMode: 'DRAW', image: pngDataUrl(120, 40, 5) },
    });
    expect(saved.status, saved.raw).toBe(200);
    const env = await sendEnvelope(t, owner, {
      title: 'Certified signature please',
      recipients: [
        {
          name: 'Dana Digital',
          email: dana.email,
          useDigitalCert: true,
          fields: [
            { fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true, label: 'Certified signature' },
            { fieldType: 'SIGNATURE', label: 'Signature' },
          ],
        },
      ],
    });
    const ids = env.fieldIds[0];
    const link = await mailedLink(t, dana.email);
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      // Signed in to the service in this browser already (the web session), as the recipient.
      await signInThrough(page, baseUrl, dana, '/');
      await page.goto(link);
      await page.getByRole('button', { name: 'I agree, continue' }).click();
      await page.getByRole('button', { name: 'Go to the first field' }).click();

      // The certificate signature: the visible signature, then a new signing password, typed twice.
      await page.getByRole('img', { name: /Drawing area for your signature/ }).waitFor();
      await drawOn(page, /Drawing area for your signature/);
      await page.getByRole('button', { name: 'Use this signature' }).click();
      const create = page.getByLabel('Create a signing password');
      await create.waitFor();
      await expect
        .poll(
          () => page.getByText('The password creates your signing key and protects it', { exact: false }).isVisible(),
          { timeout: 20_000 },
        )
        .toBe(true);
      await create.fill('short');
      await page.getByLabel('Confirm the signing password').fill('short');
      await page.getByRole('button', { name: 'Next field' }).click();
      await expect
        .poll(() => page.getByRole('alert').filter({ hasText: 'Use at least 8 characters.' }).isVisible(), {
          timeout: 20_000,
        })
        .toBe(true);
      await create.fill(PASSWORD);
      await page.getByLabel('Confirm the signing password').fill(`${PASSWORD}!`);
      await page.getByRole('button', { name: 'Next field' }).click();
      await expect
        .poll(() => page.getByRole('alert').filter({ hasText: 'The two passwords are not the same.' }).isVisible(), {
          timeout: 20_000,
        })
        .toBe(true);
      await screenshot(page, '40-signing-password-create');
      await expectNoAxeViolations(page, 'signing password, create, mismatch');
      await page.getByLabel('Confirm the signing password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Next field' }).click();

      // The plain signature: chosen from her saved signatures.
      await page.getByRole('heading', { name: 'Your saved signatures' }).waitFor();
      await screenshot(page, '41-signature-library');
      await expectNoAxeViolations(page, 'signature library');
      await page.getByRole('button', { name: 'Use “Everyday”' }).click();

      expect(await t.platform.db.select().from(signerKeys).where(eq(signerKeys.email, dana.email))).toHaveLength(0);
      await page.getByRole('button', { name: 'Finish and sign' }).click();
      await page.getByRole('heading', { name: 'You have signed' }).waitFor({ timeout: 30_000 });
      await screenshot(page, '42-signed-with-certificate');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
    expect((await recipientRow(t, env.rows[0].id)).status).toBe('SIGNED');
    expect((await workflowRow(t, env.workflowId)).status).toBe('COMPLETED');
    expect((await fieldRow(t, ids.Signature)).signatureAssetId).toBe(saved.body.id);
    const [key] = await t.platform.db.select().from(signerKeys).where(eq(signerKeys.email, dana.email));
    expect(key).toBeDefined();

    const { bytes, report } = await sealedReport(env.workflowId);
    expect(report.signatures, report.output).toBe(2);
    expect(report.allValid, report.output).toBe(true);
    expect(report.output).toMatch(/Signer Certificate Common Name: Dana Digital/);
    const [mine, seal] = await readSignatures(bytes);
    expect(mine.byteRange[2] + mine.byteRange[3]).toBeLessThan(bytes.length);
    expect(seal.byteRange[2] + seal.byteRange[3]).toBe(bytes.length);
  }, 180_000);

  it('later, on a phone, not signed in: the same password is asked for; a wrong one is announced at the field and appends nothing', async () => {
    const env = await sendEnvelope(t, owner, {
      title: 'Second certified signature',
      recipients: [
        {
          name: 'Dana Digital',
          email: dana.email,
          useDigitalCert: true,
          fields: [{ fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true, label: 'Certified signature' }],
        },
      ],
    });
    const link = await mailedLink(t, dana.email);
    const { page, problems, close } = await openPage(browser, PHONE);
    try {
      await page.goto(link);
      await page.getByRole('button', { name: 'I agree, continue' }).click();
      await page.getByRole('button', { name: 'Go to the first field' }).click();
      await page.getByRole('radio', { name: 'Type' }).check();
      expect(await page.getByRole('textbox', { name: 'Type your signature' }).inputValue()).toBe('Dana Digital');
      await page.getByRole('button', { name: 'Use this signature' }).click();
      const enter = page.getByLabel('Enter your signing password');
      await enter.waitFor();
      expect(await page.getByLabel('Confirm the signing password').count()).toBe(0);
      await enter.fill('not the password');
      await page.getByRole('button', { name: 'Next field' }).click();
      await page.getByRole('button', { name: 'Finish and sign' }).click();
      // Announced (an alert) and shown at the password field, which the guide returns to, emptied.
      await expect
        .poll(
          () => page.getByRole('alert').filter({ hasText: 'The signing password is wrong. 9 attempts left.' }).count(),
          { timeout: 20_000 },
        )
        .toBeGreaterThan(0);
      await expect.poll(() => enter.isVisible(), { timeout: 20_000 }).toBe(true);
      expect(await enter.inputValue()).toBe('');
      expect(await enter.getAttribute('aria-invalid')).toBe('true');
      await screenshot(page, '43-signing-password-wrong');
      await expectNoAxeViolations(page, 'signing password, wrong');
      const [doc] = await documentRows(t, env.workflowId);
      expect((await fieldRow(t, env.fieldIds[0]['Certified signature'])).value).toBeNull();
      expect(doc.sealedBlobKey).toBeNull();

      await enter.fill(PASSWORD);
      await page.getByRole('button', { name: 'Next field' }).click();
      await page.getByRole('button', { name: 'Finish and sign' }).click();
      await page.getByRole('heading', { name: 'You have signed' }).waitFor({ timeout: 30_000 });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
    const { report } = await sealedReport(env.workflowId);
    expect(report.signatures, report.output).toBe(2);
    expect(report.allValid, report.output).toBe(true);
  }, 180_000);
});
