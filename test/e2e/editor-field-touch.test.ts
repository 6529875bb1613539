/**
 * Placing fields by touch and by mouse, and who fills each field shown in words. On a phone (real touch input: taps
 * through playwright's touchscreen, drags as DevTools touch events): a tap on a palette type arms it and a tap on the
 * page places it there; the placed field is moved and resized with a finger; a type dragged from the palette, the
 * window scrolling at its bottom edge, lands where the finger lifts. On a desktop the mouse does the same as before.
 * Every position is checked in what the service's API answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions, CDPSession, Locator, Page } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { uploadFile } from '../helpers/documents.ts';
import { addField, addRecipients } from '../helpers/recipients.ts';
import { contractPdf, expectNoAxeViolations, launchBrowser, openPage, screenshot, startService } from './browser.ts';
import { dragFieldOnto, expectSaved, signInInBrowser } from './editor-helpers.ts';

const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
/** contractPdf's pages are A4: the width in points the editor measures boxes against. */
const A4_WIDTH = 595.28;
/** How far a stored position may be from where the finger or the mouse was (points). */
const CLOSE = 3;

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let owner: TestUser;

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  owner = await createUser(t, { name: 'Tess Touch' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

type Box = { x: number; y: number; width: number; height: number };
type StoredField = { id: number; fieldType: string; pageNo: number; box: Box };

/** The fields as the service's API gives them to the editor. */
async function apiFields(workflowId: number): Promise<StoredField[]> {
  const response = await t.request('GET', `/workflow/v1/${workflowId}/all-fields`, { token: owner.token });
  expect(response.status, response.raw).toBe(200);
  return (response.body as StoredField[]).sort((a, b) => a.id - b.id);
}

/** A draft with one A4 contract page, Ann Able (who gets the new fields) and Ben Brown with a checkbox and a date. */
async function draft(name: string) {
  // Uploaded as a sender would, so the service knows the page's real (A4) size.
  const upload = await uploadFile(t, owner.token, `${name}.pdf`, await contractPdf(1), {
    query: { sequence: 'UNORDERED', signType: 'COUNTERSIGN' },
  });
  expect(upload.status, upload.raw).toBe(201);
  const { id: documentId, workflowId } = upload.body as { id: number; workflowId: number };
  const [, ben] = await addRecipients(t, owner.token, workflowId, [
    { name: 'Ann Able', emailAddress: 'ann.touch@example.com', useDigitalCert: false, recipientColor: '#1A56DB' },
    { name: 'Ben Brown', emailAddress: 'ben.touch@example.com', useDigitalCert: false, recipientColor: '#C2410C' },
  ]);
  const base = { recipientId: ben.id, pageNo: 1, fieldRequired: false };
  await addField(t, owner.token, documentId, {
    ...base,
    fieldType: 'CHECKBOX',
    box: { x: 60, y: 600, width: 20, height: 20 },
  });
  await addField(t, owner.token, documentId, {
    ...base,
    fieldType: 'DATE',
    box: { x: 360, y: 600, width: 120, height: 24 },
  });
  return workflowId;
}

async function openFieldsStep(page: Page, workflowId: number): Promise<Locator> {
  await signInInBrowser(page, baseUrl, owner, `/envelopes/${workflowId}/edit?step=fields`);
  const sheet = page.getByRole('group', { name: 'Page 1 of 1' });
  await sheet.and(page.locator('[data-rendered="true"]')).waitFor();
  return sheet;
}

const palette = (page: Page, type: string) =>
  page.getByRole('complementary', { name: 'Add a field' }).getByRole('button', { name: type, exact: true });

/** The element's box once it has stopped moving (a smooth scroll may be under way). */
async function settledBox(locator: Locator): Promise<Box> {
  let last = (await locator.boundingBox())!;
  for (let i = 0; i < 40; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = (await locator.boundingBox())!;
    if (now.x === last.x && now.y === last.y && now.width === last.width) return now;
    last = now;
  }
  return last;
}

/** A point of the screen in the page's points (from its top-left), given the page's box on the screen. */
const toPoints = (sheet: Box, x: number, y: number) => {
  const perPx = A4_WIDTH / sheet.width;
  return { x: (x - sheet.x) * perPx, y: (y - sheet.y) * perPx, perPx };
};

const centreOf = (box: Box) => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });

