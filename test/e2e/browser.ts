import { freePort } from '../helpers/free-port.ts';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { PDF } from '@libpdf/core';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import type { Config } from '../../src/config.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { uploadFile } from '../helpers/documents.ts';
import { addField, addRecipients } from '../helpers/recipients.ts';
import { commence } from '../helpers/ceremony.ts';

/** Where the browser tests leave a screenshot of each step (git-ignored). */
export const SCREENSHOT_DIR = path.resolve('test-results/e2e');

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The service on a real loopback port, its mailed links pointing there; `config` adds settings (a CSC provider...). */
export async function startService(config: Partial<Config> = {}): Promise<{ t: TestApp; baseUrl: string }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ ...config, publicUrl: baseUrl });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, baseUrl };
}

/** The browser the global setup chose (test/helpers/tool-setup.ts): CHROMIUM_PATH, Debian's chromium, or the bundled one. */
export async function launchBrowser(): Promise<Browser> {
  const browser = inject('browser');
  return chromium.launch({
    executablePath: browser.executablePath,
    env: { ...process.env, ...browser.env },
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

export const PHONE: BrowserContextOptions = {
  viewport: { width: 320, height: 640 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };

/** A page that fails the test on any script error or Content-Security-Policy violation it reports. */
export async function openPage(
  browser: Browser,
  options: BrowserContextOptions = DESKTOP,
): Promise<{ page: Page; problems: string[]; close(): Promise<void> }> {
  const context = await browser.newContext({ ...options, acceptDownloads: true });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy|Refused to/i.test(message.text()))
      problems.push(`console: ${message.text()}`);
  });
  return { page, problems, close: () => context.close() };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: false });
}

/** Runs axe-core (WCAG 2.x A and AA rules) on the page as it is now; any violation fails with its list. */
export async function expectNoAxeViolations(page: Page, state: string): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  // A string, evaluated in the page: this project's TypeScript has no DOM types (tsconfig lib: es2024).
  const violations = (await page.evaluate(`(async () => {
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } });
    return result.violations.map((v) => v.id + ': ' + v.help + ' (' + v.nodes.map((n) => JSON.stringify(n.target) + ': ' + (n.failureSummary || '')).join(', ') + ')');
  })()`)) as string[];
  expect(violations, `axe violations in state "${state}"`).toEqual([]);
}

/** A contract-like PDF: a heading and a few paragraphs on each page, so the text layer has text to read. */
export async function contractPdf(pages = 1): Promise<Uint8Array> {
  const pdf = PDF.create();
  for (let i = 0; i < pages; i++) {
    const page = pdf.addPage({ size: 'a4' });
    page.drawText(i === 0 ? 'Service Agreement' : `Service Agreement, page ${i + 1}`, { x: 56, y: 780, size: 20 });
    const lines = [
      'This agreement is made between the Provider and the Client named below.',
      'The Provider delivers the services described in Annex A for the fees in Annex B.',
      'Either party may end this agreement with thirty days written notice.',
    ];
    lines.forEach((line, n) => page.drawText(line, { x: 56, y: 740 - n * 18, size: 11 }));
  }
  return pdf.save();
}

export type FieldSpec = {
  fieldType: string;
  fieldRequired?: boolean;
  label?: string;
  options?: string[];
  pageNo?: number;
  box?: { x: number; y: number; width: number; height: number };
  styling?: Record<string, unknown>;
};
export type RecipientSpec = {
  name: string;
  email: string;
  role?: 'SIGNER' | 'APPROVER' | 'CC';
  order?: number;
  enforceIdentity?: boolean;
  recipientPassword?: string;
  useDigitalCert?: boolean;
  fields?: FieldSpec[];
};

/** A DRAFT holding one contract PDF, uploaded as a sender would (so it has its thumbnail; its first page's picture is drawn when first asked for). */
async function draftWithDocument(t: TestApp, owner: TestUser, sequence: 'ORDERED' | 'UNORDERED', pages: number) {
  const response = await uploadFile(t, owner.token, 'Service agreement.pdf', await contractPdf(pages), {
    query: { sequence, signType: 'COUNTERSIGN' },
  });
  expect(response.status, response.raw).toBe(201);
  const { id, workflowId } = response.body as { id: number; workflowId: number };
  return { workflowId, documentId: id };
}

/**
 * An envelope built over the API as a sender would: upload, recipients, fields, commence (with a title and
 * a message). Fields without a box are stacked down page 1.
 */
