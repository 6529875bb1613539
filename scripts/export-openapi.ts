// Writes the OpenAPI document the running service serves at /docs/json to docs/openapi.json, so API changes
// show up as diffs in review. test/http/openapi.test.ts fails when the committed copy is stale.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/platform/db/client.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sig-openapi-'));
const database = await openDatabase({});
const { app, close } = await buildApp({ ...loadConfig({}), dataDir, logLevel: 'warn' }, { database, log: () => {} });
const document = app.swagger();
fs.writeFileSync(
  path.join(import.meta.dirname, '..', 'docs', 'openapi.json'),
  `${JSON.stringify(document, null, 2)}\n`,
);
await close();
fs.rmSync(dataDir, { recursive: true, force: true });
console.log(`docs/openapi.json: ${Object.keys(document.paths ?? {}).length} paths`);
