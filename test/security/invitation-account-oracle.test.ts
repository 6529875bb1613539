import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../helpers/factories.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { organizationName } from '../organizations/org-helpers.ts';

/*
 * The attack: the answer to POST /organization/v1/user (and the member list) said hasAccount: true for an address that
 * holds a registered account and false for one that does not, so any account could learn, address by address, who is
 * registered here. Now an invitation (INVITED, DECLINED) answers hasAccount false either way: the organization learns
 * that the invitee has an account when they join (ACTIVE), not before.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** The answer without what is the address's own (its email, its user id) or the moment's. */
function shape(member: Record<string, unknown>) {
  const { userId: _userId, emailAddress: _email, invitedAt: _invitedAt, ...rest } = member;
  return rest;
}

describe('an invitation does not tell whether the address is registered', () => {
  it('the invite answer and the member list read the same for a registered address and for an unknown one', async () => {
    const prober = await createUser(t, { name: 'Mallory Prober' });
    const registered = await createUser(t, { name: 'Rhea Registered' });
    const asRegistered = await t.request('POST', '/organization/v1/user', {
      token: prober.token,
      body: { name: 'Some One', emailAddress: registered.email },
    });
    const asUnknown = await t.request('POST', '/organization/v1/user', {
      token: prober.token,
      body: { name: 'Some One', emailAddress: 'nobody.here@example.com' },
    });
    expect(asRegistered.status, asRegistered.raw).toBe(200);
    expect(asUnknown.status, asUnknown.raw).toBe(200);
    expect(shape(asRegistered.body)).toEqual(shape(asUnknown.body));
    expect(asRegistered.body.hasAccount).toBe(false);

    const list = await t.request('GET', '/organization/v1/users?status=INVITED', { token: prober.token });
    expect(list.status).toBe(200);
    const [first, second] = list.body.content;
    expect(shape(first)).toEqual(shape(second));

    // Once the registered invitee joins, the organization knows them as an account holder.
    const accepted = await t.request('PUT', '/organization/v1/invite', {
      token: registered.token,
      body: { orgNames: [await organizationName(t, prober)], inviteStatus: 'ACCEPTED' },
    });
    expect(accepted.status, accepted.raw).toBe(200);
    const member = await t.request('GET', `/organization/v1/user/${registered.userId}`, { token: prober.token });
    expect(member.body).toMatchObject({ status: 'ACTIVE', hasAccount: true });
  });
});
