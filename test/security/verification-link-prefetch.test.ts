import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/platform/db/schema/index.ts';
import { signUp } from '../helpers/auth.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The attack (found reading every route once more): someone signs up with an address they do not control; the
 * verification mail reaches the real owner, whose mail gateway opens every link in it to scan it (Safe Links and the
 * like), and the GET verified the squatter's account — which then reached the owner's envelopes and could create the
 * owner's platform-certified key. A browser's GET of the link now only shows the page that asks the person to confirm
 * (its button POSTs); an API client asking for JSON still verifies with the GET (RUNTIME.md "Accounts").
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function codeFor(email: string) {
  const [mail] = await t.mails({ to: email, kind: 'EMAIL_VERIFICATION' });
  return /\/verify-email\/([A-Za-z0-9_-]{43})/.exec(mail.textBody)![1];
}

async function verifiedAt(email: string) {
  return (await t.platform.db.select().from(users).where(eq(users.email, email.toLowerCase())))[0].emailVerifiedAt;
}

describe('a mail scanner opening the verification link verifies nothing', () => {
  it("the browser-like GETs a scanner sends answer the confirmation page and leave the account unverified; the person's click verifies", async () => {
    const squatted = await signUp(t, { name: 'Sam Squatter', email: `owner-${Date.now()}@victim.example` });
    const code = await codeFor(squatted.email);
    const scanners = [
      {
        accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
        'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36',
      },
      { accept: 'text/html', 'user-agent': 'Microsoft Office Existence Discovery' },
      { accept: 'text/html, */*', 'user-agent': 'BingPreview/1.0b' },
    ];
    for (const headers of scanners) {
      const res = await t.request('GET', `/verify-email/${code}`, { headers });
      expect(res.status).toBe(200);
      expect(res.raw).toContain('Confirm your email address');
      expect(await verifiedAt(squatted.email)).toBeNull();
    }
    const confirmed = await t.request('POST', '/auth/v1/verify-email', { body: { code } });
    expect(confirmed.status).toBe(200);
    expect(await verifiedAt(squatted.email)).not.toBeNull();
  });

  it('a dead code answers the expired page (400) without a click; a JSON client verifies with the GET as the runtime contract says', async () => {
    const dead = await t.request('GET', `/verify-email/${'A'.repeat(43)}`, { headers: { accept: 'text/html' } });
    expect(dead.status).toBe(400);
    const account = await signUp(t, { name: 'Jay Json' });
    const res = await t.request('GET', `/verify-email/${await codeFor(account.email)}`, {
      headers: { accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ verified: true });
    expect(await verifiedAt(account.email)).not.toBeNull();
  });
});
