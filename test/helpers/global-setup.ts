import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/platform/db/client.ts';

/**
 * Migrates one database once, so each test file starts from a copy of a migrated database instead of running
 * every migration again: on PostgreSQL a template database (CREATE DATABASE ... TEMPLATE, as immich does), on
 * the embedded database a dump loaded per file (the in-process twin).
 */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `sig_template_${crypto.randomBytes(6).toString('hex')}`;
    await adminQuery(serverUrl, `create database "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString() });
    await database.close();
    project.provide('pgTemplate', name);
    return async () => {
      await adminQuery(serverUrl, `drop database if exists "${name}" with (force)`);
    };
  }
  const database = await openDatabase({});
  const dump = await (database.db as any).$client.dumpDataDir('none');
  const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'sig-template-')), 'template.tar');
  await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('pgliteTemplate', file);
  return async () => {
    await fs.rm(path.dirname(file), { recursive: true, force: true });
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

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: string;
  }
}
