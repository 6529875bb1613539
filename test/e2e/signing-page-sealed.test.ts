import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import { waitForSeal, workflowRow } from '../helpers/ceremony.ts';
import {
  SCREENSHOT_DIR,
  drawOn,
  expectNoAxeViolations,
  launchBrowser,
  mailedLink,
  openPage,
  screenshot,
  sender,
  sendEnvelope,
  startService,
} from './browser.ts';

/**
 * Issue 33, item 3: a finished envelope shows its sealed pages only (no field drawn over them), and a value drawn over
 * a page while signing sits where the seal then draws it: both are rendered and the boxes of their ink compared.
 */

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

/** The contract is A4; its text ends about 140 pt from the top, so the fields below sit on white. */
const A4_WIDTH = 595.28;
const BOXES = {
  Signature: { x: 56, y: 160, width: 220, height: 50 },
  Reference: { x: 300, y: 160, width: 200, height: 40 },
  Company: { x: 56, y: 222, width: 200, height: 24 },
  'Signed on': { x: 300, y: 222, width: 180, height: 24 },
  'I agree': { x: 56, y: 256, width: 18, height: 18 },
} as const;
type Label = keyof typeof BOXES;
/** The contract's heading, drawn by pdf.js in both renderings: the two screenshots are aligned on it. */
const ANCHOR = { x: 50, y: 36, width: 260, height: 36 };
type Rect = { left: number; top: number; right: number; bottom: number };

const VIEWPORTS: [string, BrowserContextOptions][] = [
  // Phone: a 390 px wide screen at 3 device pixels per CSS pixel (a point is about two screenshot pixels).
  ['phone', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true }],
  ['desktop', { viewport: { width: 1280, height: 800 } }],
];

/** The first page's element: its rectangle in CSS pixels and points per CSS pixel. */
async function pageGeometry(page: Page) {
  const element = page.getByRole('region', { name: 'Page 1 of 1' });
  await element.evaluate((el: any) => el.scrollIntoView({ block: 'start' }));
  const rect = (await element.boundingBox())!;
  return { rect, pointsPerPixel: A4_WIDTH / rect.width };
}

/**
 * The bounding box of the ink (pixels clearly darker than the paper) inside each field's box, grown by 4 pt, in
 * points from the page's top-left: what a person sees drawn there, whether by the page (overlays) or by the seal.
 */
async function inkBoxes(page: Page, name: string): Promise<Record<Label | 'anchor', Rect>> {
  const { rect, pointsPerPixel } = await pageGeometry(page);
  const viewport = page.viewportSize()!;
  const clip = {
    x: rect.x,
    y: Math.max(0, rect.y),
    width: rect.width,
    height: Math.min(rect.height, viewport.height - Math.max(0, rect.y)),
  };
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const png = PNG.sync.read(await page.screenshot({ clip, path: file }));
  const devicePerCss = png.width / clip.width;
  // Screenshot pixels per point, and the offset of the clip within the page (when the page top is scrolled away).
  const perPoint = devicePerCss / pointsPerPixel;
  const offsetY = (clip.y - rect.y) * pointsPerPixel;
  const result = {} as Record<Label | 'anchor', Rect>;
  for (const [label, box] of [...Object.entries(BOXES), ['anchor', ANCHOR]] as [Label, (typeof BOXES)[Label]][]) {
    const x0 = Math.max(0, Math.floor((box.x - 4) * perPoint));
    const x1 = Math.min(png.width, Math.ceil((box.x + box.width + 4) * perPoint));
    const y0 = Math.max(0, Math.floor((box.y - 4 - offsetY) * perPoint));
    const y1 = Math.min(png.height, Math.ceil((box.y + box.height + 4 - offsetY) * perPoint));
    expect(y1, `${label} is not on screen in ${name}`).toBeGreaterThan(y0);
    const ink = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++) {
        const i = (y * png.width + x) * 4;
        const luminance = 0.299 * png.data[i] + 0.587 * png.data[i + 1] + 0.114 * png.data[i + 2];
        if (luminance >= 140) continue;
        ink.left = Math.min(ink.left, x);
        ink.right = Math.max(ink.right, x + 1);
        ink.top = Math.min(ink.top, y);
        ink.bottom = Math.max(ink.bottom, y + 1);
      }
    expect(ink.right, `no ink in ${label} in ${name}`).toBeGreaterThan(ink.left);
    result[label] = {
      left: ink.left / perPoint,
      right: ink.right / perPoint,
      top: ink.top / perPoint + offsetY,
      bottom: ink.bottom / perPoint + offsetY,
    };
  }
  return result;
}

