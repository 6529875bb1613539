/**
 * The signing page and the sign-in page in the browser's language (RUNTIME.md "Languages"): a browser that
 * prefers German gets the signing page in German, dates written the German way; the language menu switches it to
 * Polish and a reload keeps Polish; each of the eight languages is axe-clean; the sign-in page follows a French
 * browser. English is what the other browser tests check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { activities } from '../../src/platform/db/schema/index.ts';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import {
  DESKTOP,
  drawOn,
  PHONE,
  expectNoAxeViolations,
  launchBrowser,
  mailedLink,
  openPage,
  screenshot,
  sender,
  sendEnvelope,
  startService,
  tabTo,
} from './browser.ts';

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let owner: TestUser;

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  owner = await sender(t);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** An envelope for `email` with a signature and a date field, and a comment of the sender's (it shows a date and time). */
async function envelopeFor(email: string, title: string): Promise<string> {
  const { workflowId } = await sendEnvelope(t, owner, {
    title,
    recipients: [
      {
        name: 'Lena Lang',
        email,
        fields: [
          { fieldType: 'SIGNATURE', label: 'Signature', fieldRequired: true },
          { fieldType: 'DATE', label: 'Date', styling: { dateLang: 'en' } },
        ],
      },
    ],
  });
  const comment = await t.request('POST', `/workflow/v1/${workflowId}/comments`, {
    token: owner.token,
    body: { body: 'Please sign by Friday.' },
  });
  expect(comment.status, comment.raw).toBe(200);
  return mailedLink(t, email);
}

const htmlLang = (page: Page) => page.evaluate('document.documentElement.lang');
/** The sender's comment's byline: "Olivia Owner, <date and time>". */
const commentByline = (page: Page) => page.locator('.comment-meta').first().innerText();

/** The eight languages as the menu names them, with a sentence of the consent step in each. */
const LANGUAGES: [code: string, menuName: string, agree: string][] = [
  ['de', 'Deutsch', 'Ich stimme zu, weiter'],
  ['en', 'English', 'I agree, continue'],
  ['es', 'Español', 'Acepto, continuar'],
  ['fr', 'Français', 'J’accepte, continuer'],
  ['it', 'Italiano', 'Accetto, continua'],
  ['nl', 'Nederlands', 'Ik ga akkoord, verder'],
  ['pl', 'Polski', 'Zgadzam się, dalej'],
  ['pt', 'Português', 'Aceito, continuar'],
];

