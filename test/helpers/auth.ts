import crypto from 'node:crypto';
import { expect } from 'vitest';
import { businessApps } from '../../src/platform/db/schema/index.ts';
import { hashClientSecret, newClientSecret } from '../../src/modules/auth/client-secrets.ts';
import type { TestApp } from './test-app.ts';

export type SignedUpUser = { userId: number; organizationId: number; name: string; email: string; password: string };
export type Session = {
  accessToken: string;
  tokenType: 'Bearer';
  expiry: number;
  refreshToken: string;
  rememberMe: boolean;
};

let counter = 0;

/** Signs up over HTTP (POST /auth/v1/signup) and expects 201; `overrides` replace the generated fields. */
export async function signUp(
  t: TestApp,
  overrides: Partial<{ name: string; email: string; password: string }> = {},
): Promise<SignedUpUser> {
  counter += 1;
  const body = {
    name: overrides.name ?? 'Alice Example',
    email: overrides.email ?? `signup${counter}-${crypto.randomBytes(4).toString('hex')}@example.com`,
    password: overrides.password ?? 'a long enough password',
  };
  const res = await t.request('POST', '/auth/v1/signup', { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return {
    userId: res.body.userId,
    organizationId: res.body.organizationId,
    name: body.name,
    email: body.email,
    password: body.password,
  };
}

/** Signs in over HTTP with grant PASSWORD and expects 200 (an account without two-factor). */
export async function signIn(
  t: TestApp,
  email: string,
  password: string,
  options: { rememberMe?: boolean } = {},
): Promise<Session> {
  const res = await t.request('POST', '/auth/v1/signin', {
    body: { grant_type: 'PASSWORD', username: email, password, ...options },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** A business app row as the registration endpoint would store it; returns the plain secret once. */
export async function insertBusinessApp(t: TestApp, organizationId: number, options: { status?: boolean } = {}) {
  const clientSecret = newClientSecret();
  const clientId = `client-${crypto.randomBytes(6).toString('hex')}`;
  const [row] = await t.platform.db
    .insert(businessApps)
    .values({
      organizationId,
      clientId,
      appName: clientId,
      callbackUrl: 'https://partner.example.com/callback',
      secretHash: hashClientSecret(clientSecret),
      status: options.status ?? true,
    })
    .returning();
  return { appId: row.id, clientId, clientSecret };
}
