import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { setWorkflow } from '../helpers/envelope-states.ts';
import { guestFromMail } from '../helpers/signing.ts';
import { sourceWorkflow } from '../templates/template-helpers.ts';
import { DESKTOP, expectNoAxeViolations, launchBrowser, openPage, screenshot, startService, tabTo } from './browser.ts';
import { signInThrough } from './workspace-kit.ts';

/**
 * Templates through the workspace: a folder, a template made from one of the owner's envelopes (one recipient made
 * a placeholder), folder access by role, using it (a draft envelope, then the editor), dispatching it with the
 * placeholder filled in a form (the recipient is mailed), and its analytics as accessible charts with data tables.
 */
let t: TestApp;
let baseUrl: string;
let browser: Browser;
let owner: TestUser;
let source: Awaited<ReturnType<typeof sourceWorkflow>>;

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  browser = await launchBrowser();
  owner = await createUser(t, { name: 'Tara Templates' });
  source = await sourceWorkflow(t, owner);
  await t.request('PUT', `/workflow/v1/rename/${source.workflow.id}`, {
    token: owner.token,
    body: { name: 'Consulting agreement' },
  });
  const role = await t.request('POST', '/user/v1/roles', {
    token: owner.token,
    body: {
      name: 'Sales',
      signatureSettings: {
        allowSignElectronic: true,
        allowSignAdvanced: false,
        allowSignQualified: false,
        allowDocSend: true,
        allowDocUseTemplates: true,
        quotaElectronic: 10,
        quotaAdvanced: 0,
        quotaQualified: 0,
      },
    },
  });
  expect(role.status, role.raw).toBe(200);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function status(page: Page, text: string | RegExp) {
  await expect
    .poll(() => page.getByRole('status').allTextContents(), { timeout: 15_000 })
    .toContainEqual(expect.stringMatching(text));
}

