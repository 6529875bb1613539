import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import { setWorkflow } from '../helpers/envelope-states.ts';
import { createSigningCodes } from '../../src/modules/signing/signing-codes.ts';
import {
  commence,
  draftForSending,
  guestFromMail,
  linkFromMail,
  onlyMail,
  redeem,
  signingCodesOf,
} from '../helpers/signing.ts';

async function sentWorkflow(t: TestApp, owner: TestUser, names: string[] = ['Sam Signer', 'Sue Signer']) {
  const draft = await draftForSending(t, owner, { recipients: names.map((name) => ({ name })) });
  const res = await commence(t, owner, draft.workflow.id, { title: 'Contract' });
  expect(res.status, res.raw).toBe(200);
  return draft;
}

function expectLinkExpired(res: { status: number; body: any }) {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ success: false, message: 'LINK_EXPIRED', errorDescription: 'Link or code expired' });
}

describe('GET /auth/v1/getGuestToken/{code}', () => {
  test('turns the code of the mailed link into a guest session for that row, recording Opened once', async ({
    app: t,
    owner,
  }) => {
    const { workflow, rows } = await sentWorkflow(t, owner);
    const [sam] = rows;
    const mail = await onlyMail(t, sam.email, 'COMMENCE');
    const { url, code } = linkFromMail(t, mail);
    expect(url).toBe(`${t.config.publicUrl}/sign/${code}`);

    const res = await redeem(t, code);
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toMatchObject({
      userId: sam.userId,
      workflowId: workflow.id,
      recipientId: sam.id,
      tokenType: 'Bearer',
    });
    expect(res.body.expiry).toBeGreaterThan(0);
    expect(typeof res.body.refreshToken).toBe('string');
    const claims = await t.platform.tokens.verify(res.body.accessToken);
    expect(claims).toMatchObject({
      sub: String(sam.userId),
      type: 'GUEST',
      recipientId: sam.id,
      workflowId: workflow.id,
    });

    const token = res.body.accessToken;
    const list = await t.request('GET', `/workflow/v1/${workflow.id}/recipients`, { token });
    expect(list.status).toBe(200);
    expect(list.body.find((r: any) => r.id === sam.id).status).toBe('VIEWED');

    // The link works again until it expires; a second open records nothing new.
    const again = await redeem(t, code);
    expect(again.status).toBe(200);
    const history = await t.request('GET', `/workflow/v1/${workflow.id}/history`, { token: owner.token });
    const opened = history.body.activities.filter((a: any) => a.action === 'Opened');
    expect(opened).toHaveLength(1);
    expect(opened[0].userName).toBe('Sam Signer');
  });

  test('scopes the token to its workflow and row', async ({ app: t, owner }) => {
    const first = await sentWorkflow(t, owner);
    const second = await sentWorkflow(t, owner, ['Tim Signer']);
    const { token } = await guestFromMail(t, first.rows[0].email);

    expect((await t.request('GET', `/workflow/v1/${second.workflow.id}/recipients`, { token })).status).toBe(404);
    expect((await t.request('GET', `/workflow/v1/${second.workflow.id}/history`, { token })).status).toBe(404);
    expect((await t.request('GET', `/workflow/v1/${first.workflow.id}/history`, { token })).status).toBe(200);
    // User-only routes refuse it.
    expect((await t.request('POST', `/workflow/v1/${first.workflow.id}/commence`, { token, body: {} })).status).toBe(
      403,
    );
    // It cannot act as (delegate) another recipient's row of its own workflow...
    const other = await t.request('POST', `/workflow/v1/${first.workflow.id}/recipients/${first.rows[1].id}/delegate`, {
      token,
      body: { name: 'Mallory Thief', emailAddress: 'mallory@example.com' },
    });
    expect(other.status).toBe(403);
    // ...and declining acts only as its own row.
    const declined = await t.request('POST', `/workflow/v1/${first.workflow.id}/decline`, {
      token,
      body: { reason: 'Not mine to sign' },
    });
    expect(declined.status).toBe(200);
    expect(declined.body.recipientId).toBe(first.rows[0].id);
  });

  test('answers LINK_EXPIRED for garbage, tampered, expired and foreign-key codes', async ({ app: t, owner }) => {
    const { workflow, rows } = await sentWorkflow(t, owner);
    const { code } = linkFromMail(t, await onlyMail(t, rows[0].email, 'COMMENCE'));

    expectLinkExpired(await redeem(t, 'garbage'));
    expectLinkExpired(await redeem(t, 'x'.repeat(90)));
    const flipped = code.slice(0, 20) + (code[20] === 'A' ? 'B' : 'A') + code.slice(21);
    expectLinkExpired(await redeem(t, flipped));
    expectLinkExpired(await redeem(t, code.slice(0, -2)));

    const codes = signingCodesOf(t);
    expectLinkExpired(await redeem(t, codes.mint(rows[0].id, workflow.id, new Date(Date.now() - 1000))));
    const fresh = codes.mint(rows[0].id, workflow.id, new Date(Date.now() + 60_000));
    expect((await redeem(t, fresh)).status).toBe(200);
    // A code naming a row of another workflow does not open anything.
    expectLinkExpired(await redeem(t, codes.mint(rows[0].id, workflow.id + 1000, new Date(Date.now() + 60_000))));
    // Sealed under another key: unreadable.
    const foreign = createSigningCodes(new Uint8Array(32).fill(7)).mint(
      rows[0].id,
      workflow.id,
      new Date(Date.now() + 60_000),
    );
    expectLinkExpired(await redeem(t, foreign));
  });

  test('answers LINK_EXPIRED once the workflow is deleted', async ({ app: t, owner }) => {
    const { workflow, rows } = await sentWorkflow(t, owner, ['Del Signer']);
    const { code } = linkFromMail(t, await onlyMail(t, rows[0].email, 'COMMENCE'));
    await setWorkflow(t, workflow.id, { deletedAt: new Date() });
    expectLinkExpired(await redeem(t, code));
  });

  test('codes of one recipient are not guessable: every mint differs', async ({ app: t }) => {
    const codes = signingCodesOf(t);
    const expiresAt = new Date(Date.now() + 60_000);
    const minted = new Set(Array.from({ length: 20 }, () => codes.mint(1, 1, expiresAt)));
    expect(minted.size).toBe(20);
    for (const code of minted) expect(code).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });
});

