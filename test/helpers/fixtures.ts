import { test as base } from 'vitest';
import { createTestApp, type TestApp } from './test-app.ts';
import { createUser, type TestUser } from './factories.ts';

/**
 * Vitest fixtures for what most files set up in beforeAll: `app` (one service and database per file, closed
 * after the file) and `owner` (a registered, verified user of its own organization, created on first use).
 * A test names what it needs: `test('...', async ({ app, owner }) => ...)`.
 */
export const test = base.extend<{ app: TestApp; owner: TestUser }>({
  app: [async ({}, use) => {
    const app = await createTestApp();
    await use(app);
    await app.close();
  }, { scope: 'file' }],
  owner: [async ({ app }, use) => {
    await use(await createUser(app, { name: 'Olga Owner' }));
  }, { scope: 'file' }],
});