describe('the templates screens in Chromium', { timeout: 300_000 }, () => {
  let templateId: number;
  let usedId: number;
  let dispatchedId: number;

  it('a folder, then a template made from an envelope with a placeholder; folder access by role', async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, '/templates');
      await page.getByText('No templates here yet.').waitFor();
      await expectNoAxeViolations(page, 'no templates');
      // By keyboard: Tab to the button, Enter opens the dialog with the focus inside, Escape closes it and the focus is back.
      await tabTo(page, page.getByRole('button', { name: 'New folder' }));
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'New folder' }).waitFor();
      await expect.poll(() => page.evaluate('document.activeElement?.closest("dialog") !== null')).toBe(true);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('New folder');
      await page.getByRole('button', { name: 'New folder' }).click();
      const folderDialog = page.getByRole('dialog', { name: 'New folder' });
      await folderDialog.getByRole('textbox', { name: 'Folder name' }).fill('Contracts');
      await folderDialog.getByRole('button', { name: 'Create folder' }).click();
      await status(page, 'Folder Contracts created.');
      await page.waitForURL(/\/templates\?folder=\d+$/);
      await page.getByRole('heading', { level: 2, name: 'Contracts' }).waitFor();
      expect(
        await page
          .getByRole('navigation', { name: 'Template folders' })
          .getByRole('link', { name: 'Contracts' })
          .getAttribute('aria-current'),
      ).toBe('page');

      await page.getByRole('button', { name: 'New template' }).click();
      const dialog = page.getByRole('dialog', { name: 'New template from an envelope' });
      await dialog.getByRole('button', { name: 'Create template' }).click();
      await dialog.getByText('Choose the envelope to copy.').waitFor();
      await dialog.getByLabel('Envelope to copy').selectOption({ label: 'Consulting agreement (draft, 2 recipients)' });
      await dialog.getByRole('textbox', { name: 'Label for recipient 1: Alice Signer (signer)' }).fill('Client');
      expect(await dialog.getByRole('textbox', { name: 'Template name', exact: true }).inputValue()).toBe(
        'Consulting agreement',
      );
      await dialog.getByLabel('Description').fill('Our standard consulting terms');
      expect(await dialog.getByLabel('Folder').inputValue()).not.toBe('');
      await expectNoAxeViolations(page, 'new template dialog');
      await screenshot(page, 'templates-01-create');
      await dialog.getByRole('button', { name: 'Create template' }).click();
      await status(page, 'Template Consulting agreement created.');
      const row = page.getByRole('row', { name: /Consulting agreement/ });
      await row.waitFor();
      expect(await row.textContent()).toContain('Client');

      const list = await t.request('GET', '/organization/v1/templates', { token: owner.token });
      const template = list.body.content[0];
      templateId = template.id;
      expect(template).toMatchObject({
        name: 'Consulting agreement',
        description: 'Our standard consulting terms',
        recipientLabels: [{ order: 1, label: 'Client' }],
      });
      expect(template.folderId).not.toBeNull();

      await page.getByRole('button', { name: 'Access to folder Contracts' }).click();
      const access = page.getByRole('dialog', { name: 'Who sees the folder Contracts' });
      await access.getByRole('checkbox', { name: 'Only members with the roles chosen below see this folder' }).check();
      await access.getByRole('checkbox', { name: 'Sales' }).check();
      await expectNoAxeViolations(page, 'folder access dialog');
      await access.getByRole('button', { name: 'Save access' }).click();
      await status(page, 'Access to Contracts saved.');
      const saved = await t.request('GET', `/organization/v1/template-folders/${template.folderId}/access`, {
        token: owner.token,
      });
      expect(saved.body).toMatchObject({ overrideEnabled: true, roleIds: [expect.any(Number)] });
      await expectNoAxeViolations(page, 'templates list');
      await screenshot(page, 'templates-02-list');
      // Tablet width: the folder list goes above the table, nothing is lost.
      await page.setViewportSize({ width: 800, height: 1000 });
      await page.getByRole('button', { name: 'Use Consulting agreement: make a draft envelope' }).waitFor();
      await expectNoAxeViolations(page, 'templates list, tablet');
      await screenshot(page, 'templates-02-list-800');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('use makes a draft envelope and opens the editor; send fills the placeholder and mails the recipient', async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, '/templates');
      await page.getByRole('button', { name: 'Use Consulting agreement: make a draft envelope' }).click();
      await page.waitForURL(/\/envelopes\/\d+\/edit$/);
      usedId = Number(/\/envelopes\/(\d+)\/edit$/.exec(page.url())![1]);
      const recipients = await t.request('GET', `/workflow/v1/${usedId}/recipients`, { token: owner.token });
      expect(recipients.body.map((r: any) => r.name).sort()).toEqual(['Alice Signer', 'Bob Signer']);

      await page.goto(`${baseUrl}/templates`);
      await page.getByRole('link', { name: 'Send Consulting agreement' }).click();
      await page.waitForURL(`${baseUrl}/templates/${templateId}/dispatch`);
      await page.getByRole('heading', { level: 1, name: 'Send Consulting agreement' }).waitFor();
      const client = page.getByRole('group', { name: 'Recipient 1: signer (Client)' });
      await client.getByText('Placeholder: fill in').waitFor();
      await page.getByRole('button', { name: 'Send now' }).click();
      await client
        .getByText('Enter a name of 3 to 50 characters: letters, hyphens or apostrophes between letters, and spaces.')
        .waitFor();
      await expectNoAxeViolations(page, 'dispatch with errors');
      await client.getByRole('textbox', { name: 'Name' }).fill('Carla Customer');
      await client.getByRole('textbox', { name: 'Email' }).fill('carla@example.com');
      const bob = page.getByRole('group', { name: 'Recipient 2: signer' });
      expect(await bob.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Bob Signer');
      // Two recipients with one email: the API refuses, and says so on that recipient's field.
      const bobEmail = await bob.getByRole('textbox', { name: 'Email' }).inputValue();
      await bob.getByRole('textbox', { name: 'Email' }).fill('carla@example.com');
      await page.getByRole('button', { name: 'Send now' }).click();
      await expect
        .poll(() => page.locator('.ws-field-error').allTextContents())
        .toContainEqual(expect.stringContaining('carla@example.com'));
      await bob.getByRole('textbox', { name: 'Email' }).fill(bobEmail);
      await screenshot(page, 'templates-03-dispatch');
      await page.getByRole('button', { name: 'Send now' }).click();
      await page.waitForURL(/\/envelopes\/\d+$/);
      dispatchedId = Number(/\/envelopes\/(\d+)$/.exec(page.url())![1]);
      const mails = await t.mails({ to: 'carla@example.com', kind: 'COMMENCE' });
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toContain('Consulting agreement');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('analytics: completion, time to sign and field drop-off as charts with their data tables', async () => {
    const sent = new Date(Date.now() - 5 * 3600_000);
    await setWorkflow(t, usedId, {
      status: 'COMPLETED',
      sentAt: sent,
      completedAt: new Date(sent.getTime() + 2 * 3600_000),
    });
    const { token } = await guestFromMail(t, 'carla@example.com');
    const carla = ((await t.request('GET', `/workflow/v1/${dispatchedId}/recipients`, { token })).body as any[]).find(
      (r) => r.emailAddress === 'carla@example.com',
    );
    const fields = (await t.request('GET', `/workflow/v1/${dispatchedId}/fields`, { token })).body as any[];
    const mine = fields.filter((f) => f.recipientId === carla.id);
    const signature = mine.find((f) => f.fieldType === 'SIGNATURE');
    const company = mine.find((f) => f.fieldType === 'TEXT');
    const at = (seconds: number) => new Date(Date.now() - 60_000 + seconds * 1000).toISOString();
    const events = await t.request('POST', '/workflow/v1/field-events', {
      token,
      body: {
        sessionId: 'e2e',
        workflowId: dispatchedId,
        documentId: signature.documentId,
        events: [
          { fieldId: null, type: 'SESSION_START', at: at(0) },
          { fieldId: company.id, type: 'FIELD_FOCUSED', at: at(1) },
          { fieldId: company.id, type: 'FIELD_FILLED', at: at(2) },
          { fieldId: signature.id, type: 'FIELD_VIEWED', at: at(3) },
        ],
      },
    });
    expect(events.body).toMatchObject({ ingested: 4 });

    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, `/templates/${templateId}/analytics`);
      await page.getByRole('heading', { level: 1, name: 'Analytics of Consulting agreement' }).waitFor();
      const completion = page.getByRole('img', { name: 'Envelopes by status' });
      await completion.waitFor();
      expect(await completion.getAttribute('aria-describedby')).toBeTruthy();
      await page.getByText('50% of the envelopes made from this template are completed.').waitFor();
      await page.getByRole('img', { name: 'Completed envelopes by time from sending to completion' }).waitFor();
      await page.getByRole('img', { name: 'Drop-off rate per field' }).waitFor();
      await expectNoAxeViolations(page, 'analytics');
      await screenshot(page, 'templates-04-analytics');

      // The same numbers as tables, for people who do not read the pictures.
      const completionFigure = page.getByRole('figure', { name: 'Envelopes by status' });
      await completionFigure.getByText('Show the numbers as a table').click();
      const table = completionFigure.getByRole('table', { name: 'Envelopes by status' });
      expect(await table.getByRole('row', { name: /Completed/ }).textContent()).toBe('Completed150%');
      expect(await table.getByRole('row', { name: /In progress/ }).textContent()).toBe('In progress150%');
      const timeFigure = page.getByRole('figure', { name: 'Completed envelopes by time from sending to completion' });
      await timeFigure.getByText('Show the numbers as a table').click();
      expect(await timeFigure.getByRole('row', { name: /1 to 24 hours/ }).textContent()).toBe('1 to 24 hours1');
      const dropFigure = page.getByRole('figure', { name: 'Drop-off rate per field' });
      await dropFigure.getByText('Show the numbers as a table').click();
      const signatureRow = dropFigure.getByRole('row', { name: /signature/i }).first();
      expect(await signatureRow.textContent()).toContain('100%');
      expect(await dropFigure.getByRole('row', { name: /Company/ }).textContent()).toContain('0%');
      await expectNoAxeViolations(page, 'analytics tables open');
      await screenshot(page, 'templates-05-analytics-tables');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
