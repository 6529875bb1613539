import type { DbOrTx } from '../../platform/db/client.ts';
import {
  findSearchIds,
  isSnapshotCurrent,
  searchList,
  type ListCriteria,
  type ListItemRow,
} from './document-list.repo.ts';

/** Searches remembered per process (the least recently used is forgotten first), pages per search, and the largest page kept. */
const MAX_SEARCHES = 2000;
const MAX_PAGES = 8;
const MAX_PAGE_SIZE = 100;

type Entry = { snapshot: string; verified: boolean; total: number; pages: Map<string, number[]> };

/**
 * A search (a substring of the name) has no counter, and a common term matches thousands of workflows: counting them,
 * or finding the 20 newest when the matches are old, reads them all. Paging through a search asks the same question
 * again and again, so a search's total and pages are kept with the database snapshot they were read in, and reused
 * while the caller's list has not changed since that snapshot: one look at the caller's few ledger rows instead of
 * the search (docs/lists-and-search.md "Search"). Exact across instances: the check is the
 * database's, not this process's memory. Only workflow ids are kept; the items are read fresh every time (with the
 * search itself when it runs anew).
 */
export function createListSearch(db: DbOrTx, reads = { searchList, findSearchIds, isSnapshotCurrent }) {
  const { searchList: search, findSearchIds: searchIds, isSnapshotCurrent: snapshotCurrent } = reads;
  const cache = new Map<string, Entry>();

  /** The page's ids and the total; a search run anew also brings the page's items (`items`), a kept one does not. */
  async function find(
    c: ListCriteria,
    limit: number,
    offset: number,
  ): Promise<{ ids: number[]; total: number; items?: ListItemRow[] }> {
    const key = JSON.stringify([
      c.userId,
      c.organizationId ?? null,
      c.filter.workflowStatus ?? null,
      c.filter.action ?? null,
      c.folderId ?? null,
      c.search,
    ]);
    const pageKey = `${offset}:${limit}`;
    const cached = cache.get(key);
    if (cached) {
      // The entry stays in the map while it is checked: taken out across the await, every request arriving meanwhile
      // missed and ran the whole search again (bench/document-list.ts, a common term at 32 connections: 62 req/s,
      // 29 ms of PostgreSQL per request).
      const now = await snapshotCurrent(db, c.userId, cached.snapshot);
      if (now.current && now.verified === cached.verified) {
        // Most recently used last (a Map keeps insertion order).
        if (cache.get(key) === cached) {
          cache.delete(key);
          cache.set(key, cached);
        }
        let ids = cached.pages.get(pageKey);
        if (!ids) {
          // Read after the check: if the list changes meanwhile, the next check sees it and the entry is searched anew.
          ids = await searchIds(db, c, limit, offset);
          remember(cached, pageKey, limit, ids);
        }
        return { ids, total: cached.total };
      }
    }
    const found = await search(db, c, limit, offset);
    const entry: Entry = { snapshot: found.snapshot, verified: found.verified, total: found.total, pages: new Map() };
    remember(entry, pageKey, limit, found.ids);
    cache.set(key, entry);
    if (cache.size > MAX_SEARCHES) cache.delete(cache.keys().next().value as string);
    return { ids: found.ids, total: found.total, items: found.items };
  }

  function remember(entry: Entry, pageKey: string, limit: number, ids: number[]) {
    if (limit > MAX_PAGE_SIZE) return;
    entry.pages.set(pageKey, ids);
    if (entry.pages.size > MAX_PAGES) entry.pages.delete(entry.pages.keys().next().value as string);
  }

  return { find };
}