export async function sendEnvelope(
  t: TestApp,
  owner: TestUser,
  spec: {
    sequence?: 'ORDERED' | 'UNORDERED';
    pages?: number;
    title: string;
    message?: string;
    recipients: RecipientSpec[];
  },
) {
  const { workflowId, documentId } = await draftWithDocument(t, owner, spec.sequence ?? 'UNORDERED', spec.pages ?? 1);
  const colors = ['#1A56DB', '#C2410C', '#047857', '#7E22CE'];
  const rows = await addRecipients(
    t,
    owner.token,
    workflowId,
    spec.recipients.map((r, i) => ({
      name: r.name,
      emailAddress: r.email,
      useDigitalCert: r.useDigitalCert ?? false,
      recipientColor: colors[i % colors.length],
      recipientRole: r.role ?? 'SIGNER',
      recipientOrder: spec.sequence === 'ORDERED' ? (r.order ?? i + 1) : undefined,
      enforceIdentity: r.enforceIdentity ?? false,
      ...(r.recipientPassword ? { recipientPassword: r.recipientPassword } : {}),
    })),
  );
  let y = 230;
  const fieldIds: Record<string, number>[] = [];
  for (const [i, r] of spec.recipients.entries()) {
    const ids: Record<string, number> = {};
    for (const f of r.fields ?? []) {
      const box = f.box ?? {
        x: 56,
        y,
        width: f.fieldType === 'TEXTAREA' ? 300 : 200,
        height: f.fieldType === 'TEXTAREA' ? 60 : 36,
      };
      if (!f.box) y += box.height + 12;
      const created = await addField(t, owner.token, documentId, {
        recipientId: rows[i].id,
        pageNo: f.pageNo ?? 1,
        box,
        fieldType: f.fieldType,
        fieldRequired: f.fieldRequired ?? false,
        label: f.label,
        options: f.options,
        styling: f.styling,
      });
      ids[f.label ?? f.fieldType] = created.id;
    }
    fieldIds.push(ids);
  }
  await commence(t, owner, workflowId, { title: spec.title, message: spec.message });
  return { workflowId, documentId, rows, fieldIds };
}

export async function sender(t: TestApp): Promise<TestUser> {
  return createUser(t, { name: 'Olivia Owner' });
}

/** The signing link of the latest mail of `kind` to `email`, exactly as mailed. */
export async function mailedLink(t: TestApp, email: string, kind = 'COMMENCE'): Promise<string> {
  const mails = await t.mails({ to: email, kind });
  expect(mails.length, `no ${kind} mail to ${email}`).toBeGreaterThan(0);
  const match = /(https?:\/\/\S+\/sign\/[A-Za-z0-9_-]+)/.exec(mails.at(-1)!.textBody);
  expect(match, `no signing link in the mail to ${email}`).not.toBeNull();
  return match![1];
}

/** The 6-digit code of the latest identity-verification mail to `email`. */
export async function mailedCode(t: TestApp, email: string): Promise<string> {
  const mails = await t.mails({ to: email, kind: 'OTP' });
  expect(mails.length, `no code mail to ${email}`).toBeGreaterThan(0);
  return /\b(\d{6})\b/.exec(mails.at(-1)!.textBody)![1];
}

/** Draws a signature-like stroke on the canvas named `name` with mouse or touch-emulating pointer moves. */
export async function drawOn(page: Page, name: string | RegExp): Promise<void> {
  const pad = page.getByRole('img', { name });
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  const x0 = box.x + box.width * 0.1;
  const y0 = box.y + box.height * 0.6;
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  for (let i = 1; i <= 20; i++)
    await page.mouse.move(x0 + (box.width * 0.8 * i) / 20, y0 - Math.sin(i / 2) * box.height * 0.25);
  await page.mouse.up();
}

/**
 * Presses Tab (at most `limit` times) until `target` has the focus, as a keyboard user would move through
 * the page; fails when it never gets there (not reachable by keyboard).
 */
export async function tabTo(page: Page, target: import('playwright-core').Locator, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((element: any) => element === element.ownerDocument.activeElement).catch(() => false))
      return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`not reachable with Tab: ${target}`);
}

/** A finger stroke on the drawing area: real touch events (pointerType "touch") through the DevTools protocol. */
export async function drawWithFinger(page: Page, name: string | RegExp): Promise<void> {
  const pad = page.getByRole('img', { name });
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  const cdp = await page.context().newCDPSession(page);
  const at = (i: number) => ({
    x: box.x + box.width * (0.1 + 0.04 * i),
    y: box.y + box.height * (0.5 + 0.3 * Math.sin(i)),
  });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at(0)] });
  for (let i = 1; i <= 20; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [at(i)] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
  // A person lifts the finger and then taps elsewhere; a tap within milliseconds reads as part of the same gesture.
  await page.waitForTimeout(500);
}

/**
 * Taps `target` until `then` shows. Under a loaded machine a synthetic tap's touch start and end can arrive far
 * enough apart that Chromium reads them as a long press, which clicks nothing; a person would simply tap again.
 * A button that does not work still fails: `then` never shows after the last try.
 */
export async function tapUntil(
  target: import('playwright-core').Locator,
  then: import('playwright-core').Locator,
  tries = 3,
): Promise<void> {
  for (let i = 1; ; i++) {
    await target.tap();
    try {
      await then.waitFor({ timeout: i < tries ? 5000 : 30_000 });
      return;
    } catch (error) {
      if (i >= tries || !(await target.isVisible())) throw error;
    }
  }
}
