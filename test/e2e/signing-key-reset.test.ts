import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import { pngDataUrl, tokenFromMail, waitForSeal, workflowRow } from '../helpers/ceremony.ts';
import {
  DESKTOP,
  PHONE,
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

beforeAll(async () => {
  ({ t } = await startService());
  owner = await sender(t);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** An envelope to `email` whose one field is a DIGITAL_SIGNATURE made with the recipient's platform-certified key. */
function certifiedEnvelope(email: string, title: string) {
  return sendEnvelope(t, owner, {
    title,
    recipients: [
      {
        name: 'Kim Keyless',
        email,
        useDigitalCert: true,
        fields: [{ fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true, label: 'Certified signature' }],
      },
    ],
  });
}

describe('the signing page: a new signing key through a mailed code', () => {
  for (const [label, device] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`a forgotten signing password: "Forgot your signing password?", the mailed code and a new password make a new key, which signs (${label})`, async () => {
      const email = `kim-${label}-${Date.now()}@example.com`;
      // Her first signature made the key, with a password she has since forgotten.
      const first = await certifiedEnvelope(email, 'First certified signature');
      const guest = await tokenFromMail(t, email);
      const documentId = (await t.request('GET', `/document/v1/docs-detail/${first.workflowId}`, { token: guest }))
        .body[0].id;
      const signed = await t.request('POST', `/workflow/v1/${documentId}/fields/save`, {
        token: guest,
        body: [
          {
            id: first.fieldIds[0]['Certified signature'],
            type: 'DIGITAL_SIGNATURE',
            value: pngDataUrl(120, 40, 2),
            password: 'the forgotten one',
          },
        ],
      });
      expect(signed.status, signed.raw).toBe(200);

      const second = await certifiedEnvelope(email, 'Second certified signature');
      const link = await mailedLink(t, email);
      const { page, problems, close } = await openPage(browser, device);
      try {
        await page.goto(link);
        await page.getByRole('button', { name: 'I agree, continue' }).click();
        await page.getByRole('button', { name: 'Go to the first field' }).click();
        await page.getByRole('radio', { name: 'Type' }).check();
        await page.getByRole('button', { name: 'Use this signature' }).click();
        await page.getByLabel('Enter your signing password').waitFor();

        await page.getByRole('button', { name: 'Forgot your signing password?' }).click();
        const reset = page.getByRole('region', { name: 'Forgot your signing password?' });
        await reset.getByRole('button', { name: 'Mail me a code' }).click();
        await reset.getByRole('status').filter({ hasText: 'We mailed you a code' }).waitFor();
        const [mail] = await t.mails({ to: email, kind: 'SIGNING_KEY_RESET' });
        expect(mail.viaPlatform).toBe(true);
        const code = /code for a new signing key is (\d{6})/.exec(mail.textBody)![1];

        await reset.getByLabel('Code from the mail').fill(code);
        await reset.getByLabel('New signing password', { exact: true }).fill('kim remembers this');
        await reset.getByLabel('Confirm the new signing password').fill('kim remembers this');
        await expectNoAxeViolations(page, `signing key reset (${label})`);
        await screenshot(page, `signing-key-reset-01-form-${label}`);
        await reset.getByRole('button', { name: 'Create a new signing key' }).click();
        await reset
          .getByRole('status')
          .filter({ hasText: 'Your new signing key is ready' })
          .waitFor({ timeout: 30_000 });
        await screenshot(page, `signing-key-reset-02-done-${label}`);

        await page.getByLabel('Enter your signing password').fill('kim remembers this');
        await page.getByRole('button', { name: 'Next field' }).click();
        await page.getByRole('button', { name: 'Finish and sign' }).click();
        await page.getByRole('heading', { name: 'You have signed' }).waitFor({ timeout: 30_000 });
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
      expect((await workflowRow(t, second.workflowId)).status).toBe('COMPLETED');
      expect((await waitForSeal(t, second.workflowId)).sealStatus).toBe('SEALED');
    }, 180_000);
  }
});
