/**
 * What the envelope editor's browser tests share: signing up and in as a new user would, uploading through
 * the file picker, adding recipients, dragging fields from the palette, and a recipient signing from the mail.
 */
import { expect } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { DESKTOP, drawOn, mailedLink, openPage } from './browser.ts';

export type Person = { name: string; email: string; password: string };

/** /signup, the mailed confirmation link, then sign-in through the service's own page, landing on `landing`. */
export async function signUpInBrowser(
  page: Page,
  t: TestApp,
  baseUrl: string,
  person: Person,
  landing: string,
): Promise<void> {
  await page.goto(`${baseUrl}/signup`);
  await page.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor();
  await page.getByLabel('Your name').fill(person.name);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Check your mail' }).waitFor();

  const mails = await t.mails({ to: person.email, kind: 'EMAIL_VERIFICATION' });
  expect(mails.length, 'no confirmation mail').toBe(1);
  const link = /(https?:\/\/\S+\/verify-email\/[A-Za-z0-9_-]+)/.exec(mails[0].textBody)![1];
  await page.goto(link);
  await page.getByRole('button', { name: 'Confirm my address' }).click();
  await page.getByRole('heading', { name: 'Email address confirmed' }).waitFor();
  await signInInBrowser(page, baseUrl, person, landing);
}

/** Opens `landing` signed out: the service sends the browser to sign in and back. */
export async function signInInBrowser(
  page: Page,
  baseUrl: string,
  person: { email: string; password: string },
  landing: string,
): Promise<void> {
  await page.goto(`${baseUrl}${landing}`);
  await page.waitForURL(/\/signin\?state=/);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${baseUrl}${landing}`, { timeout: 15_000 });
}

export type UploadFile = { name: string; mimeType: string; buffer: Buffer };

/** The drop zone's "Choose files" (or "Add documents") button, answered through the browser's file chooser. */
export async function chooseFiles(page: Page, button: Locator, files: UploadFile[]): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), button.click()]);
  await chooser.setFiles(files);
}

/** Files dropped on a drop zone (a DataTransfer built in the page, as a desktop drag would bring). */
export async function dropFiles(page: Page, zone: Locator, files: UploadFile[]): Promise<void> {
  const payload = files.map((f) => ({ name: f.name, mimeType: f.mimeType, base64: f.buffer.toString('base64') }));
  const transfer = await page.evaluateHandle(`((files) => {
    const data = new DataTransfer();
    for (const f of files) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      data.items.add(new File([bytes], f.name, { type: f.mimeType }));
    }
    return data;
  })(${JSON.stringify(payload)})`);
  await zone.dispatchEvent('dragenter', { dataTransfer: transfer });
  await zone.dispatchEvent('dragover', { dataTransfer: transfer });
  await zone.dispatchEvent('drop', { dataTransfer: transfer });
}

/** Fills the "new recipient" form and adds the recipient; waits until its card exists. */
export async function addRecipient(page: Page, person: { name: string; email: string; role?: string }): Promise<void> {
  const form = page.getByRole('form', { name: /New recipient|Add another recipient/ });
  await form.getByLabel('Name', { exact: true }).fill(person.name);
  await form.getByLabel('Email', { exact: true }).fill(person.email);
  if (person.role) await form.getByLabel('Role').selectOption({ label: person.role });
  await form.getByRole('button', { name: 'Add recipient' }).click();
  await page.getByRole('group', { name: new RegExp(`^Recipient \\d+: ${person.name}$`) }).waitFor();
}

/**
 * Drags a field type from the palette with the mouse and drops it on the page group `pageName`, at the point
 * given as fractions of the page's width and height (the field's centre lands there).
 */
export async function dragFieldOnto(
  page: Page,
  type: string,
  pageName: string | RegExp,
  at: { x: number; y: number },
): Promise<void> {
  const source = page
    .getByRole('complementary', { name: 'Add a field' })
    .getByRole('button', { name: type, exact: true });
  const target = page.getByRole('group', { name: pageName });
  await target.scrollIntoViewIfNeeded();
  const from = (await source.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  // A few intermediate moves, as a hand makes them: the drag starts after the pointer has travelled a little.
  const to = (await target.boundingBox())!;
  const x = to.x + to.width * at.x;
  const y = to.y + to.height * at.y;
  for (let i = 1; i <= 8; i++) await page.mouse.move(from.x + ((x - from.x) * i) / 8, from.y + ((y - from.y) * i) / 8);
  await page.mouse.up();
}

/** A recipient opens the mailed link in their own browser, consents, draws the signature and finishes. */
export async function signFromMail(browser: Browser, t: TestApp, email: string): Promise<void> {
  const { page, problems, close } = await openPage(browser, DESKTOP);
  try {
    await page.goto(await mailedLink(t, email));
    await page.getByRole('button', { name: 'I agree, continue' }).click();
    await page.getByRole('button', { name: 'Go to the first field' }).click();
    await drawOn(page, /Drawing area for your signature/);
    await page.getByRole('button', { name: 'Use this signature' }).click();
    await page.getByRole('button', { name: 'Finish and sign' }).click();
    await page.getByRole('heading', { name: 'Thank you, you have signed' }).waitFor();
    expect(problems).toEqual([]);
  } finally {
    await close();
  }
}

/** The id in /envelopes/<id>/edit. */
export function workflowIdOf(page: Page): number {
  const match = /\/envelopes\/(\d+)/.exec(page.url());
  expect(match, page.url()).not.toBeNull();
  return Number(match![1]);
}

/** The editor says every change reached the service (its status line), as a person waits for before going on. */
export function expectSaved(page: Page): Promise<void> {
  return expect
    .poll(() => page.getByRole('status').filter({ hasText: 'All changes saved' }).count(), { timeout: 15_000 })
    .toBe(1);
}