describe('GET /sign/{code}', () => {
  test('answers the signing page (which redeems the code in the browser), without redeeming it', async ({
    app: t,
    owner,
  }) => {
    const { workflow, rows } = await sentWorkflow(t, owner, ['Page Signer']);
    const { code } = linkFromMail(t, await onlyMail(t, rows[0].email, 'COMMENCE'));

    const page = await t.request('GET', `/sign/${code}`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    // The web app's shell: its script (same origin, no inline script) redeems the code once it runs.
    expect(page.raw).toMatch(/<script type="module" crossorigin src="\/app\/assets\/[^"]+\.js"><\/script>/);
    expect(page.raw).not.toMatch(/<script>/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['cache-control']).toBe('no-store');

    const json = await t.request('GET', `/sign/${code}`, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(200);
    expect(json.body.redeemPath).toBe(`/auth/v1/getGuestToken/${code}`);

    const history = await t.request('GET', `/workflow/v1/${workflow.id}/history`, { token: owner.token });
    expect(history.body.activities.map((a: any) => a.action)).not.toContain('Opened');

    const bad = await t.request('GET', '/sign/not-a-code', { headers: { accept: 'text/html' } });
    expect(bad.status).toBe(400);
    expect(bad.raw).toContain('expired');
    expect(bad.raw).not.toContain('not-a-code');
    const badJson = await t.request('GET', '/sign/not-a-code', { headers: { accept: 'application/json' } });
    expectLinkExpired(badJson);
  });
});