/**
 * Hides the field boxes' own marks (outline and tint) so only the values' ink is measured: a rule added through the
 * CSSOM, which the page's Content-Security-Policy allows. Returns the function that removes it again.
 */
async function hideFieldMarks(page: Page): Promise<() => Promise<void>> {
  await page.evaluate(`(() => {
    const sheet = [...document.styleSheets].find((s) => s.href && s.href.includes('/app/assets/'));
    sheet.insertRule('.field, .field::before { background: transparent !important; border-color: transparent !important; outline: none !important; }', sheet.cssRules.length);
  })()`);
  return async () => {
    await page.evaluate(`(() => {
      const sheet = [...document.styleSheets].find((s) => s.href && s.href.includes('/app/assets/'));
      sheet.deleteRule(sheet.cssRules.length - 1);
    })()`);
  };
}

describe('the signing page over a sealed document', () => {
  for (const [device, options] of VIEWPORTS) {
    it(`${device}: a value drawn over the page sits where the seal draws it; reopened, the sealed pages alone`, async () => {
      const email = `${device}.sealed@example.com`;
      const env = await sendEnvelope(t, owner, {
        title: `Sealed pages (${device})`,
        recipients: [
          {
            name: 'Sue Sealed',
            email,
            fields: [
              { fieldType: 'SIGNATURE', label: 'Signature', box: BOXES.Signature },
              {
                fieldType: 'TEXT',
                fieldRequired: true,
                label: 'Reference',
                box: BOXES.Reference,
                // The sender's styling: the seal's size, face, alignment and underline, mirrored by the overlay.
                styling: {
                  textAlign: 'right',
                  fontSize: 16,
                  fontFamily: 'Times New Roman',
                  bold: true,
                  underline: true,
                },
              },
              { fieldType: 'TEXT', fieldRequired: true, label: 'Company', box: BOXES.Company },
              { fieldType: 'DATE', fieldRequired: true, label: 'Signed on', box: BOXES['Signed on'] },
              { fieldType: 'CHECKBOX', fieldRequired: true, label: 'I agree', box: BOXES['I agree'] },
            ],
          },
        ],
      });
      const ids = env.fieldIds[0] as Record<Label, number>;
      const link = await mailedLink(t, email);
      const { page, problems, close } = await openPage(browser, options);
      try {
        await page.goto(link);
        await page.getByRole('button', { name: 'I agree, continue' }).click();
        await page.getByRole('button', { name: 'Go to the first field' }).click();
        await page.getByRole('img', { name: /Drawing area for your signature/ }).waitFor();
        await drawOn(page, /Drawing area for your signature/);
        await page.getByRole('button', { name: 'Use this signature' }).click();
        await page.getByRole('textbox', { name: 'Reference (required)' }).fill('REF-42');
        await page.getByRole('button', { name: 'Next field' }).click();
        await page.getByRole('textbox', { name: 'Company (required)' }).fill('Acme Ltd');
        await page.getByRole('button', { name: 'Next field' }).click();
        await page.getByLabel('Signed on (required)').fill('2026-03-14');
        await page.getByRole('button', { name: 'Next field' }).click();
        await page.getByRole('checkbox', { name: 'I agree (required)' }).check();
        await page.getByRole('button', { name: 'Next field' }).click();
        await expect.poll(() => page.getByText('All required fields are done.').count()).toBeGreaterThan(0);
        // pdf.js has drawn the page (not the server's early picture).
        await expect.poll(() => page.locator('.page img.page-canvas').count()).toBe(0);

        // Each box is where the field is stored, in points of the page.
        const { rect, pointsPerPixel } = await pageGeometry(page);
        // A point, or a CSS pixel and a quarter when that is more (the two renderings anti-alias a stroke's edge
        // differently, and one CSS pixel is 1.5 pt on this phone): what a person could tell apart.
        const tolerance = Math.max(1, 1.25 * pointsPerPixel);
        for (const [label, box] of Object.entries(BOXES) as [Label, (typeof BOXES)[Label]][]) {
          const shown = (await page.locator(`#field-${ids[label]}`).boundingBox())!;
          const inPoints = {
            x: (shown.x - rect.x) * pointsPerPixel,
            y: (shown.y - rect.y) * pointsPerPixel,
            width: shown.width * pointsPerPixel,
            height: shown.height * pointsPerPixel,
          };
          for (const key of ['x', 'y', 'width', 'height'] as const)
            expect(Math.abs(inPoints[key] - box[key]), `${label} ${key}: ${JSON.stringify(inPoints)}`).toBeLessThan(1);
        }
        // The date as the seal writes it (the field's language, English by default).
        expect(await page.locator(`#field-${ids['Signed on']} text`).textContent()).toBe('March 14, 2026');

        await screenshot(page, `sealed-${device}-1-filled-unsigned`);
        await expectNoAxeViolations(page, `${device}, filled, not yet signed`);
        const showMarks = await hideFieldMarks(page);
        const overlays = await inkBoxes(page, `sealed-${device}-1-filled-values-only`);
        await showMarks();

        await page.getByRole('button', { name: 'Finish and sign' }).click();
        await page.getByRole('heading', { name: 'Thank you, you have signed' }).waitFor();
        expect((await workflowRow(t, env.workflowId)).status).toBe('COMPLETED');
        expect((await waitForSeal(t, env.workflowId)).sealStatus).toBe('SEALED');
        await page.getByRole('button', { name: /Download Service agreement/ }).waitFor({ timeout: 20_000 });
        // Once sealed, the page shows the sealed file in place of the source and draws no field over it.
        await expect.poll(() => page.locator('.page .field').count(), { timeout: 10_000 }).toBe(0);
        await expect
          .poll(() => page.getByRole('region', { name: 'Page 1 of 1' }).getByText('Acme Ltd').count(), {
            timeout: 10_000,
          })
          .toBeGreaterThan(0);
        await screenshot(page, `sealed-${device}-2-signed-here`);
        await expectNoAxeViolations(page, `${device}, signed, sealed in place`);

        // Reopening the link (a new tab): the sealed pages only, each value once.
        const reopened = await page.context().newPage();
        const reopenedProblems: string[] = [];
        reopened.on('pageerror', (error) => reopenedProblems.push(`page error: ${error.message}`));
        reopened.on('console', (message) => {
          if (message.type() === 'error' && /Content.Security.Policy|Refused to/i.test(message.text()))
            reopenedProblems.push(`console: ${message.text()}`);
        });
        await reopened.goto(link);
        await reopened.getByRole('button', { name: /Download Service agreement/ }).waitFor({ timeout: 20_000 });
        await expect.poll(() => reopened.locator('.page img.page-canvas').count(), { timeout: 10_000 }).toBe(0);
        await reopened.locator('.page[data-rendered="true"]').first().waitFor();
        expect(await reopened.locator('.page .field').count()).toBe(0);
        // What was written is the document's own text now, readable in its text layer.
        const sealedPage = reopened.getByRole('region', { name: 'Page 1 of 1' });
        await expect.poll(() => sealedPage.getByText('Acme Ltd').count()).toBeGreaterThan(0);
        await expect.poll(() => sealedPage.getByText('March 14, 2026').count()).toBeGreaterThan(0);
        await screenshot(reopened, `sealed-${device}-3-reopened-completed`);
        await pageGeometry(reopened);
        await screenshot(reopened, `sealed-${device}-3-reopened-completed-page`);
        await expectNoAxeViolations(reopened, `${device}, reopened, completed`);
        const stamps = await inkBoxes(reopened, `sealed-${device}-3-reopened-sealed-page`);

        // The overlay and the stamp of each field coincide (the screenshots aligned on the page's own heading first,
        // which both draw the same: it takes out where each screenshot's clip fell in device pixels).
        const dx = stamps.anchor.left - overlays.anchor.left;
        const dy = stamps.anchor.top - overlays.anchor.top;
        expect(Math.abs(dx) + Math.abs(dy), 'the pages themselves are where they were').toBeLessThan(2);
        for (const label of Object.keys(BOXES) as Label[]) {
          const message = `${label}: overlay ${JSON.stringify(overlays[label])}, stamp ${JSON.stringify(stamps[label])}`;
          for (const edge of ['left', 'top', 'right', 'bottom'] as const) {
            const shift = edge === 'left' || edge === 'right' ? dx : dy;
            expect(
              Math.abs(overlays[label][edge] + shift - stamps[label][edge]),
              `${edge} of ${message}`,
            ).toBeLessThanOrEqual(tolerance);
          }
        }
        expect(problems).toEqual([]);
        expect(reopenedProblems).toEqual([]);
      } finally {
        await close();
      }
    });
  }
});
