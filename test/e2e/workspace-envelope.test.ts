import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import type { Browser, Download } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { saveAll, tokenFromMail, waitForSeal } from '../helpers/ceremony.ts';
import { draftSurvey, setSurveyLimit } from '../surveys/survey-helpers.ts';
import {
  DESKTOP,
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  screenshot,
  sendEnvelope,
  startService,
} from './browser.ts';
import { signInThrough } from './workspace-kit.ts';

// Whole journeys in a real browser against a real service, on a machine that may be shared: minutes, not seconds.
vi.setConfig({ testTimeout: 180_000 });

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let owner: TestUser;
const POLL = { timeout: 15_000 };

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  browser = await launchBrowser();
  owner = await createUser(t, { name: 'Elena Envelope' });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function bytesOf(download: Download): Promise<Buffer> {
  return fs.readFileSync((await download.path())!);
}

describe('the envelope page', () => {
  it('a completed envelope: recipients, history, downloads (document, zip, certificate), the evidence report; then delete', async () => {
    const ann = `ann-${Date.now()}@example.com`;
    const ben = `ben-${Date.now()}@example.com`;
    const sent = await sendEnvelope(t, owner, {
      title: 'Please sign the service agreement',
      recipients: [
        { name: 'Ann Signer', email: ann, fields: [{ fieldType: 'SIGNATURE' }] },
        { name: 'Ben Signer', email: ben, fields: [{ fieldType: 'SIGNATURE' }] },
      ],
    });
    for (const [i, email] of [ann, ben].entries()) {
      const saved = await saveAll(t, await tokenFromMail(t, email), sent.documentId, Object.values(sent.fieldIds[i]));
      expect(saved.status, saved.raw).toBe(200);
    }
    await waitForSeal(t, sent.workflowId);

    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, `/envelopes/${sent.workflowId}`);
      await page.getByRole('heading', { level: 1, name: 'Service agreement' }).waitFor();
      const main = page.getByRole('main');
      await main.getByText('Completed', { exact: true }).first().waitFor();
      const recipients = page.getByRole('region', { name: 'Recipients' });
      for (const name of ['Ann Signer', 'Ben Signer']) {
        await recipients.getByRole('listitem').filter({ hasText: name }).getByText('Signed', { exact: true }).waitFor();
      }
      const history = page.getByRole('region', { name: 'History' });
      for (const action of ['Sent', 'Signed', 'Completed'])
        await history.getByText(action, { exact: true }).first().waitFor();
      await expectNoAxeViolations(page, 'completed envelope');
      await screenshot(page, 'workspace-envelope-01-completed');

      const downloads = page.getByRole('region', { name: 'Downloads' });
      const get = async (name: string) => {
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          downloads.getByRole('button', { name }).click(),
        ]);
        return download;
      };
      const document = await get('Download Service agreement');
      expect(document.suggestedFilename()).toMatch(/\.pdf$/);
      expect((await bytesOf(document)).subarray(0, 5).toString()).toBe('%PDF-');
      const all = await get('Download all (zip)');
      expect(all.suggestedFilename()).toMatch(/\.zip$/);
      expect((await bytesOf(all)).subarray(0, 2).toString()).toBe('PK');
      const certificate = await get('Certificate of completion');
      expect((await bytesOf(certificate)).subarray(0, 5).toString()).toBe('%PDF-');
      await downloads
        .getByRole('status')
        .filter({ hasText: /^Downloaded / })
        .waitFor();

      // The evidence report opens in its own tab with the session cookie.
      const [report] = await Promise.all([
        page.context().waitForEvent('page'),
        downloads.getByRole('link', { name: /Evidence report/ }).click(),
      ]);
      await report.waitForLoadState();
      expect(await report.locator('body').innerText()).toContain('Service agreement');
      await report.close();

      // Delete (allowed once completed), after the confirmation.
      await page.getByRole('button', { name: 'Delete envelope' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete this envelope?' });
      await expectNoAxeViolations(page, 'delete envelope dialog');
      await dialog.getByRole('button', { name: 'Delete envelope' }).click();
      await page.waitForURL(`${baseUrl}/`);
      const gone = await t.request('GET', `/document/v1/docs-detail/${sent.workflowId}`, { token: owner.token });
      expect(gone.status).toBe(404);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a sent envelope: the owner delegates a signer, comments, and (being the signer whose turn it is) voids it with a reason', async () => {
    const cat = `cat-${Date.now()}@example.com`;
    const sent = await sendEnvelope(t, owner, {
      title: 'Lease',
      recipients: [
        { name: owner.name, email: owner.email, fields: [{ fieldType: 'SIGNATURE' }] },
        { name: 'Cat Signer', email: cat, fields: [{ fieldType: 'SIGNATURE' }] },
      ],
    });
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, `/envelopes/${sent.workflowId}`);
      await page.getByRole('heading', { level: 1, name: 'Service agreement' }).waitFor();
      await page.getByText(/^Waiting for /).waitFor();
      // Nothing completed yet: no certificate, no evidence report.
      expect(await page.getByRole('button', { name: 'Certificate of completion' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: /Evidence report/ }).count()).toBe(0);

      // Delegate Cat's task.
      await page.getByRole('button', { name: "Delegate Cat Signer's task" }).click();
      const delegate = page.getByRole('dialog', { name: "Hand Cat Signer's task to someone else" });
      await delegate.getByLabel('Name').fill('Dan Delegate');
      await delegate.getByLabel('Email').fill(`dan-${Date.now()}@example.com`);
      await expectNoAxeViolations(page, 'delegate dialog');
      await screenshot(page, 'workspace-envelope-02-delegate');
      await delegate.getByRole('button', { name: 'Delegate' }).click();
      await page.getByRole('status').filter({ hasText: "Cat Signer's task now belongs to Dan Delegate." }).waitFor();
      const recipients = page.getByRole('region', { name: 'Recipients' });
      await recipients
        .getByRole('listitem')
        .filter({ hasText: 'Cat Signer' })
        .getByText('Delegated', { exact: true })
        .waitFor();
      await recipients.getByRole('listitem').filter({ hasText: 'Dan Delegate' }).waitFor();

      // A comment.
      const comments = page.getByRole('region', { name: 'Comments' });
      await comments.getByRole('button', { name: 'Post comment' }).click();
      await comments.getByText('Write something first.').waitFor();
      await comments.getByLabel('Add a comment').fill('Section 4 changed, please re-read.');
      await comments.getByRole('button', { name: 'Post comment' }).click();
      await comments.getByText('Section 4 changed, please re-read.').waitFor();
      await comments.getByText(/^Elena Envelope, /).waitFor();

      // Void: the owner is the signer whose turn it is, so declining voids the envelope for everyone.
      await page.getByRole('button', { name: 'Decline and void' }).click();
      const voidDialog = page.getByRole('dialog', { name: 'Decline and void this envelope?' });
      await voidDialog.getByRole('button', { name: 'Decline and void' }).click();
      await voidDialog.getByText('Give a reason.').waitFor();
      await voidDialog.getByLabel('Reason (shown to the sender and recipients)').fill('The rent is wrong.');
      await expectNoAxeViolations(page, 'void dialog');
      await screenshot(page, 'workspace-envelope-03-void');
      await voidDialog.getByRole('button', { name: 'Decline and void' }).click();
      await page.getByRole('status').filter({ hasText: 'The envelope is voided.' }).waitFor();
      await page.getByRole('main').getByText('Voided', { exact: true }).first().waitFor();
      const declines = page.getByRole('region', { name: 'Decline reasons' });
      await declines.getByText('The rent is wrong.').waitFor();
      await expect.poll(() => page.getByRole('button', { name: 'Decline and void' }).count(), POLL).toBe(0);
      expect(await comments.getByLabel('Add a comment').count()).toBe(0);
      const row = await t.request('GET', `/document/v1/docs-detail/${sent.workflowId}`, { token: owner.token });
      expect(row.body[0].status).toBe('VOID');
      await expectNoAxeViolations(page, 'voided envelope');
      await screenshot(page, 'workspace-envelope-04-voided');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the sender voids a sent envelope with a reason, and the signer is told; a survey lists its responses; unknown ids are not found', async () => {
    const eveEmail = `eve-${Date.now()}@example.com`;
    const sent = await sendEnvelope(t, owner, {
      title: 'NDA',
      recipients: [{ name: 'Eve Signer', email: eveEmail, fields: [{ fieldType: 'SIGNATURE' }] }],
    });
    await setSurveyLimit(t, owner, 10);
    const survey = await draftSurvey(t, owner, { recipients: ['Fay Person', 'Gus Person'], name: 'Team survey' });
    expect(
      (await t.request('POST', `/workflow/v1/${survey.workflowId}/commence`, { token: owner.token, body: {} })).status,
    ).toBe(202);
    await t.drainJobs();
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, `/envelopes/${sent.workflowId}`);
      // Not a recipient: no decline, but the owner may void it (RUNTIME.md "Voiding a sent envelope").
      expect(await page.getByRole('button', { name: 'Decline and void' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Delete envelope' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Void envelope' }).click();
      const voidDialog = page.getByRole('dialog', { name: 'Void this envelope?' });
      await voidDialog.getByRole('button', { name: 'Void envelope' }).click();
      await voidDialog.getByText('Give a reason.').waitFor();
      await voidDialog.getByLabel('Reason (mailed to the recipients)').fill('The wrong NDA was attached.');
      await expectNoAxeViolations(page, 'owner void dialog');
      await screenshot(page, 'workspace-envelope-05-owner-void');
      await voidDialog.getByRole('button', { name: 'Void envelope' }).click();
      await page.getByRole('status').filter({ hasText: 'The envelope is voided.' }).waitFor();
      await page.getByRole('main').getByText('Voided', { exact: true }).first().waitFor();
      await expect.poll(() => page.getByRole('button', { name: 'Void envelope' }).count(), POLL).toBe(0);
      const voidedMails = await t.mails({ to: eveEmail, kind: 'VOIDED' });
      expect(voidedMails).toHaveLength(1);
      expect(voidedMails[0].textBody).toContain('The wrong NDA was attached.');

      await page.goto(`${baseUrl}/envelopes/${survey.workflowId}`);
      const responses = page.getByRole('region', { name: 'Survey responses' });
      await responses.getByText('0 of 2 responded, 0 completed').waitFor();
      await responses
        .getByRole('table', { name: 'Survey recipients' })
        .getByRole('link', { name: 'Fay Person' })
        .waitFor();
      const [csv] = await Promise.all([
        page.waitForEvent('download'),
        responses.getByRole('button', { name: 'Export responses (CSV)' }).click(),
      ]);
      expect((await bytesOf(csv)).toString()).toContain('Gus Person');
      await expectNoAxeViolations(page, 'survey envelope');
      await screenshot(page, 'workspace-envelope-06-survey');

      await page.goto(`${baseUrl}/envelopes/999999`);
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      await expectNoAxeViolations(page, 'unknown envelope');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
