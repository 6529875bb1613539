import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import type { TestApp } from '../helpers/test-app.ts';
import { workflows } from '../../src/platform/db/schema/index.ts';
import { createDraftWorkflow, createUser, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { markSent } from '../helpers/envelope-states.ts';
import { createTemplate } from '../templates/template-helpers.ts';
import { DESKTOP, PHONE, expectNoAxeViolations, launchBrowser, openPage, screenshot, startService } from './browser.ts';
import { expectWorkspaceLayout, focused, signInThrough } from './workspace-kit.ts';

// The workspace's header names the product, and on a phone it keeps to one line with the navigation behind "Menu";
// the envelope list becomes a list of rows that fit the width.
vi.setConfig({ testTimeout: 180_000 });

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let owner: TestUser;
const voidable = new Map<string, number>();
const WIDE_PHONE: BrowserContextOptions = { ...PHONE, viewport: { width: 430, height: 932 } };

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  browser = await launchBrowser();
  owner = await createUser(t, { name: 'Pat Phone' });
  const other = await createUser(t, { name: 'Olive Other' });
  await createDraftWorkflow(t, owner, { name: 'Draft lease for the flat on Alder Street, second floor' });
  const { workflow } = await createDraftWorkflow(t, owner, { name: 'Sent contract', sequence: 'UNORDERED' });
  const row = await insertRecipient(t, workflow.id, { userId: other.userId, name: other.name, email: other.email });
  await createTemplate(t, owner.token, { name: 'Lease template', workflowId: workflow.id });
  await markSent(t, workflow.id, [row.id]);
  for (const name of ['Sent offer', 'Sent quote']) {
    const sent = await createDraftWorkflow(t, owner, { name, sequence: 'UNORDERED' });
    const them = await insertRecipient(t, sent.workflow.id, {
      userId: other.userId,
      name: other.name,
      email: other.email,
    });
    await markSent(t, sent.workflow.id, [them.id]);
    voidable.set(name, sent.workflow.id);
  }
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const menuButton = (page: Page) => page.getByRole('banner').getByRole('button', { name: 'Menu', exact: true });
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

async function headerHeight(page: Page): Promise<number> {
  return (await page.getByRole('banner').boundingBox())?.height ?? Number.NaN;
}
async function pageWidth(page: Page): Promise<number> {
  return (await page.evaluate('document.documentElement.scrollWidth')) as number;
}

describe('the workspace header', () => {
  it('on a phone: one line with the product name and Menu, the menu opens, follows a link and closes', async () => {
    for (const options of [PHONE, WIDE_PHONE]) {
      const width = options.viewport?.width ?? 0;
      const { page, problems, close } = await openPage(browser, options);
      try {
        await signInThrough(page, baseUrl, owner, '/');
        await page.getByRole('table').waitFor();
        expect(await page.title()).toBe('Documents – Signature Service');
        await expect
          .poll(() => page.getByRole('banner').getByRole('link', { name: 'Signature Service' }).count())
          .toBe(1);
        // One line: the name and the button share it; the navigation is folded away.
        expect(await headerHeight(page), `header at ${width} px`).toBeLessThanOrEqual(64);
        expect(await menuButton(page).getAttribute('aria-expanded')).toBe('false');
        expect(await mainNav(page).isVisible()).toBe(false);
        // The list fits the width: no sideways scrolling; each row says what its date is.
        expect(await pageWidth(page), `page width at ${width} px`).toBeLessThanOrEqual(width);
        const sent = page.getByRole('row', { name: /Sent contract/ });
        const label = await page.evaluate(`(() => {
          const row = [...document.querySelectorAll('tbody tr')].find((tr) => tr.textContent.includes('Sent contract'));
          return getComputedStyle(row.querySelector('td[data-label]'), '::before').content;
        })()`);
        expect(label).toBe('"Sent or created: "');
        const rowBox = await sent.boundingBox();
        expect(rowBox && rowBox.x + rowBox.width).toBeLessThanOrEqual(width);
        // The filters are one sideways row each, so the list starts on the first screen; the search box keeps the margin.
        const height = options.viewport?.height ?? 0;
        const firstRow = await page.locator('tbody tr').first().boundingBox();
        expect(firstRow?.y ?? Number.POSITIVE_INFINITY, `first row at ${width} px`).toBeLessThan(height);
        const search = await page.getByRole('searchbox').boundingBox();
        const content = await page.locator('main .ws-page').first().boundingBox();
        expect(search && search.x + search.width, `search box at ${width} px`).toBeLessThanOrEqual(
          (content?.x ?? 0) + (content?.width ?? width) + 0.5,
        );
        await expectNoAxeViolations(page, `dashboard at ${width} px, menu closed`);
        await screenshot(page, `workspace-phone-${width}-closed`);

        await menuButton(page).tap();
        expect(await menuButton(page).getAttribute('aria-expanded')).toBe('true');
        await expectWorkspaceLayout(page);
        await page.getByText('Signed in as Pat Phone').waitFor();
        await expectNoAxeViolations(page, `dashboard at ${width} px, menu open`);
        await screenshot(page, `workspace-phone-${width}-open`);

        // Escape closes it and gives the focus back to the button.
        await page.keyboard.press('Escape');
        expect(await menuButton(page).getAttribute('aria-expanded')).toBe('false');
        expect(await focused(page)).toBe('BUTTON Menu');

        // A link in the menu goes there and the menu closes behind it.
        await menuButton(page).tap();
        await mainNav(page).getByRole('link', { name: 'Templates', exact: true }).tap();
        await page.waitForURL(`${baseUrl}/templates`);
        await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor();
        expect(await menuButton(page).getAttribute('aria-expanded')).toBe('false');
        expect(await mainNav(page).isVisible()).toBe(false);
        expect(await headerHeight(page)).toBeLessThanOrEqual(64);
        // The templates and the members become lists too.
        await page.getByRole('row', { name: /Lease template/ }).waitFor();
        expect(await pageWidth(page), `templates at ${width} px`).toBeLessThanOrEqual(width);
        await expectNoAxeViolations(page, `templates at ${width} px`);
        await screenshot(page, `workspace-phone-${width}-templates`);
        await menuButton(page).tap();
        await mainNav(page).getByRole('link', { name: 'Organization', exact: true }).tap();
        await page.getByRole('row', { name: /Pat Phone/ }).waitFor();
        expect(await pageWidth(page), `members at ${width} px`).toBeLessThanOrEqual(width);
        await screenshot(page, `workspace-phone-${width}-members`);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }
  });

  it('on a desktop: the product name, the navigation and the account in one line, no Menu button', async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, '/');
      await page.getByRole('table').waitFor();
      await expectWorkspaceLayout(page);
      expect(await page.getByRole('banner').getByRole('link', { name: 'Signature Service' }).count()).toBe(1);
      expect(await menuButton(page).count()).toBe(0);
      expect(await headerHeight(page)).toBeLessThanOrEqual(64);
      // The table stays a table with its column headers on a wide screen.
      expect(await page.getByRole('columnheader', { name: 'Sent or created' }).isVisible()).toBe(true);
      await screenshot(page, 'workspace-desktop-header');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe("the dashboard's row menu", () => {
  for (const [device, options, name] of [
    ['phone', PHONE, 'Sent offer'],
    ['desktop', DESKTOP, 'Sent quote'],
  ] as const) {
    it(`on a ${device}: the owner voids a sent envelope with a reason, after a confirmation`, async () => {
      const { page, problems, close } = await openPage(browser, options);
      try {
        await signInThrough(page, baseUrl, owner, '/');
        const row = page.getByRole('row', { name: new RegExp(name) });
        await row.waitFor();
        // A draft's menu only opens it: voiding is for sent envelopes.
        const draftRow = page.getByRole('row', { name: /Draft lease/ });
        await draftRow.locator('summary', { hasText: 'Actions for Draft lease' }).click();
        await draftRow.getByRole('link', { name: /^Open Draft lease/ }).waitFor();
        expect(await draftRow.getByRole('button', { name: /^Void envelope/ }).count()).toBe(0);

        await row.locator('summary', { hasText: `Actions for ${name}` }).click();
        await row.getByRole('button', { name: `Void envelope ${name}` }).click();
        const dialog = page.getByRole('dialog', { name: `Void this envelope: ${name}?` });
        await dialog.waitFor();
        await expectNoAxeViolations(page, `row menu void dialog on a ${device}`);
        await dialog.getByRole('button', { name: 'Void envelope' }).click();
        await dialog.getByRole('alert').filter({ hasText: 'Give a reason.' }).waitFor();
        await dialog.getByLabel('Reason (mailed to the recipients)').fill('Sent to the wrong customer');
        await screenshot(page, `workspace-row-void-${device}`);
        await dialog.getByRole('button', { name: 'Void envelope' }).click();
        await page.getByRole('status').filter({ hasText: 'The envelope is voided.' }).waitFor();
        await page
          .getByRole('row', { name: new RegExp(name) })
          .getByText('Voided')
          .waitFor();
        const [stored] = await t.platform.db
          .select({ status: workflows.status })
          .from(workflows)
          .where(eq(workflows.id, voidable.get(name) ?? 0));
        expect(stored.status).toBe('VOID');
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  }
});

describe('screen changes', () => {
  for (const [device, options] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`on a ${device}: a slow list shows the shape of its rows, then the rows`, async () => {
      const { page, problems, close } = await openPage(browser, options);
      try {
        await signInThrough(page, baseUrl, owner, '/templates');
        await page.getByRole('row', { name: /Lease template/ }).waitFor();
        // The list answers slowly: going to the documents shows the list's skeleton, announced once as loading.
        let release = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        await page.route(/\/document\/v1\?/, async (route) => {
          await held;
          await route.continue();
        });
        if (device === 'phone') await menuButton(page).tap();
        await mainNav(page).getByRole('link', { name: 'Documents', exact: true }).click();
        // (The page's code may still be arriving first: its own skeleton, then the page's heading over the rows' one.)
        await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
        const skeleton = page.locator('[aria-busy="true"][role="status"]');
        await skeleton.waitFor();
        expect(await skeleton.textContent()).toBe('Loading…');
        expect(await skeleton.locator('.sk-row').count()).toBeGreaterThan(3);
        await expectNoAxeViolations(page, `dashboard skeleton on a ${device}`);
        await screenshot(page, `workspace-skeleton-${device}`);
        release();
        await page.getByRole('row', { name: /Sent contract/ }).waitFor();
        expect(await skeleton.count()).toBe(0);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  }

  it("on a phone: the organization's members and the profile show the shape of what is coming, then it", async () => {
    const { page, problems, close } = await openPage(browser, PHONE);
    try {
      await signInThrough(page, baseUrl, owner, '/templates');
      await page.getByRole('row', { name: /Lease template/ }).waitFor();
      for (const [pattern, link, ready] of [
        [/\/organization\/v1\/users/, 'Organization', () => page.getByRole('row', { name: /Pat Phone/ })],
        [
          /\/user\/v1\/settings\/profile$/,
          'Profile',
          () => page.getByRole('heading', { level: 2, name: 'Your account' }),
        ],
      ] as const) {
        let release = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        await page.route(pattern, async (route) => {
          await held;
          await route.continue();
        });
        await menuButton(page).tap();
        await page.getByRole('link', { name: link, exact: true }).first().tap();
        // The page's code may arrive first with its own skeleton; then the page's heading over the section's shapes.
        await page.getByRole('heading', { level: 1, name: link }).waitFor();
        const skeleton = page.locator('[aria-busy="true"][role="status"]');
        await skeleton.first().waitFor();
        expect(await skeleton.first().textContent()).toBe('Loading…');
        await expectNoAxeViolations(page, `${link} skeleton`);
        await screenshot(page, `workspace-skeleton-${link.toLowerCase()}`);
        release();
        await ready().waitFor();
        await expect.poll(() => skeleton.count()).toBe(0);
        await page.unroute(pattern);
      }
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