/** A finger drag: down at `from`, `steps` moves to `to`, lifted there (real touch events, pointerType "touch"). */
async function fingerDrag(cdp: CDPSession, from: { x: number; y: number }, to: { x: number; y: number }, steps = 12) {
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
  for (let i = 1; i <= steps; i++)
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: [{ x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps }],
    });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/** The bar shown while a type is armed: its instruction. */
const placingBar = (page: Page) => page.getByRole('paragraph').filter({ hasText: /^Tap the page where/ });

/** What the "who fills it" badge of a field shows (name or initials, drawn by CSS from data-who). */
const whoTag = (field: Locator) => ({
  textContent: () =>
    field
      .locator('.ed-field-who')
      .evaluate((el: any) =>
        el.ownerDocument.defaultView.getComputedStyle(el, '::before').content.replace(/^"|"$/g, ''),
      ),
});

describe('placing fields by touch and by mouse, each naming who fills it', () => {
  it('on a phone: tap to arm then tap to place, move and resize by finger, drag from the palette', {
    timeout: 180_000,
  }, async () => {
    const workflowId = await draft('Touch contract');
    const { page, problems, close } = await openPage(browser, PHONE);
    try {
      const sheet = await openFieldsStep(page, workflowId);
      const cdp = await page.context().newCDPSession(page);

      // A tap on "Signature" arms it: no field yet, the bar says what to do, the page comes into view.
      const signature = palette(page, 'Signature');
      await signature.scrollIntoViewIfNeeded();
      const button = await settledBox(signature);
      await page.touchscreen.tap(button.x + button.width / 2, button.y + button.height / 2);
      await placingBar(page).filter({ hasText: 'Tap the page where the Signature for Ann Able goes.' }).waitFor();
      expect(await apiFields(workflowId)).toHaveLength(2);
      const shown = await settledBox(sheet);
      expect(shown.y).toBeLessThan(844 / 2);
      await screenshot(page, 'editor-field-touch-phone-1-armed');

      // The next tap on the page places it centred there.
      const tapX = shown.x + shown.width * 0.55;
      const tapY = shown.y + shown.height * 0.42;
      await page.touchscreen.tap(tapX, tapY);
      const placedName = 'Signature for Ann Able, page 1, required';
      const field = page.getByRole('button', { name: placedName });
      await field.waitFor();
      await expectSaved(page);
      // (Measured against the page as it was when tapped: the new field is then scrolled to the middle.)
      const tapped = toPoints(shown, tapX, tapY);
      let stored = (await apiFields(workflowId)).find((f) => f.fieldType === 'SIGNATURE')!;
      expect(stored.box.width).toBe(180);
      expect(stored.box.height).toBe(50);
      expect(Math.abs(centreOf(stored.box).x - tapped.x)).toBeLessThan(CLOSE);
      expect(Math.abs(centreOf(stored.box).y - tapped.y)).toBeLessThan(CLOSE);
      expect(await placingBar(page).count()).toBe(0);
      // Narrow on a phone: the initials say who fills it; the accessible name has the whole name.
      expect(await whoTag(field).textContent()).toBe('AA');
      expect(await whoTag(page.getByRole('button', { name: /^Checkbox for Ben Brown/ })).textContent()).toBe('BB');
      await screenshot(page, 'editor-field-touch-phone-2-placed');

      // Moved by a finger on the box.
      const before = stored.box;
      const at = centreOf((await field.boundingBox())!);
      await fingerDrag(cdp, at, { x: at.x + 40, y: at.y + 60 });
      await expectSaved(page);
      const perPx = A4_WIDTH / (await sheet.boundingBox())!.width;
      await expect
        .poll(async () => (await apiFields(workflowId)).find((f) => f.id === stored.id)!.box.y, { timeout: 30_000 })
        .not.toBe(before.y);
      stored = (await apiFields(workflowId)).find((f) => f.id === stored.id)!;
      expect(Math.abs(stored.box.x - (before.x + 40 * perPx))).toBeLessThan(CLOSE);
      expect(Math.abs(stored.box.y - (before.y + 60 * perPx))).toBeLessThan(CLOSE);
      expect(stored.box.width).toBe(180);

      // Resized by a finger on its corner (shown while the field is selected, sized for a finger).
      const handle = field.locator('.ed-field-handle');
      const corner = (await handle.boundingBox())!;
      expect(corner.width).toBeGreaterThanOrEqual(24);
      const grip = centreOf(corner);
      await fingerDrag(cdp, grip, { x: grip.x + 30, y: grip.y + 20 });
      await expectSaved(page);
      await expect
        .poll(async () => (await apiFields(workflowId)).find((f) => f.id === stored.id)!.box.width, { timeout: 30_000 })
        .not.toBe(180);
      const resized = (await apiFields(workflowId)).find((f) => f.id === stored.id)!;
      expect(Math.abs(resized.box.width - (180 + 30 * perPx))).toBeLessThan(CLOSE);
      expect(Math.abs(resized.box.height - (50 + 20 * perPx))).toBeLessThan(CLOSE);
      expect(resized.box.x).toBe(stored.box.x);
      await screenshot(page, 'editor-field-touch-phone-3-resized');

      // Dragged from the palette: the page lies below it, so the finger waits at the bottom edge while the window
      // scrolls, then goes to the spot and lifts.
      const initials = palette(page, 'Initials');
      await initials.scrollIntoViewIfNeeded();
      const from = centreOf(await settledBox(initials));
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
      for (let i = 1; i <= 8; i++)
        await cdp.send('Input.dispatchTouchEvent', {
          type: 'touchMove',
          touchPoints: [{ x: from.x, y: from.y + ((838 - from.y) * i) / 8 }],
        });
      await expect.poll(async () => (await sheet.boundingBox())!.y, { timeout: 45_000 }).toBeLessThan(300);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: 200, y: 420 }] });
      await screenshot(page, 'editor-field-touch-phone-4-dragging');
      const over = await settledBox(sheet);
      const dropX = over.x + over.width * 0.3;
      const dropY = over.y + over.height * 0.2;
      for (let i = 1; i <= 4; i++)
        await cdp.send('Input.dispatchTouchEvent', {
          type: 'touchMove',
          touchPoints: [{ x: 200 + ((dropX - 200) * i) / 4, y: 420 + ((dropY - 420) * i) / 4 }],
        });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      const dropped = page.getByRole('button', { name: 'Initials for Ann Able, page 1, required' });
      await dropped.waitFor();
      await expectSaved(page);
      const landing = toPoints(over, dropX, dropY);
      const initialsField = (await apiFields(workflowId)).find((f) => f.fieldType === 'INITIALS')!;
      expect(Math.abs(centreOf(initialsField.box).x - landing.x)).toBeLessThan(CLOSE);
      expect(Math.abs(centreOf(initialsField.box).y - landing.y)).toBeLessThan(CLOSE);
      await dropped.scrollIntoViewIfNeeded();
      await screenshot(page, 'editor-field-touch-phone-5-dropped');
      await expectNoAxeViolations(page, 'fields placed by touch');

      // Armed and let go: Cancel in the bar places nothing.
      await palette(page, 'Text').scrollIntoViewIfNeeded();
      const text = await settledBox(palette(page, 'Text'));
      await page.touchscreen.tap(text.x + text.width / 2, text.y + text.height / 2);
      await placingBar(page).filter({ hasText: 'Tap the page where the Text for Ann Able goes.' }).waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();
      expect(await placingBar(page).count()).toBe(0);
      expect((await apiFields(workflowId)).map((f) => f.fieldType)).toEqual([
        'CHECKBOX',
        'DATE',
        'SIGNATURE',
        'INITIALS',
      ]);
      await cdp.detach();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('on a desktop: the mouse drops, moves and resizes as before; the name is on the field', {
    timeout: 180_000,
  }, async () => {
    const workflowId = await draft('Mouse contract');
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      const sheet = await openFieldsStep(page, workflowId);

      // Dropped with the mouse: centred under the pointer.
      await dragFieldOnto(page, 'Signature', 'Page 1 of 1', { x: 0.5, y: 0.4 });
      const field = page.getByRole('button', { name: 'Signature for Ann Able, page 1, required' });
      await field.waitFor();
      await expectSaved(page);
      const shown = (await sheet.boundingBox())!;
      const drop = toPoints(shown, shown.x + shown.width * 0.5, shown.y + shown.height * 0.4);
      let stored = (await apiFields(workflowId)).find((f) => f.fieldType === 'SIGNATURE')!;
      expect(Math.abs(centreOf(stored.box).x - drop.x)).toBeLessThan(CLOSE);
      expect(Math.abs(centreOf(stored.box).y - drop.y)).toBeLessThan(CLOSE);
      // Wide enough on a desktop: the whole name beside the type; initials on the narrow checkbox.
      expect(await whoTag(field).textContent()).toBe('Ann Able');
      expect(await whoTag(page.getByRole('button', { name: /^Checkbox for Ben Brown/ })).textContent()).toBe('BB');
      expect(await whoTag(page.getByRole('button', { name: /^Date for Ben Brown/ })).textContent()).toBe('BB');

      // Moved by the mouse.
      const before = stored.box;
      const at = centreOf((await field.boundingBox())!);
      await page.mouse.move(at.x, at.y);
      await page.mouse.down();
      for (let i = 1; i <= 6; i++) await page.mouse.move(at.x + (50 * i) / 6, at.y + (-30 * i) / 6);
      await page.mouse.up();
      await expectSaved(page);
      await expect
        .poll(async () => (await apiFields(workflowId)).find((f) => f.id === stored.id)!.box.x, { timeout: 30_000 })
        .not.toBe(before.x);
      stored = (await apiFields(workflowId)).find((f) => f.id === stored.id)!;
      expect(Math.abs(stored.box.x - (before.x + 50 * drop.perPx))).toBeLessThan(CLOSE);
      expect(Math.abs(stored.box.y - (before.y - 30 * drop.perPx))).toBeLessThan(CLOSE);

      // Resized by the corner; the desktop's corner stays small.
      const handle = field.locator('.ed-field-handle');
      const corner = (await handle.boundingBox())!;
      expect(corner.width).toBeLessThan(20);
      const grip = centreOf(corner);
      await page.mouse.move(grip.x, grip.y);
      await page.mouse.down();
      for (let i = 1; i <= 6; i++) await page.mouse.move(grip.x + (40 * i) / 6, grip.y + (24 * i) / 6);
      await page.mouse.up();
      await expectSaved(page);
      await expect
        .poll(async () => (await apiFields(workflowId)).find((f) => f.id === stored.id)!.box.width, { timeout: 30_000 })
        .not.toBe(180);
      const resized = (await apiFields(workflowId)).find((f) => f.id === stored.id)!;
      expect(Math.abs(resized.box.width - (180 + 40 * drop.perPx))).toBeLessThan(CLOSE);
      expect(Math.abs(resized.box.height - (50 + 24 * drop.perPx))).toBeLessThan(CLOSE);
      await screenshot(page, 'editor-field-touch-desktop-1-placed');

      // A click on a palette type still places it at once, at the first free spot near the top left (no arming).
      await palette(page, 'Text').click();
      await page.getByRole('button', { name: 'Text for Ann Able, page 1' }).waitFor();
      await expectSaved(page);
      expect(await placingBar(page).count()).toBe(0);
      const text = (await apiFields(workflowId)).find((f) => f.fieldType === 'TEXT')!;
      expect(text.box).toEqual({ x: 36, y: 36, width: 180, height: 24 });
      await screenshot(page, 'editor-field-touch-desktop-2-clicked');
      await expectNoAxeViolations(page, 'fields placed by mouse');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
