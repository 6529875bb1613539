import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { loadConfig, type Config } from '../../src/config.ts';
import { buildApp, type App } from '../../src/app.ts';
import type { PlatformOverrides } from '../../src/platform/platform.ts';
import { openDatabase, type Database } from '../../src/platform/db/client.ts';
import { mailOutbox } from '../../src/platform/db/schema/index.ts';

export type TestApp = App & {
  config: Config;
  /** On PostgreSQL, the URL of this app's database (a second instance opens its own connections to it); else undefined. */
  databaseUrl?: string;
  /** JSON request through app.inject; `token` becomes a bearer header. */
  request(
    method: string,
    url: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Record<string, any>; raw: string }>;
  /** Mail rows delivered (or pending) so far, oldest first; waits for the outbox to drain first. */
  mails(filter?: { to?: string; kind?: string }): Promise<(typeof mailOutbox.$inferSelect)[]>;
  /** Waits until every queued job has run. */
  drainJobs(): Promise<void>;
};

/** What a service starts from instead of a fresh database and DATA_DIR (an upgrade, a restore); close() removes both. */
export type TestAppStart = {
  database: Database;
  dataDir: string;
  serverDatabase: { name: string; adminUrl: string; url: string } | null;
};

/**
 * A fresh service for one test file: its own DATA_DIR and its own database (a copy of the migrated
 * embedded template, or a new database on the PostgreSQL server named by DATABASE_URL), or `start`'s.
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  platformOverrides: Omit<PlatformOverrides, 'database' | 'log'> = {},
  start?: TestAppStart,
): Promise<TestApp> {
  const dataDir = start?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sig-test-'));
  const { database, serverDatabase } = start ?? (await openTestDatabase());
  // PATH is the runner's, so a test finds LibreOffice where the machine has it, and a run with it hidden (.ci/run) does not.
  const config: Config = {
    ...loadConfig({ PATH: process.env.PATH }),
    dataDir,
    logLevel: 'silent',
    jobPollSeconds: 0.5,
    databaseUrl: undefined,
    ...overrides,
  };
  const built = await buildApp(config, { ...platformOverrides, database, log: () => {} });
  const testApp: TestApp = {
    ...built,
    config,
    databaseUrl: serverDatabase?.url,
    async request(method, url, options = {}) {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let payload: string | Buffer | undefined;
      if (options.body !== undefined) {
        payload =
          typeof options.body === 'string' || Buffer.isBuffer(options.body)
            ? (options.body as any)
            : JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await built.app.inject({ method: method as any, url, headers, payload });
      let body: any = response.body;
      if (String(response.headers['content-type'] ?? '').includes('application/json') && response.body)
        body = JSON.parse(response.body);
      return { status: response.statusCode, body, headers: response.headers, raw: response.body };
    },
    async mails(filter = {}) {
      await built.platform.jobs.drain();
      const rows = await built.platform.db.select().from(mailOutbox).orderBy(asc(mailOutbox.id));
      return rows.filter(
        (r) =>
          (!filter.to || r.toAddress === filter.to.toLowerCase() || r.toAddress === filter.to) &&
          (!filter.kind || r.kind === filter.kind),
      );
    },
    drainJobs: () => built.platform.jobs.drain(),
    async close() {
      await built.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      await dropTestDatabase();
    },
  };
  return testApp;

  // Each app drops its own database: a file that opens a second app (a restart, two instances) leaks none.
  async function dropTestDatabase() {
    if (!serverDatabase) return;
    const admin = new pg.Client({ connectionString: serverDatabase.adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists "${serverDatabase.name}" with (force)`).catch(() => {});
    await admin.end();
  }
}

/** A fresh database for one app: a copy of the migrated template on PostgreSQL, or of the migrated dump on PGlite. */
async function openTestDatabase(): Promise<{
  database: Database;
  serverDatabase: { name: string; adminUrl: string; url: string } | null;
}> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const template = fs.readFileSync(inject('pgliteTemplate'));
    return { database: await openDatabase({ pgliteLoadDataDir: new Blob([template]) }), serverDatabase: null };
  }
  const name = `sig_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    // Two files copying the template at the same instant can meet PostgreSQL's "source database is being accessed".
    for (let attempt = 1; ; attempt += 1) {
      try {
        await admin.query(`create database "${name}" template "${inject('pgTemplate')}"`);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    database: await openDatabase({ databaseUrl: url.toString() }),
    serverDatabase: { name, adminUrl: serverUrl, url: url.toString() },
  };
}

export { eq };
