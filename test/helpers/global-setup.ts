import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/platform/db/client.ts';

/**
 * Migrates one embedded database and dumps it, so each test file starts from a copy of a migrated
 * database instead of running every migration again (immich's CREATE DATABASE ... TEMPLATE, in-process).
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) return;
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

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
