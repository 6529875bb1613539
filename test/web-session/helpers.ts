import { expect } from 'vitest';
import type { Config } from '../../src/config.ts';
import { buildApp, type App } from '../../src/app.ts';
import { openDatabase } from '../../src/platform/db/client.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { freePort } from '../helpers/free-port.ts';

export { freePort };

/** The service on a real loopback port (PUBLIC_URL names it, so redirect URIs point there). */
export async function startService(
  overrides: Partial<Config> = {},
  port?: number,
): Promise<{ t: TestApp; baseUrl: string }> {
  port ??= await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ publicUrl: baseUrl, ...overrides });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, baseUrl };
}

/**
 * A second instance of the service on the same database and DATA_DIR (keys), as RUNTIME.md's several instances;
 * on its own loopback port. On PostgreSQL it opens its own connection pool to the database, as another process
 * would, so nothing passes between the two instances but the database; the embedded database belongs to one
 * process, so there the second app shares the first one's client (several instances need PostgreSQL). Closing it
 * leaves the database to the first instance.
 */
export async function startSecondInstance(
  t: TestApp,
  overrides: Partial<Config> = {},
): Promise<{ second: App; baseUrl: string; close(): Promise<void> }> {
  const port = await freePort();
  const database = t.databaseUrl
    ? await openDatabase({ databaseUrl: t.databaseUrl })
    : { ...t.platform.database, close: async () => {} };
  const second = await buildApp({ ...t.config, ...overrides }, { database, log: () => {} });
  await second.app.listen({ port, host: '127.0.0.1' });
  return { second, baseUrl: `http://127.0.0.1:${port}`, close: () => second.close() };
}

type Cookie = {
  value: string;
  httpOnly: boolean;
  sameSite: string | null;
  secure: boolean;
  maxAge: number | null;
  path: string;
};

/**
 * What a browser does with redirects and cookies, over real sockets: a cookie jar per host (like a browser,
 * ports share a host's cookies), Set-Cookie honoured (Max-Age=0 deletes), redirects followed one by one.
 */
export class CookieBrowser {
  readonly jar = new Map<string, Map<string, Cookie>>();
  /** Every URL visited by the last follow(), in order. */
  visited: string[] = [];

  cookie(host: string, name: string): Cookie | undefined {
    return this.jar.get(host)?.get(name);
  }

  setCookie(host: string, name: string, value: string): void {
    if (!this.jar.has(host)) this.jar.set(host, new Map());
    this.jar.get(host)!.set(name, { value, httpOnly: true, sameSite: 'Lax', secure: false, maxAge: null, path: '/' });
  }

  async request(
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
  ): Promise<Response> {
    const target = new URL(url);
    const headers: Record<string, string> = { accept: 'text/html,application/json', ...(init.headers ?? {}) };
    const cookies = [...(this.jar.get(target.hostname)?.entries() ?? [])]
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
    if (cookies) headers.cookie = cookies;
    let body: string | undefined;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(target, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
    this.store(target.hostname, response.headers.getSetCookie());
    return response;
  }

  /** GET `url` and follow redirects until a non-redirect answer or `stop(url)`; answers the last response. */
  async follow(url: string, stop: (next: URL) => boolean = () => false): Promise<{ response: Response; url: string }> {
    this.visited = [url];
    let current = url;
    for (let hop = 0; hop < 20; hop++) {
      const response = await this.request(current);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { response, url: current };
      const next = new URL(location, current);
      if (stop(next)) return { response, url: next.href };
      current = next.href;
      this.visited.push(current);
    }
    throw new Error(`too many redirects: ${this.visited.join(' -> ')}`);
  }

  private store(host: string, setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      const attr = new Map(
        attributes.map((a) => {
          const [k, ...v] = a.split('=');
          return [k.toLowerCase(), v.join('=')] as const;
        }),
      );
      const maxAge = attr.has('max-age') ? Number(attr.get('max-age')) : null;
      const expires = attr.get('expires');
      if (!this.jar.has(host)) this.jar.set(host, new Map());
      if ((maxAge !== null && maxAge <= 0) || (expires && Date.parse(expires) < Date.now()) || value === '') {
        this.jar.get(host)!.delete(name);
        continue;
      }
      this.jar.get(host)!.set(name, {
        value,
        httpOnly: attr.has('httponly'),
        sameSite: attr.get('samesite') ?? null,
        secure: attr.has('secure'),
        maxAge,
        path: attr.get('path') ?? '/',
      });
    }
  }
}

export async function json(response: Response): Promise<any> {
  const text = await response.text();
  expect(response.headers.get('content-type') ?? '', text).toContain('application/json');
  return JSON.parse(text);
}
