/**
 * "New template" starts from a file: upload it, add the recipients (a label makes one a placeholder) and the
 * fields in the editor, and save it as a template; the draft it was built in goes away. Desktop and phone.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import {
  DESKTOP,
  PHONE,
  contractPdf,
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  screenshot,
  startService,
} from './browser.ts';
import { addRecipient, chooseFiles, signInInBrowser } from './editor-helpers.ts';

vi.setConfig({ testTimeout: 180_000 });

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let owner: TestUser;

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  owner = await createUser(t, { name: 'Tess Template' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const SCREENS: [string, BrowserContextOptions][] = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
];

describe('a new template from a file', () => {
  for (const [screen, options] of SCREENS) {
    it(`on ${screen}: upload, recipients with a placeholder, save as template; the draft goes away`, async () => {
      const { page, problems, close } = await openPage(browser, options);
      try {
        await signInInBrowser(page, baseUrl, owner, '/templates');
        await page.getByRole('link', { name: 'New template', exact: true }).click();
        await page.getByRole('heading', { level: 1, name: 'New template' }).waitFor();
        // A template is never self-signed: no "who signs" choice.
        expect(await page.getByRole('radio').count()).toBe(0);
        const file = `Lease ${screen}.pdf`;
        await chooseFiles(page, page.getByRole('button', { name: 'Choose files' }), [
          { name: file, mimeType: 'application/pdf', buffer: Buffer.from(await contractPdf(1)) },
        ]);
        await page.waitForURL(/\/envelopes\/\d+\/edit\?for=template$/);
        const workflowId = Number(/envelopes\/(\d+)/.exec(page.url())?.[1]);
        await page.getByRole('heading', { level: 1, name: 'Prepare template' }).waitFor();
        if (screen === 'desktop')
          expect(
            await page
              .getByRole('navigation', { name: 'Main' })
              .getByRole('link', { name: 'Templates', exact: true })
              .getAttribute('aria-current'),
          ).toBe('page');
        await addRecipient(page, { name: 'Casey Client', email: `casey.${screen}@example.com` });
        await page.getByRole('button', { name: 'Next: Fields' }).click();
        await page.waitForURL(/step=fields&for=template$/);
        await page.getByRole('button', { name: 'Next: Save as template' }).click();
        await page.waitForURL(/step=send&for=template$/);

        const name = page.getByLabel('Template name');
        expect(await name.inputValue()).toBe(`Lease ${screen}`);
        if (screen === 'desktop') {
          await name.fill('');
          await page.getByRole('button', { name: 'Save as template', exact: true }).click();
          await page.getByText('Give the template a name.').waitFor();
          expect(await name.getAttribute('aria-invalid')).toBe('true');
          await name.fill(`Lease ${screen}`);
        }
        await page.getByLabel('Label for recipient 1: Casey Client (Needs to sign)').fill('Client');
        await expectNoAxeViolations(page, `save as template (${screen})`);
        await screenshot(page, `templates-new-from-file-${screen}`);
        await page.getByRole('button', { name: 'Save as template', exact: true }).click();

        await page.waitForURL(/\/templates\?created=/);
        await page
          .getByRole('status')
          .filter({ hasText: `Template Lease ${screen} created.` })
          .waitFor();
        await page.getByRole('row', { name: new RegExp(`Lease ${screen}`) }).waitFor();
        const templates = await t.request('GET', '/organization/v1/templates?page=0&size=20', { token: owner.token });
        const made = templates.body.content.find((x: { name: string }) => x.name === `Lease ${screen}`);
        expect(made?.recipientLabels, JSON.stringify(templates.body)).toMatchObject([{ label: 'Client' }]);
        // The draft was the template's workbench: it is gone from the documents.
        const draft = await t.request('GET', `/document/v1/docs-detail/${workflowId}`, { token: owner.token });
        expect(draft.status, draft.raw).toBe(404);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  }
});
