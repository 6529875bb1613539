/**
 * The sender's workspace in the page's language (docs/web-app.md "Languages"): a German browser gets the dashboard
 * in German, statuses and dates included; the language menu in the header switches it to French and a reload keeps
 * French; the organization page in French is axe-clean; on a phone the header stays one line with the menu behind
 * Menu; the dashboard is axe-clean in each of the eight languages. English is what the other workspace tests check.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { markSent } from '../helpers/envelope-states.ts';
import {
  DESKTOP,
  PHONE,
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  screenshot,
  startService,
  tabTo,
} from './browser.ts';

vi.setConfig({ testTimeout: 180_000 });

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let owner: TestUser;

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
  browser = await launchBrowser();
  owner = await createUser(t, { name: 'Lena Lang' });
  const other = await createUser(t, { name: 'Otto Other' });
  await createDraftWorkflow(t, owner, { name: 'Draft lease' });
  const { workflow } = await createDraftWorkflow(t, owner, { name: 'Sent contract', sequence: 'UNORDERED' });
  const row = await insertRecipient(t, workflow.id, { userId: other.userId, name: other.name, email: other.email });
  await markSent(t, workflow.id, [row.id]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** The sign-in page's words in the language the browser gets it in. */
const SIGN_IN = {
  de: { email: 'E-Mail', password: 'Passwort', submit: 'Anmelden' },
  en: { email: 'Email', password: 'Password', submit: 'Sign in' },
  fr: { email: 'E-mail', password: 'Mot de passe', submit: 'Se connecter' },
};

/** Opens `path` signed out and signs in on the sign-in page in `language`, landing back on `path`. */
async function signIn(page: Page, language: keyof typeof SIGN_IN, path = '/'): Promise<void> {
  const words = SIGN_IN[language];
  // Up to 8 engineers' test runs share 2 cores: a page can take far longer than on a quiet machine.
  page.setDefaultTimeout(60_000);
  await page.goto(`${baseUrl}${path}`);
  await page.waitForURL(/\/signin\?state=/);
  await page.getByLabel(words.email, { exact: true }).fill(owner.email);
  await page.getByLabel(words.password, { exact: true }).fill(owner.password);
  await page.getByRole('button', { name: words.submit, exact: true }).click();
  await page.waitForURL(`${baseUrl}${path}`, { timeout: 20_000 });
}

const htmlLang = (page: Page) => page.evaluate('document.documentElement.lang');
const mainNav = (page: Page, name: string) => page.getByRole('navigation', { name });
/** The "Sent or created" cell of the envelope row named `name`. */
const dateCell = (page: Page, name: string) =>
  page
    .getByRole('row', { name: new RegExp(name) })
    .locator('td[data-label]')
    .innerText();

/** The eight languages as the menu names them, with the dashboard's heading and the Templates link in each. */
const LANGUAGES: [code: string, menuName: string, heading: string, templates: string][] = [
  ['de', 'Deutsch', 'Dokumente', 'Vorlagen'],
  ['en', 'English', 'Documents', 'Templates'],
  ['es', 'Español', 'Documentos', 'Plantillas'],
  ['fr', 'Français', 'Documents', 'Modèles'],
  ['it', 'Italiano', 'Documenti', 'Modelli'],
  ['nl', 'Nederlands', 'Documenten', 'Sjablonen'],
  ['pl', 'Polski', 'Dokumenty', 'Szablony'],
  ['pt', 'Português', 'Documentos', 'Modelos'],
];

