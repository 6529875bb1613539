import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-app.ts';
import { createDraftWorkflow, createUser } from './factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

it('factories create a user with a working token and a draft workflow', async () => {
  const user = await createUser(t);
  const { workflow, document } = await createDraftWorkflow(t, user, { pages: 2 });
  expect(workflow.status).toBe('DRAFT');
  expect(document.pages).toBe(2);
  expect(await t.platform.blobs.has(document.blobKey)).toBe(true);
  const self = await createDraftWorkflow(t, user, { sequence: 'SELF' });
  expect(self.selfRecipient?.email).toBe(user.email);
});
