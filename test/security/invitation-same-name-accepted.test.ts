import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships } from '../../src/platform/db/schema/index.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { organizationName } from '../organizations/org-helpers.ts';

/*
 * The attack: organization names are `${signupName}'s organization` and not unique. Mallory signs up as "Acme", and
 * invites the victim before the real Acme does. PUT /organization/v1/invite accepted by name: the victim's
 * {orgNames: ["Acme's organization"]} accepted both invitations, and the account went on acting in the oldest one,
 * Mallory's, with whatever the victim then uploaded. Now a name that more than one pending invitation bears is refused
 * with 400 INVITATION_NAME_AMBIGUOUS naming the candidates (organizationId, inviter's name and address), nothing is
 * answered, and organizationIds picks among them.
 */

let t: TestApp;
let victim: TestUser;
let mallory: TestUser;
let acme: TestUser;
let name: string;

beforeAll(async () => {
  t = await createTestApp();
  victim = await createUser(t, { name: 'Victor Victim' });
  mallory = await createUser(t, { name: 'Acme' });
  acme = await createUser(t, { name: 'Acme' });
  name = await organizationName(t, acme);
  expect(await organizationName(t, mallory)).toBe(name);
  // Mallory's invitation comes first, so it is the older one.
  for (const inviter of [mallory, acme]) {
    const invited = await t.request('POST', '/organization/v1/user', {
      token: inviter.token,
      body: { name: 'Victor Victim', emailAddress: victim.email },
    });
    expect(invited.status, invited.raw).toBe(200);
  }
}, 60_000);
afterAll(async () => {
  await t?.close();
});

async function statusIn(organizationId: number): Promise<string | undefined> {
  const [row] = await t.platform.db
    .select()
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, victim.userId)));
  return row?.status;
}

async function actingOrganization(): Promise<number> {
  const session = await t.request('POST', '/auth/v1/signin', {
    body: { grant_type: 'PASSWORD', username: victim.email, password: victim.password },
  });
  return (await t.request('GET', '/user/v1/settings/profile', { token: session.body.accessToken })).body.organizationId;
}

describe('accepting an invitation by a name two organizations bear', () => {
  it("the invitee sees both invitations apart: their organization ids and the inviters' addresses", async () => {
    const pending = await t.request('GET', '/organization/v1/invitations', { token: victim.token });
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual([
      expect.objectContaining({
        organizationId: mallory.organizationId,
        orgName: name,
        invitedBy: 'Acme',
        invitedByEmail: mallory.email,
      }),
      expect.objectContaining({
        organizationId: acme.organizationId,
        orgName: name,
        invitedBy: 'Acme',
        invitedByEmail: acme.email,
      }),
    ]);
  });

  it('the name alone is refused (400 INVITATION_NAME_AMBIGUOUS, the candidates named) and nothing is accepted', async () => {
    for (const inviteStatus of ['ACCEPTED', 'DECLINED']) {
      const res = await t.request('PUT', '/organization/v1/invite', {
        token: victim.token,
        body: { orgNames: [name], inviteStatus },
      });
      expect(res.status, res.raw).toBe(400);
      expect(res.body.message).toBe('INVITATION_NAME_AMBIGUOUS');
      expect(res.body.responseBody).toMatchObject({
        orgName: name,
        candidates: [
          expect.objectContaining({ organizationId: mallory.organizationId, invitedByEmail: mallory.email }),
          expect.objectContaining({ organizationId: acme.organizationId, invitedByEmail: acme.email }),
        ],
      });
    }
    expect(await statusIn(mallory.organizationId)).toBe('INVITED');
    expect(await statusIn(acme.organizationId)).toBe('INVITED');
    expect(await actingOrganization()).toBe(victim.organizationId);
  });

  it("an organization id that is not one of the caller's pending invitations of that name is 404; nothing changes", async () => {
    for (const organizationIds of [[victim.organizationId], [999999]]) {
      const res = await t.request('PUT', '/organization/v1/invite', {
        token: victim.token,
        body: { orgNames: [name], organizationIds, inviteStatus: 'ACCEPTED' },
      });
      expect(res.status, res.raw).toBe(404);
    }
    expect(await statusIn(mallory.organizationId)).toBe('INVITED');
    expect(await statusIn(acme.organizationId)).toBe('INVITED');
  });

  it('organizationIds picks the one meant: only it is accepted, and the account acts in it', async () => {
    const res = await t.request('PUT', '/organization/v1/invite', {
      token: victim.token,
      body: { orgNames: [name], organizationIds: [acme.organizationId], inviteStatus: 'ACCEPTED' },
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toEqual([expect.objectContaining({ organizationId: acme.organizationId, status: 'ACTIVE' })]);
    expect(await statusIn(acme.organizationId)).toBe('ACTIVE');
    expect(await statusIn(mallory.organizationId)).toBe('INVITED');
    expect(await actingOrganization()).toBe(acme.organizationId);
    // One pending invitation of that name is left: the name alone is no longer ambiguous.
    const declined = await t.request('PUT', '/organization/v1/invite', {
      token: victim.token,
      body: { orgNames: [name], inviteStatus: 'DECLINED' },
    });
    expect(declined.status, declined.raw).toBe(200);
    expect(declined.body).toEqual([
      expect.objectContaining({ organizationId: mallory.organizationId, status: 'DECLINED' }),
    ]);
  });
});
