import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { markSent, setRecipient, setWorkflow } from '../helpers/envelope-states.ts';
import { guestFromMail } from '../helpers/signing.ts';
import { pngDataUrl } from '../helpers/ceremony.ts';
import { draftSurvey, setSurveyLimit } from '../surveys/survey-helpers.ts';
import { webSessions } from '../../src/platform/db/schema/index.ts';
import { DESKTOP, expectNoAxeViolations, launchBrowser, openPage, screenshot, startService, tabTo } from './browser.ts';
import { expectWorkspaceLayout, focused, signInThrough } from './workspace-kit.ts';

// Whole journeys in a real browser against a real service, on a machine that may be shared: minutes, not seconds.
vi.setConfig({ testTimeout: 180_000 });

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let owner: TestUser;
let other: TestUser;
const BULK = 22;
/** The machine running these is shared and slow at times: a change on screen may take seconds. */
const POLL = { timeout: 15_000 };

/** A workflow of the owner in `status`, optionally with the owner's own recipient row in `mine` (for Pending, Viewed, Signed). */
async function envelope(
  name: string,
  status: 'DRAFT' | 'SENT' | 'COMPLETED' | 'VOID' | 'APPROVED',
  mine?: 'SENT' | 'VIEWED' | 'SIGNED',
) {
  const { workflow } = await createDraftWorkflow(t, owner, { name, sequence: 'UNORDERED' });
  if (status === 'DRAFT') return workflow.id;
  const them = await insertRecipient(t, workflow.id, { userId: other.userId, name: other.name, email: other.email });
  const rows = [them.id];
  if (mine)
    rows.push(
      (await insertRecipient(t, workflow.id, { userId: owner.userId, name: owner.name, email: owner.email })).id,
    );
  await markSent(t, workflow.id, rows);
  if (mine && mine !== 'SENT') await setRecipient(t, rows[1], { status: mine });
  if (status !== 'SENT')
    await setWorkflow(t, workflow.id, {
      status,
      statusAt: new Date(),
      ...(status === 'COMPLETED' ? { completedAt: new Date() } : {}),
    });
  return workflow.id;
}

let surveyId: number;

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  browser = await launchBrowser();
  owner = await createUser(t, { name: 'Dana Dashboard' });
  other = await createUser(t, { name: 'Oscar Other' });
  for (let i = 1; i <= BULK; i++) await envelope(`Bulk ${String(i).padStart(2, '0')}`, 'DRAFT');
  await envelope('Draft lease Alder Street', 'DRAFT');
  await envelope('Draft lease Birch Road', 'DRAFT');
  await envelope('Draft offer', 'DRAFT');
  await envelope('Sent contract', 'SENT');
  await envelope('Your turn NDA', 'SENT', 'SENT');
  await envelope('Opened NDA', 'SENT', 'VIEWED');
  await envelope('Waiting for others', 'SENT', 'SIGNED');
  await envelope('Completed lease', 'COMPLETED');
  await envelope('Voided offer', 'VOID');
  await envelope('Approved budget', 'APPROVED');
  // A Power Survey sent to three people, one of whom answered.
  await setSurveyLimit(t, owner, 10);
  const survey = await draftSurvey(t, owner, {
    recipients: ['Pia Person', 'Quinn Person', 'Ray Person'],
    name: 'Staff survey',
  });
  surveyId = survey.workflowId;
  const commenced = await t.request('POST', `/workflow/v1/${surveyId}/commence`, {
    token: owner.token,
    body: { title: 'Staff survey' },
  });
  expect(commenced.status, commenced.raw).toBe(202);
  await t.drainJobs();
  const { token, session } = await guestFromMail(t, survey.recipients[0].emailAddress);
  const fields = await t.request('GET', `/workflow/v1/${session.workflowId}/fields`, { token });
  const body = fields.body.map((f: any) => ({
    id: f.id,
    type: f.fieldType,
    value: f.fieldType === 'SIGNATURE' ? pngDataUrl() : 'Fine',
  }));
  expect(
    (await t.request('POST', `/workflow/v1/${fields.body[0].documentId}/fields/save`, { token, body })).status,
  ).toBe(200);
  await t.drainJobs();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const filters = (page: Page) => page.getByRole('navigation', { name: 'Status filters' });
