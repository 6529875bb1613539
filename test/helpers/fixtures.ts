import { test as base } from 'vitest';
import type { Config } from '../../src/config.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { createUser, type TestUser } from './factories.ts';

/**
 * Vitest fixtures for what most files set up in beforeAll: `app` (one service and database per file, closed
 * after the file) and `owner` (a registered, verified user of its own organization, created on first use).
 * A test names what it needs: `test('...', async ({ app, owner }) => ...)`.
 * A file that needs another configuration or owner name overrides the options once at its top:
 * `const test = base.override({ appConfig: { ... }, ownerName: 'Olivia Owner' })`.
 */
export const test = base.extend<{ appConfig: Partial<Config>; ownerName: string; app: TestApp; owner: TestUser }>({
  appConfig: [{}, { scope: 'file' }],
  ownerName: ['Olga Owner', { scope: 'file' }],
  app: [
    async ({ appConfig }, use) => {
      const app = await createTestApp(appConfig);
      await use(app);
      await app.close();
    },
    { scope: 'file' },
  ],
  owner: [
    async ({ app, ownerName }, use) => {
      await use(await createUser(app, { name: ownerName }));
    },
    { scope: 'file' },
  ],
});

/**
 * A further file-scoped user for `test.extend`, created in its own organization on first use:
 * `const test = base.extend<{ signer: TestUser }>({ signer: fileUser({ name: 'Sam Signer' }) })`.
 */
export function fileUser(
  options: { name?: string; email?: string; emailVerified?: boolean } = {},
): [(context: { app: TestApp }, use: (user: TestUser) => Promise<void>) => Promise<void>, { scope: 'file' }] {
  return [
    async ({ app }, use) => {
      await use(await createUser(app, options));
    },
    { scope: 'file' },
  ];
}
