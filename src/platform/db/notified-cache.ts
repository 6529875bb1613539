import type { Database, NotifyChannel } from './client.ts';

export type NotifiedCache = {
  /**
   * The answer kept for the group (an organization, a template) under `key`, or `compute`'s (kept unless a change of
   * the group was announced meanwhile). `key` names the read and every value it depends on besides the group's rows.
   * `weight` is what the answer counts against the cache's bound, in items (default 1, a single row); for a list, a
   * function of the answer giving its length.
   */
  read<T>(
    groupId: number,
    key: string,
    compute: () => Promise<T>,
    weight?: number | ((answer: T) => number),
  ): Promise<T>;
};

type Entry = { answer: Promise<unknown>; expiresAt: number; weight: number };
type Group = { answers: Map<string, Entry>; weight: number };

/**
 * Answers of reads kept per process per group, forgotten when the database announces a change to the group on
 * `channel` (a trigger's NOTIFY with the group's id as the payload, or several ids comma-separated; an empty payload,
 * or a notification possibly missed, forgets every group). For reads far more frequent than the writes that change
 * them: an organization's member, role and template lists, a template's analytics, a user's document list
 * (docs/lists-and-search.md "Caches kept per process").
 *
 * Exact for this process: a change committed through it is announced to the committing connection before its COMMIT
 * returns, so a later request never sees the old answer; another instance's change, one network delivery after its
 * commit. A read under way when its group's change is announced is answered but not kept: each group's answers live
 * in their own map, which an announcement drops, and a read stores into the map it started with only if that map is
 * still the group's. A read under way is shared by the requests for the same key that arrive meanwhile (after a
 * change, 32 clients would otherwise run the same statement 32 times): while the map stands, nothing was announced
 * since that read began. One that fails is not kept. Entries also expire (`ttlMs`), a backstop should a notification
 * be lost. Bounded by weight, so that pages of a thousand items (the largest size a list takes) cannot fill memory:
 * at most `maxWeight` in all (about 40,000 items by default, some tens of megabytes; the least recently read group's
 * answers all go first) and `maxPerGroup` answers for one group (every search term is a key: the oldest goes first).
 */
export function createNotifiedCache(
  database: Pick<Database, 'onNotify'>,
  channel: NotifyChannel,
  options: { ttlMs?: number; maxWeight?: number; maxPerGroup?: number } = {},
): NotifiedCache {
  const ttlMs = options.ttlMs ?? 60_000;
  const maxWeight = options.maxWeight ?? 40_000;
  const maxPerGroup = options.maxPerGroup ?? 200;
  const groups = new Map<number, Group>();
  let weight = 0;
  database.onNotify(channel, (payload) => {
    // One group id, or several comma-separated (document lists: every viewer of the workflows a statement changed).
    const groupIds = payload ? payload.split(',').map(Number) : [NaN];
    if (groupIds.every(Number.isSafeInteger)) groupIds.forEach(forget);
    else {
      groups.clear();
      weight = 0;
    }
  });

  function forget(groupId: number): void {
    weight -= groups.get(groupId)?.weight ?? 0;
    groups.delete(groupId);
  }

  function groupOf(groupId: number): Group {
    const group = groups.get(groupId) ?? { answers: new Map(), weight: 0 };
    // Most recently read last: a Map iterates in insertion order.
    groups.delete(groupId);
    groups.set(groupId, group);
    return group;
  }

  function drop(group: Group, key: string): void {
    const entry = group.answers.get(key);
    if (!entry) return;
    group.answers.delete(key);
    group.weight -= entry.weight;
    weight -= entry.weight;
  }

  /** Keeps `entry` under `key`, making room within the group first. */
  function keep(groupId: number, group: Group, key: string, entry: Entry): void {
    drop(group, key);
    if (group.answers.size >= maxPerGroup) drop(group, group.answers.keys().next().value!);
    group.answers.set(key, entry);
    group.weight += entry.weight;
    weight += entry.weight;
    shrink(groupId, group);
  }

  /** Back under maxWeight: the least recently read groups go, then `group`'s oldest answers (never its newest). */
  function shrink(groupId: number, group: Group): void {
    for (const oldest of groups.keys()) {
      if (weight <= maxWeight || oldest === groupId) break;
      forget(oldest);
    }
    while (weight > maxWeight && group.answers.size > 1) drop(group, group.answers.keys().next().value!);
  }

  return {
    read<T>(
      groupId: number,
      key: string,
      compute: () => Promise<T>,
      weightOf: number | ((answer: T) => number) = 1,
    ): Promise<T> {
      const group = groupOf(groupId);
      const kept = group.answers.get(key);
      if (kept && kept.expiresAt > performance.now()) return kept.answer as Promise<T>;
      const answer = compute();
      // Current while it runs; kept for ttlMs once answered. An announcement meanwhile drops the group it is in.
      const entry: Entry = {
        answer,
        expiresAt: Infinity,
        weight: typeof weightOf === 'number' ? Math.max(1, weightOf) : 1,
      };
      keep(groupId, group, key, entry);
      const current = () => groups.get(groupId) === group && group.answers.get(key) === entry;
      answer.then(
        (value) => {
          entry.expiresAt = performance.now() + ttlMs;
          if (typeof weightOf === 'function' && current()) {
            const grown = Math.max(1, weightOf(value)) - entry.weight;
            entry.weight += grown;
            group.weight += grown;
            weight += grown;
            shrink(groupId, group);
          }
        },
        () => {
          if (current()) drop(group, key);
        },
      );
      return answer;
    },
  };
}
