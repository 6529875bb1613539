import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { DESKTOP, launchBrowser, openPage, screenshot, startService } from '../e2e/browser.ts';
import { signInThrough } from '../e2e/workspace-kit.ts';
import { waitForQuietMachine } from './quiet-machine.ts';

/**
 * Issue 14: the dashboard's first paint in 1 s with 100,000 workflows on PostgreSQL. Seeded in SQL (one owner, the
 * worst case: every workflow theirs, two recipients each), the list read model kept by its triggers as for any
 * write. PostgreSQL only: the embedded database's list figures are in the README's benchmarks (one query at a time).
 */
const WORKFLOWS = 100_000;
const postgres = Boolean(process.env.DATABASE_URL);

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

let t: TestApp;
let baseUrl: string;
let owner: TestUser;
let browser: Browser;

describe.skipIf(!postgres)('the dashboard over 100,000 workflows', () => {
  beforeAll(async () => {
    ({ t, baseUrl } = await startService());
    owner = await createUser(t, { name: 'Polly Power' });
    const other = await createUser(t, { name: 'Rita Recipient' });
    const started = Date.now();
    await t.platform.db.transaction(async (tx) => {
      await tx.execute(sql`insert into workflows (owner_user_id, organization_id, name, sequence, sign_type, status, sent_at, created_at)
        select ${owner.userId}, ${owner.organizationId}, 'Agreement ' || g, 'UNORDERED', 'COUNTERSIGN',
          (array['DRAFT','SENT','COMPLETED','VOID','APPROVED'])[1 + g % 5],
          case when g % 5 <> 0 then now() - (${WORKFLOWS} - g) * interval '1 minute' end,
          now() - (${WORKFLOWS} - g) * interval '1 minute'
        from generate_series(1, ${WORKFLOWS}) g`);
      await tx.execute(sql`insert into documents (workflow_id, name, blob_key, size, pages, page_sizes)
        select id, name || '.pdf', 'seeded', 1024, 1, '[]'::jsonb from workflows where owner_user_id = ${owner.userId}`);
      await tx.execute(sql`insert into recipients (workflow_id, user_id, name, email, role, color, status)
        select w.id, ${other.userId}, ${other.name}, ${other.email}, 'SIGNER', '#FF0000', case when w.status = 'DRAFT' then 'PENDING' else 'SENT' end
        from workflows w, generate_series(1, 2) r where w.owner_user_id = ${owner.userId}`);
    });
    await t.platform.db.execute(sql`vacuum analyze`);
    console.log(`seeded ${WORKFLOWS} workflows in ${Date.now() - started} ms`);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  // Runs alone (the timing project, after every other file); two more tries for a noisy moment of a shared host.
  it('shows the counts and the first page of the list within 1 s of opening /', { retry: 2 }, async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      // Signed in once; then the dashboard opened afresh, as a person coming back to it would (warm session, cold page).
      await signInThrough(page, baseUrl, owner);
      await page.getByRole('table').getByRole('row').nth(1).waitFor();
      await page.goto('about:blank');
      const idle = await waitForQuietMachine();
      console.log(`machine ${(idle * 100).toFixed(0)}% idle over the second before the timed opening`);
      const started = Date.now();
      await page.goto(`${baseUrl}/`);
      await page
        .getByRole('table')
        .getByRole('row', { name: /Agreement 100000/ })
        .waitFor();
      await page
        .getByRole('navigation', { name: 'Status filters' })
        // Counts are written as the page's language writes them (formatNumber): 20,000 in English.
        .getByText('20,000', { exact: true })
        .first()
        .waitFor();
      const elapsed = Date.now() - started;
      console.log(`dashboard first paint over ${WORKFLOWS} workflows: ${elapsed} ms`);
      expect(elapsed, `first paint after ${elapsed} ms`).toBeLessThanOrEqual(1000);
      await screenshot(page, 'dashboard-100k');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

// The embedded database has no such test: keep the file from reporting "no tests".
it.skipIf(postgres)('(PostgreSQL only)', () => {});
