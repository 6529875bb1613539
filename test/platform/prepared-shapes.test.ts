import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { preparedShapes } from '../../src/platform/db/prepared.ts';
import { packages } from '../../src/platform/db/schema/index.ts';

// preparedShapes names each shape's statement `name:shape`; PostgreSQL keeps 63 bytes of a name, so two long shapes
// alike in their first 63 bytes must still be two statements (a digest names them), on one connection and in turn.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

it('two long shapes that share their first 63 bytes are two statements', async () => {
  const common = 'a'.repeat(70);
  const labelled = preparedShapes('shape_names', (db, shape: string) =>
    db
      .select({ label: sql<string>`${shape}::text` })
      .from(packages)
      .limit(1),
  );
  await t.platform.db.transaction(async (tx) => {
    for (const round of [1, 2]) {
      for (const shape of [`${common}:first`, `${common}:second`]) {
        expect(await labelled(tx, shape).execute(), `round ${round}`).toEqual([{ label: shape }]);
      }
    }
  });
});