const table = (page: Page) => page.getByRole('table');
async function rowNames(page: Page): Promise<string[]> {
  return table(page).locator('tbody th[scope="row"] a').allInnerTexts();
}
async function apiCounts() {
  return (await t.request('GET', '/document/v1/count/documents-status', { token: owner.token })).body;
}

describe('the dashboard', () => {
  it('counts, filters, search and paging, with the address keeping what is shown', async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      const started = Date.now();
      await signInThrough(page, baseUrl, owner, '/');
      await table(page).waitFor();
      const firstPaintMs = Date.now() - started;
      await expectWorkspaceLayout(page);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Documents');
      // Opened again signed in: HTML shell, the app's script, the dashboard's chunk, the first page and the counts.
      const reloadStarted = Date.now();
      await page.reload();
      await table(page).waitFor();
      const reloadMs = Date.now() - reloadStarted;

      // The counts are the service's, each filter named with its count.
      const counts = await apiCounts();
      expect(counts).toMatchObject({
        draftDocCount: BULK + 3,
        pendingDocCount: 2,
        signedDocCount: 1,
        completedDocCount: 2,
        voidDocCount: 1,
      });
      await filters(page)
        .getByRole('link', { name: `Draft ${counts.draftDocCount}`, exact: true })
        .waitFor();
      await filters(page)
        .getByRole('link', { name: `Pending (waiting for you) ${counts.pendingDocCount}`, exact: true })
        .waitFor();
      await filters(page)
        .getByRole('link', { name: `Sent ${counts.sentDocCount}`, exact: true })
        .waitFor();
      await filters(page)
        .getByRole('link', { name: `Signed (waiting for others) ${counts.signedDocCount}`, exact: true })
        .waitFor();
      await filters(page)
        .getByRole('link', { name: `Completed ${counts.completedDocCount}`, exact: true })
        .waitFor();
      await filters(page)
        .getByRole('link', { name: `Voided ${counts.voidDocCount}`, exact: true })
        .waitFor();
      // All, Approved and Viewed are the list's own totals, read after the first paint.
      const all = BULK + 3 + 4 + 3 + 1 + 3;
      await filters(page)
        .getByRole('link', { name: `All ${all}`, exact: true })
        .waitFor();
      await filters(page).getByRole('link', { name: 'Approved 1', exact: true }).waitFor();
      await filters(page).getByRole('link', { name: 'Viewed (opened, not yet acted on) 1', exact: true }).waitFor();
      expect(await filters(page).getByRole('link', { name: /^All/ }).getAttribute('aria-current')).toBe('true');
      expect(await table(page).locator('caption').textContent()).toBe(`All: ${all} envelopes`);
      expect(await rowNames(page)).toHaveLength(20);

      // The survey parent shows its progress; a draft row leads to the editor, a sent one to its envelope page.
      const surveyRow = table(page).getByRole('row', { name: /Staff survey.*Power Survey/ });
      await surveyRow.getByRole('progressbar', { name: '1 of 3 responded' }).waitFor();
      expect(await table(page).getByRole('link', { name: 'Approved budget' }).getAttribute('href')).toMatch(
        /^\/envelopes\/\d+$/,
      );
      expect(await table(page).getByRole('link', { name: 'Draft offer' }).getAttribute('href')).toMatch(
        /^\/envelopes\/\d+\/edit$/,
      );
      await expectNoAxeViolations(page, 'dashboard, all');
      await screenshot(page, 'workspace-dashboard-01-all');

      // Paging: 20 a page, the rest on page 2; Back returns to page 1.
      await page.getByRole('navigation', { name: 'Pages' }).getByText(`Page 1 of 2`).waitFor();
      await page.getByRole('link', { name: 'Next page' }).click();
      await page.waitForURL(`${baseUrl}/?page=2`);
      await page.getByText('Page 2 of 2').waitFor();
      // The rows follow the pager as soon as page 2's answer is in.
      await expect.poll(async () => (await rowNames(page)).length).toBe(all - 20);
      await page.getByLabel('Rows per page').selectOption('50');
      await page.waitForURL(`${baseUrl}/?size=50`);
      await expect.poll(() => rowNames(page).then((n) => n.length), POLL).toBe(all);
      await page.goBack();
      await page.goBack();
      await page.waitForURL(`${baseUrl}/`);
      await expect.poll(() => rowNames(page).then((n) => n.length), POLL).toBe(20);

      // Each filter shows its workflows only.
      const expected: Record<string, string[]> = {
        Completed: ['Completed lease'],
        Voided: ['Voided offer'],
        Approved: ['Approved budget'],
        Pending: ['Opened NDA', 'Your turn NDA'],
        Viewed: ['Opened NDA'],
        Signed: ['Waiting for others'],
      };
      for (const [filter, names] of Object.entries(expected)) {
        await filters(page)
          .getByRole('link', { name: new RegExp(`^${filter}\\b`) })
          .click();
        await page.waitForURL(`${baseUrl}/?status=${filter}`);
        await expect
          .poll(() => rowNames(page).then((n) => n.filter((x) => !x.startsWith('Staff survey')).sort()), {
            timeout: 15_000,
            message: filter,
          })
          .toEqual(names);
      }
      expect(
        await filters(page)
          .getByRole('link', { name: /^Signed/ })
          .getAttribute('aria-current'),
      ).toBe('true');
      await filters(page)
        .getByRole('link', { name: /^Sent\b/ })
        .click();
      await expect.poll(() => rowNames(page).then((n) => n.length), POLL).toBe(counts.sentDocCount);
      await expectNoAxeViolations(page, 'dashboard, Sent filter');
      await screenshot(page, 'workspace-dashboard-02-sent');

      // Search (within the filter), then cleared.
      await filters(page)
        .getByRole('link', { name: /^Draft\b/ })
        .click();
      await page.getByRole('searchbox', { name: 'Search by name' }).fill('lease');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.waitForURL(`${baseUrl}/?status=Draft&q=lease`);
      await expect.poll(() => rowNames(page), POLL).toEqual(['Draft lease Birch Road', 'Draft lease Alder Street']);
      expect(await table(page).locator('caption').textContent()).toBe('Results for "lease". Draft: 2 envelopes');
      await page.getByRole('searchbox', { name: 'Search by name' }).fill('no such thing');
      await page.getByRole('searchbox', { name: 'Search by name' }).press('Enter');
      await page.getByText('No envelopes match.').waitFor();
      await expectNoAxeViolations(page, 'dashboard, search without results');
      await page.getByRole('link', { name: 'Clear search' }).click();
      await page.waitForURL(`${baseUrl}/?status=Draft`);
      await expect.poll(() => rowNames(page).then((n) => n.length), POLL).toBe(20);
      expect(problems).toEqual([]);
      console.log(
        `dashboard: sign-in to first rows ${firstPaintMs} ms; reload to first rows ${reloadMs} ms (machine shared)`,
      );
    } finally {
      await close();
    }
  });

  it('folders: create, file envelopes into one, rename, delete (the envelopes stay); bulk delete after a confirmation', async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    const folders = () => page.getByRole('navigation', { name: 'Folders' });
    try {
      await signInThrough(page, baseUrl, owner, '/?status=Draft&q=Bulk');
      await expect.poll(() => rowNames(page).then((n) => n.length), POLL).toBe(20);

      // Create: an empty name is refused at the field; a taken one too.
      await folders().getByRole('button', { name: 'New folder' }).click();
      const dialog = page.getByRole('dialog', { name: 'New folder' });
      await dialog.getByRole('button', { name: 'Create' }).click();
      await dialog.getByText('Enter a folder name.').waitFor();
      await dialog.getByLabel('Folder name').fill('Clients');
      await expectNoAxeViolations(page, 'new folder dialog');
      await screenshot(page, 'workspace-dashboard-03-new-folder');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await folders().getByRole('link', { name: 'Clients 0', exact: true }).waitFor();
      expect(await dialog.isVisible()).toBe(false);
      await folders().getByRole('button', { name: 'New folder' }).click();
      await dialog.getByLabel('Folder name').fill('clients');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await dialog.getByText('You already have a folder with this name.').waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      // File two envelopes into it.
      await table(page).getByRole('checkbox', { name: 'Select Bulk 21' }).check();
      await table(page).getByRole('checkbox', { name: 'Select Bulk 22' }).check();
      const bulk = page.getByRole('group', { name: '2 selected' });
      await bulk.getByLabel('Move to folder').selectOption({ label: 'Clients' });
      await bulk.getByRole('button', { name: 'Move' }).click();
      await page.getByRole('status').filter({ hasText: 'Moved 2 envelopes to Clients.' }).waitFor();
      await folders().getByRole('link', { name: 'Clients 2', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Folder: Clients' }).waitFor();
      await expect.poll(() => rowNames(page).then((n) => n.sort()), POLL).toEqual(['Bulk 21', 'Bulk 22']);
      await expectNoAxeViolations(page, 'folder view');
      await screenshot(page, 'workspace-dashboard-04-folder');

      // Rename, then delete: the envelopes are unfiled, not deleted.
      await page.getByRole('button', { name: 'Rename folder' }).click();
      const rename = page.getByRole('dialog', { name: 'Rename folder' });
      expect(await rename.getByLabel('Folder name').inputValue()).toBe('Clients');
      await rename.getByLabel('Folder name').fill('Key clients');
      await rename.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('heading', { level: 1, name: 'Folder: Key clients' }).waitFor();
      await page.getByRole('button', { name: 'Delete folder' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete the folder "Key clients"?' });
      await confirm.getByText('The envelopes in it are not deleted').waitFor();
      await expectNoAxeViolations(page, 'delete folder dialog');
      await confirm.getByRole('button', { name: 'Delete folder' }).click();
      await page.waitForURL(`${baseUrl}/`);
      await expect
        .poll(
          () =>
            folders()
              .getByRole('link', { name: /Key clients/ })
              .count(),
          POLL,
        )
        .toBe(0);
      const stillThere = await t.request('GET', '/document/v1?searchValue=Bulk%202&size=50', { token: owner.token });
      expect(stillThere.body.content.map((item: any) => [item.name, item.folderId])).toEqual([
        ['Bulk 22', null],
        ['Bulk 21', null],
        ['Bulk 20', null],
      ]);

      // Bulk delete: select, the dialog asks; Cancel keeps them; Delete removes them and the counts follow.
      const before = (await apiCounts()).draftDocCount;
      await page.getByRole('searchbox', { name: 'Search by name' }).fill('Bulk 2');
      await page.getByRole('searchbox', { name: 'Search by name' }).press('Enter');
      await expect.poll(() => rowNames(page).then((n) => n.sort()), POLL).toEqual(['Bulk 20', 'Bulk 21', 'Bulk 22']);
      await table(page).getByRole('checkbox', { name: 'Select all on this page' }).check();
      await page.getByRole('group', { name: '3 selected' }).getByRole('button', { name: 'Delete' }).click();
      const ask = page.getByRole('dialog', { name: 'Delete 3 envelopes?' });
      await expectNoAxeViolations(page, 'bulk delete dialog');
      await screenshot(page, 'workspace-dashboard-05-bulk-delete');
      await ask.getByRole('button', { name: 'Cancel' }).click();
      expect(await rowNames(page)).toHaveLength(3);
      await page.getByRole('group', { name: '3 selected' }).getByRole('button', { name: 'Delete' }).click();
      await ask.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('status').filter({ hasText: 'Deleted 3 envelopes.' }).waitFor();
      await page.getByText('No envelopes match.').waitFor();
      expect((await apiCounts()).draftDocCount).toBe(before - 3);
      await filters(page)
        .getByRole('link', { name: `Draft ${before - 3}`, exact: true })
        .waitFor();

      // A sent envelope cannot be deleted: the dialog says so and offers no Delete.
      await filters(page)
        .getByRole('link', { name: /^Pending/ })
        .click();
      await page.getByRole('link', { name: 'Clear search' }).click();
      await table(page).getByRole('checkbox', { name: 'Select Your turn NDA' }).check();
      await page.getByRole('group', { name: '1 selected' }).getByRole('button', { name: 'Delete' }).click();
      const blocked = page.getByRole('dialog', { name: 'Delete 1 envelope?' });
      await blocked.getByText('1 of them is out for signature (Sent) and cannot be deleted').waitFor();
      expect(await blocked.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
      await page.keyboard.press('Escape');
      expect(await blocked.isVisible()).toBe(false);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('at 768 px wide everything fits and stays axe-clean', async () => {
    const { page, problems, close } = await openPage(browser, { viewport: { width: 768, height: 1024 } });
    try {
      await signInThrough(page, baseUrl, owner, '/');
      await table(page).waitFor();
      await filters(page)
        .getByRole('link', { name: /^Approved 1/ })
        .waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(768);
      await expectNoAxeViolations(page, 'dashboard at 768 px');
      await screenshot(page, 'workspace-dashboard-06-768px');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('by keyboard alone: skip link, a filter, search, select a row, open and dismiss the delete dialog, open an envelope', async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, '/');
      await table(page).waitFor();
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('A Skip to main content');
      await page.keyboard.press('Enter');
      expect(await page.evaluate('document.activeElement.id')).toBe('main');

      const completed = filters(page).getByRole('link', { name: /^Completed/ });
      await tabTo(page, completed);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${baseUrl}/?status=Completed`);
      // The focus stays on the filter (the list changed, not the page); the new total is announced.
      await page.getByRole('status').filter({ hasText: 'Completed: 2 envelopes' }).waitFor();
      expect(await focused(page)).toMatch(/^A Completed/);

      const search = page.getByRole('searchbox', { name: 'Search by name' });
      await tabTo(page, search);
      await page.keyboard.type('lease');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${baseUrl}/?status=Completed&q=lease`);
      await expect.poll(() => rowNames(page), POLL).toEqual(['Completed lease']);

      const box = table(page).getByRole('checkbox', { name: 'Select Completed lease' });
      await tabTo(page, box);
      await page.keyboard.press('Space');
      expect(await box.isChecked()).toBe(true);
      const remove = page.getByRole('group', { name: '1 selected' }).getByRole('button', { name: 'Delete' });
      await tabTo(page, remove);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Delete 1 envelope?' });
      await dialog.waitFor();
      // The dialog holds the focus; Escape closes it and gives the focus back.
      expect(await dialog.evaluate((d: any) => d.contains(d.ownerDocument.activeElement))).toBe(true);
      await page.keyboard.press('Escape');
      await expect.poll(() => focused(page), POLL).toBe('BUTTON Delete');

      const open = table(page).getByRole('link', { name: 'Completed lease' });
      await tabTo(page, open);
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/envelopes\/\d+$/);
      await page.getByRole('heading', { level: 1, name: 'Completed lease' }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('an ended session sends the person to sign in and back to where they were, with the unsent search kept', async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, '/?status=Sent');
      await table(page).waitFor();
      await page.getByRole('searchbox', { name: 'Search by name' }).fill('contract');
      // The page's own requests (counts, lists) have all answered: the first request to meet the ended session is the click's.
      await page.waitForLoadState('networkidle');
      // The session ends (as at its maximum lifetime) while the page is open.
      await t.platform.db.update(webSessions).set({ endedAt: new Date() }).where(eq(webSessions.userId, owner.userId));
      await filters(page)
        .getByRole('link', { name: /^Completed/ })
        .click();
      await page.waitForURL(/\/signin\?state=/);
      await page.getByLabel('Email').fill(owner.email);
      await page.getByLabel('Password').fill(owner.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL(`${baseUrl}/?status=Completed`);
      await table(page).waitFor();
      expect(await page.getByRole('searchbox', { name: 'Search by name' }).inputValue()).toBe('contract');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
