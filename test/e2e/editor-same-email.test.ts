/**
 * The same email twice: the editor says which recipient already has it before anything is added. Everyone at the
 * same time allows it (SPEC), so the sender may go on after being told once; one after another refuses it, and the
 * form shows the service's refusal. Desktop and phone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, type TestUser } from '../helpers/factories.ts';
import { storedRecipients } from '../helpers/recipients.ts';
import { DESKTOP, PHONE, expectNoAxeViolations, launchBrowser, openPage, screenshot, startService } from './browser.ts';
import { signInInBrowser } from './editor-helpers.ts';

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let owner: TestUser;

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  owner = await createUser(t, { name: 'Sam Sender' });
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

const newRecipientForm = (page: Page) => page.getByRole('form', { name: /New recipient|Add another recipient/ });

async function addRecipient(page: Page, name: string, email: string) {
  const form = newRecipientForm(page);
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('Email', { exact: true }).fill(email);
  await form.getByRole('button', { name: 'Add recipient' }).click();
}

const description = (page: Page, label: string) =>
  newRecipientForm(page)
    .getByLabel(label, { exact: true })
    .evaluate((el: any) =>
      String(el.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id: string) => el.ownerDocument.getElementById(id)?.textContent ?? '')
        .join(' '),
    );

describe('the envelope editor, the same email twice', () => {
  for (const [screen, options] of SCREENS) {
    it(`on ${screen}: everyone at once warns, stops going on once, then adds; each card names its twin`, {
      timeout: 120_000,
    }, async () => {
      const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'UNORDERED', name: `Twice on ${screen}` });
      const { page, problems, close } = await openPage(browser, options);
      try {
        await signInInBrowser(page, baseUrl, owner, `/envelopes/${workflow.id}/edit`);
        await page.getByRole('heading', { level: 1, name: 'Prepare envelope' }).waitFor();
        await addRecipient(page, 'Ann Able', 'ann.twice@example.com');
        await expect.poll(async () => (await storedRecipients(t, workflow.id)).length).toBe(1);

        // The same address (another case, a stray space) for a second person: said when the input is left.
        const form = newRecipientForm(page);
        await form.getByLabel('Name', { exact: true }).fill('Bob Again');
        const email = form.getByLabel('Email', { exact: true });
        await email.fill(' ANN.twice@example.com');
        await email.press('Tab');
        const warning = form.getByRole('status').filter({ hasText: 'already has this email' });
        await expect
          .poll(() => warning.textContent())
          .toBe(
            'Recipient 1, Ann Able, already has this email. The same person would get a separate email and sign separately for each.',
          );
        expect(await description(page, 'Email')).toContain('Recipient 1, Ann Able, already has this email.');

        // Going on stops once, with the focus back on the address and the way forward said.
        await page.getByRole('button', { name: 'Next: Fields' }).click();
        await expect
          .poll(() => warning.textContent())
          .toContain('To add them anyway, press Add recipient or go on again');
        await expect.poll(() => email.evaluate((el: any) => el === el.ownerDocument.activeElement)).toBe(true);
        expect(page.url()).not.toContain('step=fields');
        expect(await storedRecipients(t, workflow.id)).toHaveLength(1);
        await screenshot(page, `editor-same-email-warned-${screen}`);
        await expectNoAxeViolations(page, `same email warned (${screen})`);

        // Going on again adds the second recipient as typed.
        await page.getByRole('button', { name: 'Next: Fields' }).click();
        await page.waitForURL(/step=fields/);
        await expect
          .poll(async () => (await storedRecipients(t, workflow.id)).map((r) => [r.name, r.email]))
          .toEqual([
            ['Ann Able', 'ann.twice@example.com'],
            ['Bob Again', 'ann.twice@example.com'],
          ]);

        // Back on the recipients, each card says who else has its email.
        await page.goto(`${baseUrl}/envelopes/${workflow.id}/edit`);
        const bob = page.getByRole('group', { name: /Bob Again/ });
        await expect
          .poll(() => bob.getByText('Recipient 1, Ann Able, already has this email.', { exact: false }).count())
          .toBe(1);
        const ann = page.getByRole('group', { name: /Ann Able/ });
        expect(await ann.getByText('Recipient 2, Bob Again, already has this email.', { exact: false }).count()).toBe(
          1,
        );
        await bob.scrollIntoViewIfNeeded();
        await screenshot(page, `editor-same-email-cards-${screen}`);
        await expectNoAxeViolations(page, `same email cards (${screen})`);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  }

  it('on desktop: one after another says each email is used once, and shows the refusal when added anyway', {
    timeout: 120_000,
  }, async () => {
    const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'ORDERED', name: 'Twice in order' });
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInInBrowser(page, baseUrl, owner, `/envelopes/${workflow.id}/edit`);
      await page.getByRole('heading', { level: 1, name: 'Prepare envelope' }).waitFor();
      await addRecipient(page, 'Ann Able', 'ann.ordered@example.com');
      await expect.poll(async () => (await storedRecipients(t, workflow.id)).length).toBe(1);

      const form = newRecipientForm(page);
      await form.getByLabel('Name', { exact: true }).fill('Bob Again');
      const email = form.getByLabel('Email', { exact: true });
      await email.fill('ann.ordered@example.com');
      await email.press('Tab');
      await expect
        .poll(() => form.getByRole('status').filter({ hasText: 'already has this email' }).textContent())
        .toBe(
          'Recipient 1, Ann Able, already has this email. When recipients sign one after another, each email can be used once.',
        );
      await form.getByRole('button', { name: 'Add recipient' }).click();
      await expect.poll(() => form.getByRole('alert').textContent()).toBe('This person is already a recipient.');
      expect(await storedRecipients(t, workflow.id)).toHaveLength(1);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
