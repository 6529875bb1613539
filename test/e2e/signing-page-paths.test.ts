import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import { recipientRow, workflowRow } from '../helpers/ceremony.ts';
import { storedRecipients } from '../helpers/recipients.ts';
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
let baseUrl: string;
let owner: TestUser;
let browser: Browser;

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  owner = await sender(t);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe("the web app's files", () => {
  it('hashed assets with their types and a year of cache; nothing outside web/dist/assets; JSON callers of /sign keep JSON', async () => {
    const shell = await t.request('GET', '/csc/callback', { headers: { accept: 'text/html' } });
    const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(shell.raw)![1];
    const style = /href="(\/app\/assets\/[^"]+\.css)"/.exec(shell.raw)![1];
    const js = await t.request('GET', script);
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.request('GET', style)).headers['content-type']).toBe('text/css; charset=utf-8');
    for (const probe of [
      '/app/assets/..%2F..%2Fpackage.json',
      '/app/assets/%2E%2E%2Findex.html',
      '/app/assets/.hidden.js',
      '/app/assets/missing.js',
      '/app/assets/index.html',
      '/app/assets/..%5Cindex.js',
    ]) {
      expect((await t.request('GET', probe)).status, probe).toBe(404);
    }
    expect((await t.request('GET', '/sign/AAAA', { headers: { accept: 'application/json' } })).body.message).toBe(
      'LINK_EXPIRED',
    );
    // pdf.js's data files, from the installed pdfjs-dist, and nothing else of it.
    const font = await t.request('GET', '/app/pdfjs/standard_fonts/FoxitSymbol.pfb');
    expect(font.status).toBe(200);
    expect(font.headers['content-type']).toBe('application/octet-stream');
    for (const probe of [
      '/app/pdfjs/build/pdf.mjs',
      '/app/pdfjs/standard_fonts/..%2Fpackage.json',
      '/app/pdfjs/constructor/x.pfb',
      '/app/pdfjs/cmaps/LICENSE',
    ]) {
      expect((await t.request('GET', probe)).status, probe).toBe(404);
    }
  });
});