describe('the signing page in the browser’s language', () => {
  it('German for a German browser, Polish from the menu, still Polish after a reload', async () => {
    const link = await envelopeFor('lena.de@example.com', 'Rahmenvertrag');
    const { page, problems, close } = await openPage(browser, { ...DESKTOP, locale: 'de-DE' });
    try {
      await page.goto(link);
      await page.getByRole('heading', { name: 'Bevor Sie beginnen' }).waitFor();
      expect(await htmlLang(page)).toBe('de');
      await page.getByRole('heading', { name: 'Kommentare' }).waitFor();
      // German writes day.month.year and a 24-hour time: 4.12.2026, 18:52:03.
      expect(await commentByline(page)).toMatch(/^Olivia Owner, \d{1,2}\.\d{1,2}\.\d{4}, \d{2}:\d{2}:\d{2}$/);
      const menu = page.getByRole('combobox', { name: 'Sprache' });
      expect(await menu.inputValue()).toBe('de');
      // The menu is on the keyboard's path through the page.
      await tabTo(page, menu);
      await expectNoAxeViolations(page, 'consent, German');
      await page.getByRole('button', { name: 'Ich stimme zu, weiter' }).click();
      await page.getByRole('button', { name: 'Zum ersten Feld' }).waitFor();
      await expect.poll(() => page.locator('.progress').innerText()).toBe('0 von 1 Pflichtfeldern ausgefüllt');
      await screenshot(page, 'signing-languages-de');

      await menu.selectOption('pl');
      await page.getByRole('button', { name: 'Przejdź do pierwszego pola' }).waitFor();
      expect(await htmlLang(page)).toBe('pl');
      await expect.poll(() => page.locator('.progress').innerText()).toBe('Wypełnione pola obowiązkowe: 0 z 1');
      await page.getByRole('combobox', { name: 'Język' }).waitFor();

      await page.reload();
      await page.getByRole('button', { name: 'Przejdź do pierwszego pola' }).waitFor();
      expect(await htmlLang(page)).toBe('pl');
      expect(await page.getByRole('combobox', { name: 'Język' }).inputValue()).toBe('pl');
      await page.getByRole('button', { name: 'Przejdź do pierwszego pola' }).click();
      await page.getByRole('heading', { name: /\(pole 1 z 2\)/ }).waitFor();
      await screenshot(page, 'signing-languages-pl-field');
      await expectNoAxeViolations(page, 'signature field, Polish');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shows the disclosure in the page language and records the one the signer read', async () => {
    const link = await envelopeFor('lena.fr@example.com', 'Contrat cadre');
    const { page, problems, close } = await openPage(browser, { ...DESKTOP, locale: 'de-DE' });
    try {
      await page.goto(link);
      const disclosure = page.locator('blockquote.disclosure');
      await expect.poll(() => disclosure.innerText()).toMatch(/^Hinweis zur elektronischen Signatur\./);
      expect(await disclosure.getAttribute('lang')).toBe('de');
      await page.getByRole('combobox', { name: 'Sprache' }).selectOption('fr');
      await expect.poll(() => disclosure.innerText()).toMatch(/^Information sur la signature électronique\./);
      expect(await disclosure.getAttribute('lang')).toBe('fr');
      await expectNoAxeViolations(page, 'consent, French disclosure');
      await page.getByRole('button', { name: 'J’accepte, continuer' }).click();
      await page.getByRole('button', { name: 'Aller au premier champ' }).click();
      await drawOn(page, /^Zone de dessin pour votre signature/);
      await page.getByRole('button', { name: 'Utiliser cette signature' }).click();
      await page.getByRole('button', { name: 'Terminer et signer' }).click();
      const french = (await t.request('GET', '/workflow/v1/signing/disclosure?lang=fr')).body;
      await expect
        .poll(async () => {
          const rows = await t.platform.db.select().from(activities);
          return rows
            .filter((a) => a.kind === 'CONSENT_ACCEPTED')
            .map((a) => (a.consent as { textHash: string }).textHash);
        })
        .toContain(french.textHash);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('is axe-clean in each of the eight languages, switched from the menu', async () => {
    const link = await envelopeFor('lena.all@example.com', 'Service agreement');
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await page.goto(link);
      await page.getByRole('button', { name: 'I agree, continue' }).waitFor();
      for (const [code, menuName, agree] of LANGUAGES) {
        await page.locator('.language-menu select').selectOption({ label: menuName });
        await page.getByRole('button', { name: agree }).waitFor();
        expect(await htmlLang(page)).toBe(code);
        await expectNoAxeViolations(page, `consent, ${code}`);
      }
      await screenshot(page, 'signing-languages-pt');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('the signing page on a phone in another language', () => {
  it('at 320 px in Polish: the menu keeps to the brand bar, nothing scrolls sideways, axe-clean', async () => {
    const link = await envelopeFor('lena.phone@example.com', 'Umowa ramowa');
    const { page, problems, close } = await openPage(browser, { ...PHONE, locale: 'pl-PL' });
    try {
      await page.goto(link);
      await page.getByRole('button', { name: 'Zgadzam się, dalej' }).waitFor();
      // The label is read, not shown, at this width; the select still has its name.
      await page.getByRole('combobox', { name: 'Język' }).waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320);
      await screenshot(page, 'signing-languages-pl-phone');
      await expectNoAxeViolations(page, 'consent, Polish, 320 px');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('the sign-in page in the browser’s language', () => {
  it('French for a French browser, its errors too, and axe-clean', async () => {
    const { page, problems, close } = await openPage(browser, { ...DESKTOP, locale: 'fr-FR' });
    try {
      await page.goto(`${baseUrl}/bff/auth/authorize?returnTo=${encodeURIComponent('/bff/auth/me')}`);
      await page.waitForURL(/\/signin\?state=/);
      await page.getByRole('heading', { level: 1, name: 'Connexion' }).waitFor();
      expect(await htmlLang(page)).toBe('fr');
      expect(await page.title()).toBe('Connexion');
      await tabTo(page, page.getByRole('combobox', { name: 'Langue' }));
      await page.getByLabel('E-mail', { exact: true }).fill(owner.email);
      await page.getByLabel('Mot de passe', { exact: true }).fill('not the password');
      await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
      await page.getByRole('alert').getByText('L’adresse e-mail ou le mot de passe est incorrect.').waitFor();
      await screenshot(page, 'signin-languages-fr');
      await expectNoAxeViolations(page, 'sign-in, French, wrong password');
      await page.getByRole('combobox', { name: 'Langue' }).selectOption('en');
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      expect(await htmlLang(page)).toBe('en');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
