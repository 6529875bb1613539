import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

it('the committed docs/openapi.json matches what the service serves (run `npm run openapi` after an API change)', async () => {
  const served = (await t.request('GET', '/docs/json')).body;
  const committed = JSON.parse(
    fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'docs', 'openapi.json'), 'utf8'),
  );
  expect(served).toEqual(committed);
});

it('every operation documents a success response (2xx, or 3xx for a redirect endpoint) and a summary', async () => {
  const served = (await t.request('GET', '/docs/json')).body;
  const weak: string[] = [];
  for (const [route, operations] of Object.entries<Record<string, any>>(served.paths)) {
    for (const [method, operation] of Object.entries<any>(operations)) {
      const codes = Object.keys(operation.responses ?? {});
      if (
        !codes.some((code) => code.startsWith('2') || code.startsWith('3')) ||
        !(operation.summary || operation.description)
      )
        weak.push(`${method} ${route}`);
    }
  }
  expect(weak).toEqual([]);
});
