import { expect } from 'vitest';
import { cookieNames } from '../../src/http/session-cookie.ts';
import type { RouteAuth } from '../../src/http/authenticate.ts';
import type { TestUser } from '../helpers/factories.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { sample } from '../helpers/schema-sample.ts';

export { sample };

/** Each table of the public schema: row count and a digest of its rows. Read in one statement. */
export type Fingerprint = Map<string, string>;

export async function fingerprint(
  t: TestApp,
  options: { ignoredColumns?: Record<string, string[]> } = {},
): Promise<Fingerprint> {
  const sql = t.platform.database.sql;
  const { rows: tables } = await sql.executeSql(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
  );
  const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
  const parts = tables.map(({ name }: { name: string }) => {
    const quoted = `"${name.replaceAll('"', '""')}"`;
    const ignored = options.ignoredColumns?.[name] ?? [];
    const row =
      ignored.length > 0 ? `(to_jsonb(x) - array[${ignored.map(literal).join(', ')}]::text[])::text` : 'x::text';
    return `select ${literal(name)} as name, count(*)::text || ':' || md5(coalesce(string_agg(md5(${row}), '' order by md5(${row})), '')) as digest from ${quoted} x`;
  });
  const { rows } = await sql.executeSql(parts.join(' union all '));
  return new Map(rows.map((row: { name: string; digest: string }) => [row.name, row.digest]));
}

/** The tables whose rows differ between two fingerprints, leaving out `ignored`. */
export function changedTables(before: Fingerprint, after: Fingerprint, ignored: readonly string[] = []): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => !ignored.includes(name) && before.get(name) !== after.get(name)).sort();
}

/** A business app of the user's organization and a CLIENT token of it acting as the user (grant CLIENT_CREDENTIALS). */
export async function partnerToken(
  t: TestApp,
  user: TestUser,
  app: { clientId: string; clientSecret: string },
): Promise<string> {
  const res = await t.request('POST', '/auth/v1/signin', {
    body: {
      grant_type: 'CLIENT_CREDENTIALS',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      email: user.email,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.accessToken;
}

export type CookieSession = { cookie: string; cookieHeader: string; csrfToken: string; raw: string[] };

/**
 * A web session of `user` made the way a browser makes one (the own sign-in page: authorize, password, callback),
 * through app.inject. `raw` collects every body and header the browser was answered on the way.
 */
export async function cookieSession(t: TestApp, user: Pick<TestUser, 'email' | 'password'>): Promise<CookieSession> {
  const names = cookieNames(t.config.publicUrl.startsWith('https:'));
  const raw: string[] = [];
  const record = (res: { body: string; headers: Record<string, unknown> }) =>
    raw.push(res.body, JSON.stringify(res.headers));
  const cookieFrom = (res: { headers: Record<string, unknown> }, name: string) => {
    const header = res.headers['set-cookie'];
    const list = Array.isArray(header) ? header : header === undefined ? [] : [String(header)];
    const found = list.map(String).find((value) => value.startsWith(`${name}=`));
    return found ? found.slice(name.length + 1).split(';')[0] : undefined;
  };
  const start = await t.app.inject({ method: 'GET', url: '/bff/auth/authorize' });
  record(start);
  expect(start.statusCode).toBe(302);
  const login = cookieFrom(start, names.login)!;
  const state = new URL(String(start.headers.location), t.config.publicUrl).searchParams.get('state');
  const authorized = await t.app.inject({
    method: 'POST',
    url: '/auth/v1/signin/authorize',
    headers: { cookie: `${names.login}=${login}` },
    payload: { state, grant_type: 'PASSWORD', username: user.email, password: user.password, rememberMe: false },
  });
  record(authorized);
  expect(authorized.statusCode, authorized.body).toBe(200);
  const callback = new URL(authorized.json().redirectUrl);
  const done = await t.app.inject({
    method: 'GET',
    url: `${callback.pathname}${callback.search}`,
    headers: { cookie: `${names.login}=${login}` },
  });
  record(done);
  expect(done.statusCode, done.body).toBe(302);
  const cookie = cookieFrom(done, names.session)!;
  expect(cookie).toBeTruthy();
  const cookieHeader = `${names.session}=${cookie}`;
  const me = await t.app.inject({ method: 'GET', url: '/bff/auth/me', headers: { cookie: cookieHeader } });
  record(me);
  expect(me.statusCode, me.body).toBe(200);
  return { cookie, cookieHeader, csrfToken: me.json().csrfToken, raw };
}

/** What a browser sends on a cross-site top-level navigation (a link or a redirect from another site): no Origin. */
export const CROSS_SITE_NAVIGATION = {
  'sec-fetch-site': 'cross-site',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-dest': 'document',
  referer: 'https://evil.example/',
} as const;

export const routeName = (route: Pick<RouteAuth, 'method' | 'url'>) => `${route.method} ${route.url}`;

/** A query string for a route's querystring schema (arrays repeated), from `sample`. */
export function sampleQuery(schema: unknown, known: Record<string, unknown>): string {
  if (!schema) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(sample(schema, known) as object)) {
    for (const item of [value].flat()) params.append(key, String(item));
  }
  return params.toString();
}
