import type { Database, NotifyChannel } from './client.ts';

export type NotifiedCache = {
  /**
   * The answer kept for the group (an organization, a template) under `key`, or `compute`'s (kept unless a change of
   * the group was announced meanwhile). `key` names the read and every value it depends on besides the group's rows.
   */
  read<T>(groupId: number, key: string, compute: () => Promise<T>): Promise<T>;
};

type Answers = Map<string, { answer: Promise<unknown>; expiresAt: number }>;
type Entry = Answers extends Map<string, infer E> ? E : never;

/**
 * Answers of reads kept per process per group, forgotten when the database announces a change to the group on
 * `channel` (a trigger's NOTIFY with the group's id as the payload; an empty payload, or a notification possibly
 * missed, forgets every group). For reads far more frequent than the writes that change them: an organization's member,
 * role and template lists, a template's analytics (docs/decisions.md "Lists and analytics are cached per process").
 *
 * Exact for this process: a change committed through it is announced to the committing connection before its COMMIT
 * returns, so a later request never sees the old answer; another instance's change, one network delivery after its
 * commit. A read under way when its group's change is announced is answered but not kept: each group's answers live
 * in their own map, which an announcement drops, and a read stores into the map it started with only if that map is
 * still the group's. A read under way is shared by the requests for the same key that arrive meanwhile (after a
 * change, 32 clients would otherwise run the same statement 32 times): while the map stands, nothing was announced
 * since that read began. One that fails is not kept. Entries also expire (`ttlMs`), a backstop should a notification
 * be lost. At most `maxEntries` answers in all (the least recently read group's all forgotten first) and `maxPerGroup`
 * for one group (every search term is a key: the oldest goes first). An answer is a page of at most a few dozen
 * items, so the defaults bound a cache to some tens of megabytes.
 */
export function createNotifiedCache(
  database: Pick<Database, 'onNotify'>, channel: NotifyChannel,
  options: { ttlMs?: number; maxEntries?: number; maxPerGroup?: number } = {},
): NotifiedCache {
  const ttlMs = options.ttlMs ?? 60_000;
  const maxEntries = options.maxEntries ?? 2_000;
  const maxPerGroup = Math.min(options.maxPerGroup ?? 200, maxEntries);
  const groups = new Map<number, Answers>();
  let entries = 0;
  database.onNotify(channel, (payload) => {
    const groupId = payload ? Number(payload) : NaN;
    if (Number.isSafeInteger(groupId)) forget(groupId);
    else {
      groups.clear();
      entries = 0;
    }
  });

  function forget(groupId: number): void {
    entries -= groups.get(groupId)?.size ?? 0;
    groups.delete(groupId);
  }

  function answersOf(groupId: number): Answers {
    const answers = groups.get(groupId) ?? new Map();
    // Most recently read last: a Map iterates in insertion order.
    groups.delete(groupId);
    groups.set(groupId, answers);
    return answers;
  }

  /** Keeps `entry` under `key`, making room: first within the group, then the least recently read groups go. */
  function keep(groupId: number, answers: Answers, key: string, entry: Entry): void {
    if (answers.delete(key)) entries--;
    if (answers.size >= maxPerGroup) {
      answers.delete(answers.keys().next().value!);
      entries--;
    }
    answers.set(key, entry);
    entries++;
    for (const oldest of groups.keys()) {
      if (entries <= maxEntries || oldest === groupId) break;
      forget(oldest);
    }
  }

  return {
    read<T>(groupId: number, key: string, compute: () => Promise<T>): Promise<T> {
      const answers = answersOf(groupId);
      const kept = answers.get(key);
      if (kept && kept.expiresAt > performance.now()) return kept.answer as Promise<T>;
      const answer = compute();
      // Current while it runs; kept for ttlMs once answered. An announcement meanwhile drops the map it is in.
      const entry = { answer, expiresAt: Infinity };
      keep(groupId, answers, key, entry);
      answer.then(
        () => { entry.expiresAt = performance.now() + ttlMs; },
        () => {
          if (groups.get(groupId) === answers && answers.get(key) === entry) {
            answers.delete(key);
            entries--;
          }
        },
      );
      return answer;
    },
  };
}