describe('the signing page: the ways out and the ways in', () => {
  it('a link that does not redeem shows what happened and what to do', async () => {
    const { page, problems, close } = await openPage(browser, PHONE);
    try {
      const response = await page.goto(`${baseUrl}/sign/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`);
      expect(response!.status()).toBe(400);
      expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
      await page.getByRole('heading', { name: 'This link no longer works' }).waitFor();
      await expect
        .poll(() => page.getByText('Ask the sender to send the document again.', { exact: false }).isVisible())
        .toBe(true);
      await screenshot(page, '20-expired-link');
      await expectNoAxeViolations(page, 'expired link');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a link of an envelope the sender voided says it was cancelled, on a phone', async () => {
    const email = 'vera.voided@example.com';
    const env = await sendEnvelope(t, owner, {
      title: 'Void me',
      recipients: [{ name: 'Vera Voided', email, fields: [{ fieldType: 'SIGNATURE', label: 'Signature' }] }],
    });
    const link = await mailedLink(t, email);
    const voided = await t.request('POST', `/workflow/v1/${env.workflowId}/void`, {
      token: owner.token,
      body: { reason: 'Replaced by a new version' },
    });
    expect(voided.status, voided.raw).toBe(200);
    const { page, problems, close } = await openPage(browser, PHONE);
    try {
      const response = await page.goto(link);
      expect(response!.status()).toBe(400);
      await page.getByRole('heading', { name: 'This document was cancelled' }).waitFor();
      await page.getByText('The sender cancelled this envelope', { exact: false }).waitFor();
      await screenshot(page, '20b-voided-link');
      await expectNoAxeViolations(page, 'voided link');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the CSC return address hands the code back to the signing page that sent the signer away', async () => {
    const email = 'carl.csc@example.com';
    await sendEnvelope(t, owner, {
      title: 'Remote signing return',
      recipients: [{ name: 'Carl Csc', email, fields: [{ fieldType: 'SIGNATURE', label: 'Signature' }] }],
    });
    const link = new URL(await mailedLink(t, email));
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      // Without a signing page waiting for it, the callback says where to go.
      const bare = await page.goto(`${baseUrl}/csc/callback?code=abc&state=xyz`);
      expect(bare!.headers()['content-security-policy']).toContain("default-src 'none'");
      await expect
        .poll(() => page.getByRole('status').textContent())
        .toBe('This page completes a remote signature. Go back to the document you were signing.');
      await expectNoAxeViolations(page, 'CSC callback without a session');
      // With one (what the signing page leaves before it sends the signer to the provider), it returns there with the code kept.
      await page.evaluate((returnTo) => sessionStorage.setItem('csc:return-to', returnTo), link.pathname);
      await page.goto(`${baseUrl}/csc/callback?code=the-code&state=the-state`);
      await page.waitForURL(link.toString());
      expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('csc:result')))!)).toEqual({
        code: 'the-code',
        state: 'the-state',
        error: null,
      });
      await page.getByRole('heading', { name: 'Remote signing return' }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('decline from the disclosure: a reason is required, then the workflow is VOID and the sender is told', async () => {
    const email = 'dana.decliner@example.com';
    const env = await sendEnvelope(t, owner, {
      title: 'Decline me',
      recipients: [{ name: 'Dana Decliner', email, fields: [{ fieldType: 'SIGNATURE', label: 'Signature' }] }],
    });
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await page.goto(await mailedLink(t, email));
      await page.getByRole('button', { name: 'I do not agree (decline)' }).click();
      const dialog = page.getByRole('dialog', { name: 'Decline to sign' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Decline' }).click();
      await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('Tell the sender why you decline.');
      await screenshot(page, '21-decline-dialog');
      await expectNoAxeViolations(page, 'decline dialog');
      await dialog
        .getByRole('textbox', { name: 'Reason (the sender will read it)' })
        .fill('The fee in Annex B is wrong.');
      await dialog.getByRole('button', { name: 'Decline' }).click();
      await page.getByRole('heading', { name: 'You declined' }).waitFor();
      await screenshot(page, '22-declined');
      await expectNoAxeViolations(page, 'declined');
      expect((await workflowRow(t, env.workflowId)).status).toBe('VOID');
      expect((await recipientRow(t, env.rows[0].id)).status).toBe('DECLINED');
      const declined = await t.mails({ to: owner.email, kind: 'DECLINED' });
      expect(declined.at(-1)!.textBody).toContain('The fee in Annex B is wrong.');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('delegate: the task goes to someone else, the old link stops, the delegate signs from their own mail', async () => {
    const email = 'del.first@example.com';
    const delegate = { name: 'Erin Expert', email: 'erin.expert@example.com' };
    const env = await sendEnvelope(t, owner, {
      title: 'Hand me over',
      recipients: [
        {
          name: 'Del First',
          email,
          fields: [
            { fieldType: 'TEXT', fieldRequired: true, label: 'Department' },
            { fieldType: 'SIGNATURE', label: 'Signature' },
          ],
        },
      ],
    });
    const firstLink = await mailedLink(t, email);
    const first = await openPage(browser, DESKTOP);
    try {
      const { page } = first;
      await page.goto(firstLink);
      await page.getByRole('button', { name: 'I agree, continue' }).click();
      await page.getByRole('button', { name: 'Ask someone else' }).click();
      const dialog = page.getByRole('dialog', { name: 'Hand this task to someone else' });
      await dialog.getByRole('textbox', { name: 'Their name' }).fill('Erin 2');
      await dialog.getByRole('textbox', { name: 'Their email' }).fill('not an email');
      await dialog.getByRole('button', { name: 'Hand over' }).click();
      await expect
        .poll(() => dialog.getByRole('alert').allTextContents())
        .toEqual([
          'Enter their name: 2 to 50 characters, letters (a hyphen or apostrophe between two), single spaces between words.',
          'Enter their email address.',
        ]);
      await screenshot(page, '23-delegate-dialog');
      await expectNoAxeViolations(page, 'delegate dialog with errors');
      await dialog.getByRole('textbox', { name: 'Their name' }).fill(delegate.name);
      await dialog.getByRole('textbox', { name: 'Their email' }).fill(delegate.email);
      await dialog.getByRole('button', { name: 'Hand over' }).click();
      await page.getByRole('heading', { name: 'Task handed over' }).waitFor();
      await expectNoAxeViolations(page, 'delegated');
      expect(first.problems).toEqual([]);
    } finally {
      await first.close();
    }
    expect((await recipientRow(t, env.rows[0].id)).status).toBe('DELEGATED');

    // The original link now explains itself.
    const again = await openPage(browser, DESKTOP);
    try {
      await again.page.goto(firstLink);
      await again.page.getByRole('heading', { name: 'This link no longer works' }).waitFor();
      expect(await again.page.getByText('handed to someone else', { exact: false }).count()).toBeGreaterThan(0);
    } finally {
      await again.close();
    }

    const second = await openPage(browser, DESKTOP);
    try {
      const { page } = second;
      await page.goto(await mailedLink(t, delegate.email));
      await page.getByRole('button', { name: 'I agree, continue' }).click();
      await page.getByRole('button', { name: 'Go to the first field' }).click();
      await page.getByRole('textbox', { name: 'Department (required)' }).fill('Legal');
      await page.getByRole('button', { name: 'Next field' }).click();
      await page.getByRole('radio', { name: 'Type' }).check();
      await page.getByRole('button', { name: 'Use this signature' }).click();
      await page.getByRole('button', { name: 'Finish and sign' }).click();
      await page.getByRole('heading', { name: 'Thank you, you have signed' }).waitFor();
      expect(second.problems).toEqual([]);
    } finally {
      await second.close();
    }
    expect((await workflowRow(t, env.workflowId)).status).toBe('COMPLETED');
    const rows = await storedRecipients(t, env.workflowId);
    expect(rows.map((r) => [r.name, r.status])).toEqual([
      ['Del First', 'DELEGATED'],
      ['Erin Expert', 'SIGNED'],
    ]);
  });

  it('a recipient password comes first; an approver approves with a comment', async () => {
    const approver = { name: 'Alex Approver', email: 'alex.approver@example.com' };
    const env = await sendEnvelope(t, owner, {
      title: 'Approve with a password',
      recipients: [{ ...approver, role: 'APPROVER', recipientPassword: 'open sesame 42' }],
    });
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await page.goto(await mailedLink(t, approver.email));
      await page.getByRole('heading', { name: 'This document is protected' }).waitFor();
      await page.getByLabel('Password').fill('wrong password');
      await page.getByRole('button', { name: 'Open the document' }).click();
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe('That password is not right. Check it and try again.');
      await screenshot(page, '24-password');
      await expectNoAxeViolations(page, 'password, wrong');
      await page.getByLabel('Password').fill('open sesame 42');
      await page.getByRole('button', { name: 'Open the document' }).click();
      await page.getByRole('button', { name: 'I agree, continue' }).click();
      await page.getByRole('textbox', { name: 'Comment for the sender (optional)' }).fill('Approved for legal.');
      await screenshot(page, '25-approve');
      await expectNoAxeViolations(page, 'approve');
      await page.getByRole('button', { name: 'Approve', exact: true }).click();
      await page.getByRole('heading', { name: 'Thank you, you have approved' }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
    expect((await recipientRow(t, env.rows[0].id)).status).toBe('APPROVED');
    const history = await t.request('GET', `/workflow/v1/${env.workflowId}/history`, { token: owner.token });
    expect(history.body.activities.find((a: { action: string }) => a.action === 'Approved').activity).toContain(
      'Approved for legal.',
    );
  });
});
