import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import { saveAll, tokenFromMail, waitForSeal } from '../helpers/ceremony.ts';
import {
  DESKTOP,
  PHONE,
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  screenshot,
  sendEnvelope,
  sender,
  startService,
} from './browser.ts';
import { signInThrough } from './workspace-kit.ts';

// The envelope page shows its documents as pictures of their pages, with each field where it was placed.
vi.setConfig({ testTimeout: 180_000 });

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let owner: TestUser;
let sentId: number;
let completedId: number;
const SIGNATURE_BOX = { x: 300, y: 600, width: 200, height: 50 };

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  browser = await launchBrowser();
  owner = await sender(t);
  const sent = await sendEnvelope(t, owner, {
    title: 'Lease with pages',
    pages: 2,
    recipients: [
      {
        name: 'Ann Able',
        email: 'ann.able@example.com',
        fields: [{ fieldType: 'SIGNATURE', fieldRequired: true, box: SIGNATURE_BOX }, { fieldType: 'DATE' }],
      },
      { name: 'Bob Baker', email: 'bob.baker@example.com', fields: [{ fieldType: 'TEXT', pageNo: 2 }] },
    ],
  });
  sentId = sent.workflowId;
  const done = await sendEnvelope(t, owner, {
    title: 'Finished lease',
    recipients: [{ name: 'Cy Cole', email: 'cy.cole@example.com', fields: [{ fieldType: 'SIGNATURE' }] }],
  });
  completedId = done.workflowId;
  // Cy signs, the envelope completes and is sealed: its pages are the sealed file's.
  await t.drainJobs();
  const token = await tokenFromMail(t, 'cy.cole@example.com');
  const saved = await saveAll(t, token, done.documentId, Object.values(done.fieldIds[0]));
  expect(saved.status, saved.raw).toBe(200);
  expect((await waitForSeal(t, completedId)).sealStatus).toBe('SEALED');
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const pages = (page: Page) => page.getByRole('region', { name: 'Documents' });
/** Scrolls to a page's picture (its placeholder says it is loading until it comes near the screen) and waits for it. */
async function reach(page: Page, name: string): Promise<void> {
  const picture = pages(page).getByRole('img', { name: new RegExp(`^${name}`) });
  // The placeholder may turn into the picture while it scrolls: then it is there already.
  await picture.scrollIntoViewIfNeeded().catch(() => picture.scrollIntoViewIfNeeded());
  await pages(page).getByRole('img', { name, exact: true }).waitFor();
}

describe('the envelope page shows the documents', () => {
  for (const [device, options] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`on a ${device}: each page's picture, each field boxed where it was placed and named with its recipient`, async () => {
      const { page, problems, close } = await openPage(browser, options);
      try {
        await signInThrough(page, baseUrl, owner, `/envelopes/${sentId}`);
        const first = pages(page).getByRole('img', { name: 'Page 1 of 2, Service agreement', exact: true });
        await reach(page, 'Page 1 of 2, Service agreement');
        await expect.poll(() => first.evaluate((img: any) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
        // Screen readers get the fields as the page's caption; the eye gets the boxes.
        await pages(page)
          .getByText(/2 fields on this page: Signature for Ann Able \(required\); Date for Ann Able/)
          .waitFor();
        const box = pages(page).locator('.ws-page-field[title="Signature for Ann Able"]');
        // The whole label where it fits (a desktop), else the type and the initials (a phone).
        const [shown, hidden] = device === 'desktop' ? ['long', 'short'] : ['short', 'long'];
        expect(await box.locator(`.ws-page-field-${shown}`).innerText()).toBe(
          device === 'desktop' ? 'Signature for Ann Able' : 'Signature · AA',
        );
        expect(await box.locator(`.ws-page-field-${hidden}`).isVisible()).toBe(false);
        // The box sits where the field is: the field's points scaled to the picture (the contract is A4, 595.28 pt wide).
        const picture = await first.boundingBox();
        const drawn = await box.boundingBox();
        if (!picture || !drawn) throw new Error('no boxes');
        const scale = picture.width / 595.28;
        expect(Math.abs(drawn.x - (picture.x + SIGNATURE_BOX.x * scale))).toBeLessThan(1.5);
        expect(Math.abs(drawn.y - (picture.y + SIGNATURE_BOX.y * scale))).toBeLessThan(1.5);
        expect(Math.abs(drawn.width - SIGNATURE_BOX.width * scale)).toBeLessThan(1.5);
        expect(Math.abs(drawn.height - SIGNATURE_BOX.height * scale)).toBeLessThan(1.5);
        // Page 2 is fetched when it comes near the screen, with Bob's field on it.
        await reach(page, 'Page 2 of 2, Service agreement');
        await pages(page)
          .getByText(/1 field on this page: Text for Bob Baker/)
          .waitFor();
        await first.scrollIntoViewIfNeeded();
        await expectNoAxeViolations(page, `envelope pages on a ${device}`);
        await screenshot(page, `workspace-envelope-pages-${device}`);
        const width = options.viewport?.width ?? 0;
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  }

  it('a finished envelope shows its pages without boxes over them', async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, `/envelopes/${completedId}`);
      await reach(page, 'Page 1 of 1, Service agreement');
      await pages(page).getByText('The sealed pages, every value in place.').waitFor();
      expect(await pages(page).locator('.ws-page-field').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
