// The app as the benches run it: on a temporary DATA_DIR, and with DATABASE_URL set on a scratch database
// created on that server (so a bench never touches existing data), otherwise on the embedded database.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig, type Config } from '../src/config.ts';
import { buildApp, type App } from '../src/app.ts';
import type { PlatformOverrides } from '../src/platform/platform.ts';

export type BenchServerOptions = {
  /** Names the temporary DATA_DIR (sig-bench-<name>-…). */
  name: string;
  /** Settings over the defaults (no environment, log level warn). */
  config?: Partial<Config>;
  overrides?: PlatformOverrides;
};

export type BenchServer = {
  built: App;
  /** Listens on 127.0.0.1 at a free port; returns the base URL. */
  listen(): Promise<string>;
  /** Closes the app, removes the DATA_DIR and drops the scratch database. */
  close(): Promise<void>;
};

export async function startBenchServer(options: BenchServerOptions): Promise<BenchServer> {
  const serverUrl = process.env.DATABASE_URL;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sig-bench-${options.name}-`));
  let scratch: string | null = null;
  const cleanUp = async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    // BENCH_KEEP_DATABASE=1 leaves the scratch database for a look with psql afterwards (its name is printed).
    if (scratch && serverUrl && process.env.BENCH_KEEP_DATABASE === '1') console.log(`kept database ${scratch}`);
    else if (scratch && serverUrl) await adminQuery(serverUrl, `drop database if exists "${scratch}" with (force)`);
  };

  let built: App;
  try {
    let databaseUrl: string | undefined;
    if (serverUrl) {
      const name = `sig_bench_${crypto.randomBytes(4).toString('hex')}`;
      await adminQuery(serverUrl, `create database "${name}"`);
      scratch = name;
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
    }
    // The pool size is the one setting a bench run may choose from the environment (DATABASE_POOL_SIZE).
    const config: Config = {
      ...loadConfig({ DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? '' }),
      dataDir,
      databaseUrl,
      logLevel: 'warn',
      port: 0,
      ...options.config,
    };
    built = await buildApp(config, options.overrides);
  } catch (error) {
    await cleanUp();
    throw error;
  }

  return {
    built,
    listen: () => built.app.listen({ port: 0, host: '127.0.0.1' }),
    async close() {
      try {
        await built.close();
      } finally {
        await cleanUp();
      }
    },
  };
}

async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
