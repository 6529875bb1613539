import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { memberOf } from '../billing/organization-callers.ts';
import { logoPart, pngImage, putBranding, settings } from '../branding/branding-forms.ts';

/*
 * SPEC.md "Organization: branding": GET /organization/v1/branding is for the owner and members. RUNTIME.md "Who may do
 * what": every owner and member reads the organization's branding and its logo; the BRANDING module right governs
 * changes only (and SPEC.md makes the update and reset owner only).
 */
let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Olivia Owner' });
  expect(
    (
      await putBranding(t, owner.token, [
        settings({ primaryColor: '#0a3d62', senderName: 'Delta Org' }),
        logoPart(pngImage(40, 40)),
      ])
    ).status,
  ).toBe(204);
});
afterAll(async () => {
  await t?.close();
});

describe('every member reads the branding and the logo, whatever their role', () => {
  it.each([
    ['a role with no module right at all', {}],
    ['a role with another module only', { BILLING_DETAILS: { canView: true } }],
    ['a role with BRANDING canView', { BRANDING: { canView: true } }],
  ])('%s: 200 for both, the update and the reset still 403', async (_name, grants) => {
    const member = await memberOf(t, owner, grants);
    const branding = await t.request('GET', '/organization/v1/branding', { token: member.token });
    expect([branding.status, branding.body.senderName, branding.body.primaryColor]).toEqual([
      200,
      'Delta Org',
      '#0a3d62',
    ]);
    const logo = await t.request('GET', '/organization/v1/logo', { token: member.token });
    expect([logo.status, logo.headers['content-type']]).toEqual([200, 'image/png']);
    expect((await putBranding(t, member.token, [settings({ senderName: 'Hijack' })])).status).toBe(403);
    expect((await t.request('GET', '/organization/v1/branding-reset', { token: member.token })).status).toBe(403);
    expect((await t.request('GET', '/organization/v1/branding', { token: owner.token })).body.senderName).toBe(
      'Delta Org',
    );
  });

  it("a stranger reads its own organization's branding, never this one", async () => {
    const stranger = await createUser(t, { name: 'Sam Stranger' });
    const res = await t.request('GET', '/organization/v1/branding', { token: stranger.token });
    expect([res.status, res.body.isDefault]).toEqual([200, true]);
    expect((await t.request('GET', '/organization/v1/logo', { token: stranger.token })).status).toBe(404);
  });
});
