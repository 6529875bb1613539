import type { Database, NotifyChannel } from './client.ts';

export type OrganizationCache = {
  /**
   * The answer kept for the organization under `key`, or `compute`'s (kept unless a change was announced meanwhile).
   * `key` names the read and every value it depends on besides the organization's rows.
   */
  read<T>(organizationId: number, key: string, compute: () => Promise<T>): Promise<T>;
};

type Pages = Map<string, { answer: Promise<unknown>; expiresAt: number }>;

/**
 * Answers of an organization's reads kept per process, forgotten when the database announces a change to that
 * organization on `channel` (a trigger's NOTIFY with the organization's id as the payload; an empty payload, or a
 * notification possibly missed, forgets every organization). Built for the member and role lists, read far more often
 * than they change (docs/decisions.md "Member and role lists are cached per process").
 *
 * Exact for this process: a change committed through it is announced to the committing connection before its COMMIT
 * returns, so a later request never sees the old page; another instance's change, one network delivery after its
 * commit. A read under way when its organization's change is announced is answered but not kept: each organization's
 * pages live in their own map, which an announcement replaces, and a read stores into the map it started with only
 * if that map is still the organization's. A read under way is shared by the requests for the same page that arrive
 * meanwhile (after a change, 32 clients would otherwise run the same statement 32 times); one that fails is not kept.
 * Entries also expire (`ttlMs`), a backstop should a notification be lost.
 * At most `maxEntries` answers in all (the least recently read organization's all forgotten first) and
 * `maxPerOrganization` for one organization (every search term is a key: the oldest goes first). An answer is a page
 * of at most a few dozen items, so the defaults bound a cache to some tens of megabytes.
 */
export function createOrganizationCache(
  database: Pick<Database, 'onNotify'>, channel: NotifyChannel,
  options: { ttlMs?: number; maxEntries?: number; maxPerOrganization?: number } = {},
): OrganizationCache {
  const ttlMs = options.ttlMs ?? 60_000;
  const maxEntries = options.maxEntries ?? 2_000;
  const maxPerOrganization = Math.min(options.maxPerOrganization ?? 200, maxEntries);
  const organizations = new Map<number, Pages>();
  let entries = 0;
  database.onNotify(channel, (payload) => {
    const organizationId = payload ? Number(payload) : NaN;
    if (Number.isSafeInteger(organizationId)) forget(organizationId);
    else {
      organizations.clear();
      entries = 0;
    }
  });

  function forget(organizationId: number): void {
    entries -= organizations.get(organizationId)?.size ?? 0;
    organizations.delete(organizationId);
  }

  function pagesOf(organizationId: number): Pages {
    const pages = organizations.get(organizationId) ?? new Map();
    // Most recently read last: a Map iterates in insertion order.
    organizations.delete(organizationId);
    organizations.set(organizationId, pages);
    return pages;
  }

  /** Keeps `shared` under `key`, making room: first within the organization, then the least recently read ones. */
  function keep(organizationId: number, pages: Pages, key: string, shared: Pages extends Map<string, infer E> ? E : never): void {
    if (pages.delete(key)) entries--;
    if (pages.size >= maxPerOrganization) {
      pages.delete(pages.keys().next().value!);
      entries--;
    }
    pages.set(key, shared);
    entries++;
    for (const oldest of organizations.keys()) {
      if (entries <= maxEntries || oldest === organizationId) break;
      forget(oldest);
    }
  }

  return {
    read<T>(organizationId: number, key: string, compute: () => Promise<T>): Promise<T> {
      const pages = pagesOf(organizationId);
      const entry = pages.get(key);
      if (entry && entry.expiresAt > performance.now()) return entry.answer as Promise<T>;
      const answer = compute();
      // Current while it runs; kept for ttlMs once answered. An announcement meanwhile drops the map it is in.
      const shared = { answer, expiresAt: Infinity };
      keep(organizationId, pages, key, shared);
      answer.then(
        () => { shared.expiresAt = performance.now() + ttlMs; },
        () => {
          if (organizations.get(organizationId) === pages && pages.get(key) === shared) {
            pages.delete(key);
            entries--;
          }
        },
      );
      return answer;
    },
  };
}
