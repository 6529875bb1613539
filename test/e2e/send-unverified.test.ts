import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { signIn, signUp } from '../helpers/auth.ts';
import { addField, addRecipients, fieldEntry, recipientEntry } from '../helpers/recipients.ts';
import { uploadFile } from '../helpers/documents.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { DESKTOP, PHONE, expectNoAxeViolations, launchBrowser, openPage, screenshot, startService } from './browser.ts';
import { signInInBrowser } from './editor-helpers.ts';

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

/** A fresh account (its address not verified) with a DRAFT ready to send: one signer with a signature field. */
async function unverifiedWithDraft(name: string) {
  const account = await signUp(t, { name });
  const { accessToken } = await signIn(t, account.email, account.password);
  const upload = await uploadFile(t, accessToken, 'Offer.pdf', await makePdf(1));
  expect(upload.status, upload.raw).toBe(201);
  const [row] = await addRecipients(t, accessToken, upload.body.workflowId, [
    recipientEntry({ name: 'Rita Recipient' }),
  ]);
  await addField(t, accessToken, upload.body.id, fieldEntry(row.id, { fieldType: 'SIGNATURE' }));
  return { account, workflowId: upload.body.workflowId as number };
}

describe('an unverified sender is told to verify before sending', () => {
  for (const [label, device] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`the send step says "Verify your address to send", keeps Send off, mails a new link, and sends once verified (${label})`, async () => {
      const { account, workflowId } = await unverifiedWithDraft(label === 'phone' ? 'Pia Phone' : 'Dora Desk');
      const { page, problems, close } = await openPage(browser, device);
      try {
        await signInInBrowser(page, baseUrl, account, `/envelopes/${workflowId}/edit?step=send`);
        await page.getByRole('heading', { name: 'Review and send' }).waitFor();
        const notice = page.getByRole('region', { name: 'Verify your address to send' });
        await notice.waitFor();
        await expect.poll(() => page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
        await notice.scrollIntoViewIfNeeded();
        await expectNoAxeViolations(page, `send step, unverified (${label})`);
        await screenshot(page, `send-unverified-01-notice-${label}`);

        await notice.getByRole('button', { name: 'Send me a new link' }).click();
        await notice
          .getByRole('status')
          .filter({ hasText: `A new link is on its way to ${account.email.toLowerCase()}` })
          .waitFor();
        await screenshot(page, `send-unverified-02-resent-${label}`);

        // The newest link confirms the address; back on the page, Send works.
        const mails = await t.mails({ to: account.email, kind: 'EMAIL_VERIFICATION' });
        const code = /\/verify-email\/([A-Za-z0-9_-]+)/.exec(mails.at(-1)!.textBody)![1];
        expect((await t.request('POST', '/auth/v1/verify-email', { body: { code } })).status).toBe(200);
        await page.reload();
        await page.getByRole('heading', { name: 'Review and send' }).waitFor();
        await expect.poll(() => page.getByRole('button', { name: 'Send', exact: true }).isEnabled()).toBe(true);
        expect(await page.getByRole('region', { name: 'Verify your address to send' }).count()).toBe(0);
        await page.getByRole('button', { name: 'Send', exact: true }).click();
        await page.waitForURL(`${baseUrl}/envelopes/${workflowId}`);
        expect((await t.mails({ kind: 'COMMENCE' })).some((m) => m.workflowId === workflowId)).toBe(true);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  }
});
