import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';
import { signUp } from '../helpers/auth.ts';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
/** Any well-formed cookie value: the page route only checks that a session cookie is there (the page's first API call judges it). */
const COOKIE = { ...HTML, cookie: 'sig_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' };

describe('the workspace pages', () => {
  test('a signed-out browser opening / is sent to the web sign-in, which brings it back to /', async ({ app: t }) => {
    const res = await t.request('GET', '/', { headers: HTML });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/bff/auth/authorize?returnTo=%2F');
    expect(res.headers['cache-control']).toBe('no-store');
    // The redirect target works: it starts a sign-in at the own sign-in page.
    const authorize = await t.request('GET', res.headers.location, { headers: HTML });
    expect(authorize.status).toBe(302);
    expect(authorize.headers.location).toMatch(/\/signin\?state=/);
  });

  test('deeper workspace paths keep their path and query as returnTo', async ({ app: t }) => {
    for (const path of [
      '/envelopes/12',
      '/envelopes/new',
      '/envelopes/12/edit?step=2',
      '/templates',
      '/templates/4',
      '/organization',
      '/organization/members',
      '/profile',
      '/profile/security',
    ]) {
      const res = await t.request('GET', path, { headers: HTML });
      expect(res.status, path).toBe(302);
      expect(res.headers.location, path).toBe(`/bff/auth/authorize?returnTo=${encodeURIComponent(path)}`);
    }
    // An over-long address keeps its path only (the authorize route takes at most 512 characters).
    const long = `/?q=${'x'.repeat(600)}`;
    const res = await t.request('GET', long, { headers: HTML });
    expect(res.headers.location).toBe('/bff/auth/authorize?returnTo=%2F');
  });

  test('with a session cookie the browser gets the web app shell under the strict CSP', async ({ app: t }) => {
    for (const path of ['/', '/envelopes/7', '/templates', '/profile/passkeys']) {
      const res = await t.request('GET', path, { headers: COOKIE });
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.raw).toContain('<div id="root"></div>');
      expect(res.raw).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    }
  });

  test('/signup is public: the shell without a cookie', async ({ app: t }) => {
    const res = await t.request('GET', '/signup', { headers: HTML });
    expect(res.status).toBe(200);
    expect(res.raw).toContain('<div id="root"></div>');
  });

  test('API clients (Accept: application/json, or none) get the 404 they got before these pages existed', async ({
    app: t,
    owner,
  }) => {
    const unknown = await t.request('GET', '/no-such-path', { headers: { accept: 'application/json' } });
    expect(unknown.status).toBe(404);
    for (const path of ['/', '/signup', '/envelopes/3', '/templates', '/organization/x', '/profile']) {
      for (const headers of [{ accept: 'application/json' }, {}] as Record<string, string>[]) {
        const res = await t.request('GET', path, { headers, token: owner.token });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(404);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.body.message).toBe('ROUTE_NOT_FOUND');
        expect(res.body.errorDescription).toBe(`No endpoint GET ${path}`);
      }
    }
    // The API under the same prefixes is untouched, in a browser too.
    const folders = await t.request('GET', '/organization/v1/template-folders', { headers: HTML });
    expect(folders.status).toBe(401);
    expect(folders.headers['content-type']).toMatch(/^application\/json/);
    const mine = await t.request('GET', '/organization/v1/template-folders', { token: owner.token });
    expect(mine.status).toBe(200);
    const post = await t.request('POST', '/', { headers: { accept: 'application/json' }, body: {} });
    expect(post.status).toBe(404);
  });

  test('the mailed verification link gives a browser the web app, which asks the person to confirm (its button POSTs); JSON clients keep JSON', async ({
    app: t,
  }) => {
    const account = await signUp(t, { name: 'Vera Verifier' });
    const [mail] = await t.mails({ to: account.email, kind: 'EMAIL_VERIFICATION' });
    const code = /\/verify-email\/([A-Za-z0-9_-]+)/.exec(mail.textBody)![1];
    const page = await t.request('GET', `/verify-email/${code}`, { headers: HTML });
    expect(page.status).toBe(200);
    expect(page.raw).toContain('<div id="root"></div>');
    expect(page.raw).toContain('<noscript><h1>Confirm your email address</h1>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    // The browser's GET used nothing (a mail scanner opens every link): the page's button confirms.
    const confirmed = await t.request('POST', '/auth/v1/verify-email', { body: { code } });
    expect(confirmed.status).toBe(200);
    const json = await t.request('GET', `/verify-email/${code}`, { headers: { accept: 'application/json' } });
    expect(json.body).toEqual({ verified: true });
  });
});