describe('the workspace in the browser’s language', () => {
  it('German for a German browser, French from the menu, still French after a reload', async () => {
    const { page, problems, close } = await openPage(browser, { ...DESKTOP, locale: 'de-DE' });
    try {
      await signIn(page, 'de');
      await page.getByRole('heading', { level: 1, name: 'Dokumente' }).waitFor();
      expect(await htmlLang(page)).toBe('de');
      expect(await page.title()).toBe('Dokumente – Signature Service');
      await mainNav(page, 'Hauptnavigation').getByRole('link', { name: 'Vorlagen', exact: true }).waitFor();
      await page.getByText('Angemeldet als Lena Lang').waitFor();
      // Statuses by their German names, and the list's caption counts in German.
      const sent = page.getByRole('row', { name: /Sent contract/ });
      await sent.getByText('Gesendet', { exact: true }).waitFor();
      await page
        .getByRole('row', { name: /Draft lease/ })
        .getByText('Entwurf', { exact: true })
        .waitFor();
      await page.getByRole('table', { name: 'Alle: 2 Umschläge' }).waitFor();
      // German writes day.month.year and a 24-hour time: 04.12.2026, 18:52.
      expect(await dateCell(page, 'Sent contract')).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
      const menu = page.getByRole('combobox', { name: 'Sprache' });
      expect(await menu.inputValue()).toBe('de');
      await tabTo(page, menu);
      await expectNoAxeViolations(page, 'dashboard, German');
      await screenshot(page, 'workspace-languages-de');

      await menu.selectOption('fr');
      await mainNav(page, 'Navigation principale').getByRole('link', { name: 'Modèles', exact: true }).waitFor();
      expect(await htmlLang(page)).toBe('fr');
      await sent.getByText('Envoyée', { exact: true }).waitFor();
      await page.getByRole('table', { name: 'Toutes : 2 enveloppes' }).waitFor();
      // French writes the day, the month's short name and the year: 4 déc. 2026, 18:52.
      await expect.poll(() => dateCell(page, 'Sent contract')).toMatch(/^\d{1,2} \S+ \d{4}(,| à) \d{2}:\d{2}$/);
      await expect.poll(() => page.title()).toBe('Documents – Signature Service');

      await page.reload();
      await mainNav(page, 'Navigation principale').getByRole('link', { name: 'Modèles', exact: true }).waitFor();
      expect(await htmlLang(page)).toBe('fr');
      expect(await page.getByRole('combobox', { name: 'Langue' }).inputValue()).toBe('fr');
      await sent.getByText('Envoyée', { exact: true }).waitFor();
      await screenshot(page, 'workspace-languages-fr');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the organization page in French: its sections, axe-clean', async () => {
    const { page, problems, close } = await openPage(browser, { ...DESKTOP, locale: 'fr-FR' });
    try {
      await signIn(page, 'fr', '/organization/members');
      await page.getByRole('heading', { level: 1, name: 'Organisation' }).waitFor();
      await page.getByRole('heading', { level: 2, name: 'Membres' }).waitFor();
      expect(await htmlLang(page)).toBe('fr');
      await page.getByRole('row', { name: /Lena Lang/ }).waitFor();
      await page.getByRole('button', { name: 'Inviter un membre' }).waitFor();
      await expectNoAxeViolations(page, 'organization members, French');
      await screenshot(page, 'workspace-languages-fr-organization');
      // Another section, its figures written the French way.
      await page.getByRole('link', { name: 'Facturation', exact: true }).click();
      await page.getByRole('heading', { level: 2, name: 'Facturation' }).waitFor();
      await page.getByText('Crédits restants', { exact: true }).waitFor();
      await expectNoAxeViolations(page, 'organization billing, French');
      await page.getByRole('link', { name: 'Rôles', exact: true }).click();
      await page.getByRole('heading', { level: 2, name: 'Rôles' }).waitFor();
      await expectNoAxeViolations(page, 'organization roles, French');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('on a phone in German: one header line, the language menu behind Menu, switching keeps the line', async () => {
    const { page, problems, close } = await openPage(browser, { ...PHONE, locale: 'de-DE' });
    try {
      await signIn(page, 'de');
      await page.getByRole('heading', { level: 1, name: 'Dokumente' }).waitFor();
      const header = page.getByRole('banner');
      const height = async () => (await header.boundingBox())?.height ?? Number.NaN;
      const menuButton = header.getByRole('button', { name: 'Menü', exact: true });
      expect(await height()).toBeLessThanOrEqual(64);
      expect(await page.getByRole('combobox', { name: 'Sprache' }).isVisible()).toBe(false);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320);

      await menuButton.tap();
      const menu = page.getByRole('combobox', { name: 'Sprache' });
      await menu.waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320);
      await expectNoAxeViolations(page, 'dashboard, German, 320 px, menu open');
      await screenshot(page, 'workspace-languages-de-phone-menu');

      await menu.selectOption('pl');
      await page.getByRole('heading', { level: 1, name: 'Dokumenty' }).waitFor();
      expect(await htmlLang(page)).toBe('pl');
      const closeMenu = header.getByRole('button', { name: 'Menu', exact: true });
      expect(await closeMenu.getAttribute('aria-expanded')).toBe('true');
      await closeMenu.tap();
      expect(await closeMenu.getAttribute('aria-expanded')).toBe('false');
      expect(await height()).toBeLessThanOrEqual(64);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320);
      await page
        .getByRole('row', { name: /Sent contract/ })
        .getByText('Wysłano', { exact: true })
        .waitFor();
      await expectNoAxeViolations(page, 'dashboard, Polish, 320 px');
      await screenshot(page, 'workspace-languages-pl-phone');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the dashboard is axe-clean in each of the eight languages, switched from the menu', async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signIn(page, 'en');
      await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
      for (const [code, menuName, heading, templates] of LANGUAGES) {
        await page.locator('.ws-account .language-menu select').selectOption({ label: menuName });
        await page.getByRole('banner').getByRole('link', { name: templates, exact: true }).waitFor();
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        expect(await htmlLang(page)).toBe(code);
        await page.getByRole('row', { name: /Sent contract/ }).waitFor();
        // The header keeps one line at 1280 px in every language: product name, navigation, language, account.
        expect((await page.getByRole('banner').boundingBox())?.height, `header height, ${code}`).toBeLessThanOrEqual(
          64,
        );
        await expectNoAxeViolations(page, `dashboard, ${code}`);
      }
      await screenshot(page, 'workspace-languages-pt');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
