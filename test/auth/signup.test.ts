import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertRecipient } from '../helpers/factories.ts';
import { signIn, signUp } from '../helpers/auth.ts';
import { memberships, organizations, packages, recipients, users } from '../../src/platform/db/schema/index.ts';
import { findOrCreateGuestUser } from '../../src/modules/users/users.repo.ts';
import { isUniqueViolation } from '../../src/platform/db/errors.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const signup = (body: unknown, token?: string) => t.request('POST', '/auth/v1/signup', { body, token });

function expectError(res: { status: number; body: any }, status: number, message: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ httpStatusCode: status, success: false, message });
}

describe('POST /auth/v1/signup', () => {
  it('creates a user owning an organization on the default package with its credits', async () => {
    const account = await signUp(t, { name: 'Ada Lovelace', email: 'Ada.Lovelace@Example.com' });
    const [user] = await t.platform.db.select().from(users).where(eq(users.id, account.userId));
    expect(user).toMatchObject({
      email: 'ada.lovelace@example.com',
      name: 'Ada Lovelace',
      isGuest: false,
      organizationId: account.organizationId,
      twoFactorEnabled: false,
    });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    const [organization] = await t.platform.db
      .select()
      .from(organizations)
      .where(eq(organizations.id, account.organizationId));
    const [plan] = await t.platform.db.select().from(packages).where(eq(packages.isDefault, true));
    expect(organization).toMatchObject({ ownerUserId: account.userId, packageId: plan.id, credits: plan.credits });
    expect(plan.credits).toBeGreaterThan(0);
    const [membership] = await t.platform.db.select().from(memberships).where(eq(memberships.userId, account.userId));
    expect(membership).toMatchObject({ organizationId: account.organizationId, isOwner: true, status: 'ACTIVE' });

    // The new account can sign in at once, with any letter case in the email.
    const session = await signIn(t, 'ADA.lovelace@example.com', account.password);
    const claims = await t.platform.tokens.verify(session.accessToken);
    expect(claims).toMatchObject({ sub: String(account.userId), type: 'USER', organizationId: account.organizationId });
  });

  it('accepts names of 3 and 20 characters with single interior spaces, and non-ASCII letters', async () => {
    await signUp(t, { name: 'Bob' });
    await signUp(t, { name: 'Abcdefghij Klmnopqrs' });
    await signUp(t, { name: 'Zoë Ångström' });
  });

  it('answers 409 EMAIL_ALREADY_REGISTERED for a registered email, in any letter case', async () => {
    const account = await signUp(t);
    expectError(
      await signup({ name: 'Someone Else', email: account.email.toUpperCase(), password: 'another password' }),
      409,
      'EMAIL_ALREADY_REGISTERED',
    );
    const factoryUser = await createUser(t);
    expectError(
      await signup({ name: 'Someone Else', email: factoryUser.email, password: 'another password' }),
      409,
      'EMAIL_ALREADY_REGISTERED',
    );
  });

  it('turns a guest user into the account, keeping its id and its recipient history', async () => {
    const owner = await createUser(t);
    const { workflow } = await createDraftWorkflow(t, owner);
    const guest = await findOrCreateGuestUser(t.platform.db, 'guest.signer@example.com', 'Guest Signer');
    const recipient = await insertRecipient(t, workflow.id, {
      userId: guest.id,
      name: 'Guest Signer',
      email: guest.email,
    });

    // A guest has no password, so it cannot sign in before signing up.
    expectError(
      await t.request('POST', '/auth/v1/signin', {
        body: { grant_type: 'PASSWORD', username: guest.email, password: 'anything at all' },
      }),
      401,
      'INVALID_CREDENTIALS',
    );

    const res = await signup({ name: 'Guest Signer', email: 'Guest.Signer@example.com', password: 'now registered' });
    expect(res.status).toBe(201);
    expect(res.body.userId).toBe(guest.id);
    const [user] = await t.platform.db.select().from(users).where(eq(users.id, guest.id));
    expect(user).toMatchObject({ isGuest: false, organizationId: res.body.organizationId });
    const [row] = await t.platform.db.select().from(recipients).where(eq(recipients.id, recipient.id));
    expect(row.userId).toBe(guest.id);
    await signIn(t, 'guest.signer@example.com', 'now registered');

    // Upgraded once: the same email again is a duplicate.
    expectError(
      await signup({ name: 'Guest Signer', email: guest.email, password: 'now registered' }),
      409,
      'EMAIL_ALREADY_REGISTERED',
    );
  });

  it('five concurrent identical sign-ups create exactly one account; the others answer 409', async () => {
    const body = { name: 'Racing User', email: 'race@example.com', password: 'racing password' };
    const results = await Promise.all(Array.from({ length: 5 }, () => signup(body)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const res of results.filter((r) => r.status === 409))
      expect(res.body.message).toBe('EMAIL_ALREADY_REGISTERED');
    const rows = await t.platform.db.select().from(users).where(eq(users.email, 'race@example.com'));
    expect(rows).toHaveLength(1);
    const owned = await t.platform.db.select().from(organizations).where(eq(organizations.ownerUserId, rows[0].id));
    expect(owned).toHaveLength(1);
  });

  it('five concurrent sign-ups over one guest upgrade it once; the others answer 409', async () => {
    const guest = await findOrCreateGuestUser(t.platform.db, 'racing.guest@example.com', 'Racing Guest');
    const body = { name: 'Racing Guest', email: guest.email, password: 'racing password' };
    const results = await Promise.all(Array.from({ length: 5 }, () => signup(body)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(results.find((r) => r.status === 201)!.body.userId).toBe(guest.id);
    const owned = await t.platform.db.select().from(organizations).where(eq(organizations.ownerUserId, guest.id));
    expect(owned).toHaveLength(1);
  });

  it("recognises the driver's unique violation (mapped to 409 should a race get past onConflictDoNothing)", async () => {
    const account = await signUp(t);
    const error = await t.platform.db
      .insert(users)
      .values({ email: account.email, name: 'Duplicate' })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).not.toBeNull();
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(new Error('other'))).toBe(false);
  });

  it('ignores any Authorization header (public route), even a garbage or expired token', async () => {
    const expired = await t.platform.tokens.sign({ sub: '1', type: 'USER', organizationId: 1 }, -60);
    expect(
      (
        await signup(
          { name: 'Token Ignored', email: 'ignored1@example.com', password: 'password one' },
          'garbage.token.value',
        )
      ).status,
    ).toBe(201);
    expect(
      (await signup({ name: 'Token Ignored', email: 'ignored2@example.com', password: 'password two' }, expired))
        .status,
    ).toBe(201);
  });
});

describe('POST /auth/v1/signup refuses bad input with 400 BAD_REQUEST_BODY and writes nothing', () => {
  const valid = { name: 'Valid Name', email: 'valid@example.com', password: 'valid password' };
  const cases: [string, unknown][] = [
    ['a malformed JSON body', '{"a":'],
    ['an empty object', {}],
    ['a JSON array', [valid]],
    ['a number for email', { ...valid, email: 12345 }],
    ['a number for name', { ...valid, name: 42 }],
    ['a boolean for password', { ...valid, password: true }],
    ['a null password', { ...valid, password: null }],
    ['a missing password', { name: valid.name, email: valid.email }],
    ['an invalid email', { ...valid, email: 'not-an-email' }],
    ['an email of 300 characters', { ...valid, email: `${'a'.repeat(288)}@example.com` }],
    ['a name of 21 characters', { ...valid, name: 'Abcdefghij Klmnopqrst' }],
    ['a name of 2 characters', { ...valid, name: 'Al' }],
    ['a name with a digit', { ...valid, name: 'Agent 007' }],
    ['a name with a double space', { ...valid, name: 'Two  Spaces' }],
    ['a name with a leading space', { ...valid, name: ' Leading' }],
    ['a name with a trailing space', { ...valid, name: 'Trailing ' }],
    ['a name with a symbol', { ...valid, name: 'Mr. Smith' }],
    ['a password of 7 characters', { ...valid, password: 'seven77' }],
    ['a password of 10000 characters', { ...valid, password: 'x'.repeat(10_000) }],
  ];
  for (const [label, body] of cases) {
    it(label, async () => {
      expectError(await signup(body), 400, 'BAD_REQUEST_BODY');
    });
  }

  it('nothing was created by the refused requests', async () => {
    const rows = await t.platform.db.select().from(users).where(eq(users.email, 'valid@example.com'));
    expect(rows).toHaveLength(0);
  });

  it('a body of another content type answers 4xx in the standard body', async () => {
    const res = await t.request('POST', '/auth/v1/signup', {
      body: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.success).toBe(false);
  });
});

describe('SIGNUP_ENABLED=false', () => {
  let closed: TestApp;
  beforeAll(async () => {
    closed = await createTestApp({ signupEnabled: false });
  });
  afterAll(async () => {
    await closed?.close();
  });

  it('answers 403 SIGNUP_DISABLED, before looking at the body', async () => {
    for (const body of [
      { name: 'Valid Name', email: 'closed@example.com', password: 'valid password' },
      '{"a":',
      { email: 5 },
    ]) {
      const res = await closed.request('POST', '/auth/v1/signup', { body });
      expectError(res, 403, 'SIGNUP_DISABLED');
    }
    const settings = await closed.request('GET', '/auth/v1/app_settings');
    expect(settings.body.signupEnabled).toBe(false);
  });
});
