import { expect, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { NotifyChannel } from '../../src/platform/db/client.ts';
import type { TestApp } from './test-app.ts';

/**
 * Hears the notifications on `channel`, to check what a trigger announced for one write: `after(work)` answers every
 * payload heard until a marker notification sent after the work. On PostgreSQL by a connection of its own, which hears
 * notifications in commit order (the pool's connections each read theirs when idle, so one could still bring an
 * earlier write's after this one's); PGlite has one session, in order too.
 */
export async function listenTo(t: TestApp, channel: NotifyChannel) {
  const heard: string[] = [];
  let listener: pg.Client | null = null;
  if (t.databaseUrl) {
    listener = new pg.Client({ connectionString: t.databaseUrl });
    await listener.connect();
    listener.on('notification', (message) => heard.push(message.payload ?? ''));
    await listener.query(`listen ${channel}`);
  } else {
    t.platform.database.onNotify(channel, (payload) => heard.push(payload ?? ''));
  }
  let markers = 0;
  return {
    async after(work: () => Promise<unknown>): Promise<string[]> {
      await work();
      const marker = `marker ${++markers}`;
      await t.platform.db.execute(sql`select pg_notify(${channel}, ${marker})`);
      await vi.waitFor(() => expect(heard).toContain(marker), { timeout: 2000, interval: 5 });
      return heard.splice(0, heard.length).filter((payload) => !payload.startsWith('marker'));
    },
    async close(): Promise<void> {
      await listener?.end();
    },
  };
}
