import type { DbOrTx } from '../../platform/db/client.ts';
import { currentSnapshot, isAnalyticsCurrent } from './template-analytics.repo.ts';

/** Answers remembered per process; the least recently used is forgotten first. */
const MAX_ENTRIES = 2000;

type Entry = { snapshot: string; value: unknown };

/**
 * Template analytics aggregate every workflow made from a template (20,000 for a busy one) and every field event of
 * them, while they change only when one of those workflows or events does. So an answer is kept with the database
 * snapshot taken before it was read, and reused while no mark of its template (schema/template-analytics.ts, written
 * by triggers in the changing transaction) is newer than that snapshot: one look at the template's few marks instead
 * of the aggregate (docs/decisions.md "Template analytics under load"). Exact across instances: the check is the
 * database's. Only the aggregates are kept; the template's name and visibility are read fresh every time.
 */
export function createAnalyticsCache(db: DbOrTx) {
  const entries = new Map<string, Entry>();

  /** `key` names the aggregate and everything besides the marks it depends on (the template's snapshot). */
  async function read<T>(key: string, templateId: number, compute: () => Promise<T>): Promise<T> {
    const cached = entries.get(key);
    // The entry stays in place while it is checked: taken out across the await, every request arriving meanwhile
    // missed and computed the aggregate again (field drop-off of a 20,000-workflow template: 28 req/s at 32
    // connections, nearly all of them computing).
    if (cached && (await isAnalyticsCurrent(db, templateId, cached.snapshot))) {
      // Most recently used last (a Map keeps insertion order), unless a newer answer replaced it meanwhile.
      if (entries.get(key) === cached) {
        entries.delete(key);
        entries.set(key, cached);
      }
      return cached.value as T;
    }
    // The snapshot first: a change committed while computing makes the entry stale at once, never wrong for long.
    const snapshot = await currentSnapshot(db);
    const value = await compute();
    entries.set(key, { snapshot, value });
    if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
    return value;
  }

  return { read };
}
