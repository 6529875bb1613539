import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestUser } from '../helpers/factories.ts';

/**
 * Opens `path` of the workspace signed out, as a person would: the service sends the browser to the own sign-in
 * page, the person signs in with password, and lands back on `path`.
 */
export async function signInThrough(
  page: Page,
  baseUrl: string,
  user: Pick<TestUser, 'email' | 'password'>,
  path = '/',
): Promise<void> {
  // Up to 8 engineers' test runs share 2 cores: a page can take far longer than on a quiet machine.
  page.setDefaultTimeout(60_000);
  await page.goto(`${baseUrl}${path}`);
  await page.waitForURL(/\/signin\?state=/);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${baseUrl}${path}`, { timeout: 20_000 });
}

/** The workspace's layout landmarks are there: skip link, header navigation, account navigation, main. */
export async function expectWorkspaceLayout(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  for (const name of ['Documents', 'Templates', 'Organization', 'Profile']) {
    expect(
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).count(),
      name,
    ).toBe(1);
  }
  expect(
    await page.getByRole('navigation', { name: 'Account' }).getByRole('button', { name: 'Sign out' }).count(),
  ).toBe(1);
  expect(await page.getByRole('main').count()).toBe(1);
  expect(await page.getByRole('link', { name: 'Skip to main content' }).count()).toBe(1);
}

/** The element that has the keyboard focus, described by its role-ish tag and text (for failure messages). */
export async function focused(page: Page): Promise<string> {
  return page.evaluate(
    '(() => { const e = document.activeElement; return e ? e.tagName + " " + (e.getAttribute("aria-label") || e.textContent || "").trim().slice(0, 60) : "none"; })()',
  ) as Promise<string>;
}
