/**
 * Every screen of the sender's workspace in each of the eight languages is axe-clean, has its own language in <html
 * lang> and a level-one heading, and scrolls nowhere sideways (issue: "axe stays at zero serious or critical on every
 * screen in every language"). The signing page and the sign-in page are swept in signing-page-languages.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { markSent } from '../helpers/envelope-states.ts';
import { createTemplate } from '../templates/template-helpers.ts';
import { DESKTOP, expectNoAxeViolations, launchBrowser, openPage, startService } from './browser.ts';
import { signInThrough } from './workspace-kit.ts';

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let owner: TestUser;
let screens: string[];

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  browser = await launchBrowser();
  owner = await createUser(t, { name: 'Lea Languages' });
  const other = await createUser(t, { name: 'Oskar Other' });
  const draft = await createDraftWorkflow(t, owner, { name: 'Draft lease' });
  const { workflow } = await createDraftWorkflow(t, owner, { name: 'Sent contract', sequence: 'UNORDERED' });
  const row = await insertRecipient(t, workflow.id, { userId: other.userId, name: other.name, email: other.email });
  const template = await createTemplate(t, owner.token, { name: 'Lease template', workflowId: workflow.id });
  await markSent(t, workflow.id, [row.id]);
  screens = [
    '/',
    `/envelopes/${workflow.id}`,
    '/envelopes/new',
    `/envelopes/${draft.workflow.id}/edit`,
    `/envelopes/${draft.workflow.id}/edit?step=fields`,
    '/templates',
    `/templates/${template.id}/analytics`,
    ...['members', 'roles', 'billing', 'branding', 'mail', 'apps', 'webhooks'].map((s) => `/organization/${s}`),
    ...['account', 'security', 'signatures'].map((s) => `/profile/${s}`),
  ];
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function settle(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
  await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
}

describe('every workspace screen in every language', () => {
  for (const language of ['de', 'fr', 'es', 'it', 'nl', 'pt', 'pl', 'en']) {
    it(`in ${language}`, { timeout: 240_000 }, async () => {
      const { page, problems, close } = await openPage(browser, DESKTOP);
      try {
        await signInThrough(page, baseUrl, owner, '/');
        await page.evaluate(`localStorage.setItem('language', '${language}')`);
        for (const screen of screens) {
          await page.goto(`${baseUrl}${screen}`);
          await settle(page);
          expect(await page.evaluate('document.documentElement.lang'), screen).toBe(language);
          expect(await page.evaluate('document.documentElement.scrollWidth'), screen).toBeLessThanOrEqual(1280);
          await expectNoAxeViolations(page, `${screen} in ${language}`);
        }
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  }
});
