import type { Database } from '../../platform/db/client.ts';
import { findActiveMembership, findSessionStanding } from './auth.repo.ts';

// What the request's authentication (http/authenticate.ts) refuses with the cached rows: its one door into modules.
export { assertAccountStanding, assertLinkStanding } from './account-standing.ts';

export type MembershipSubject = { userId: number; organizationId: number; appId?: number };
type ActiveMembership = NonNullable<Awaited<ReturnType<typeof findActiveMembership>>>;
type LinkStanding = NonNullable<Awaited<ReturnType<typeof findSessionStanding>>>;

export type MembershipCache = {
  /** The subject's active membership as findActiveMembership answers it (null: the account no longer stands). */
  find(subject: MembershipSubject): Promise<ActiveMembership | null>;
  /**
   * A signing link's (GUEST) token: the operator's switches on its recipient's account and on its envelope's owner
   * and organization (findSessionStanding), kept like memberships (null: the user row is gone).
   */
  linkStanding(subject: { userId: number; workflowId: number }): Promise<LinkStanding | null>;
};

/**
 * Every USER/CLIENT request checks that its account still stands (auth.repo.ts findActiveMembership). That check is
 * one of the two or three statements of a list request, so this process keeps the memberships it found, and forgets
 * all of them when the database announces a change to a membership, role, user or business app (migration 0023's
 * triggers on the channel access_changed; see docs/accounts.md "Tokens and sessions").
 *
 * Why a revocation still takes effect at once: a change committed through this process is announced to the
 * committing connection before its COMMIT returns, so no later request of this process can find the old entry; a
 * change committed by another instance empties this cache as soon as one of this process's idle connections reads
 * the notification (one network delivery after the commit). A read that was under way when a change was announced
 * is answered but not kept (`generation`), so a membership read before a change cannot be stored after it. Only
 * memberships found are kept: a refusal is always read again. Entries also expire (`ttlMs`), a backstop should a
 * notification be lost with its connection.
 */
export function createMembershipCache(
  database: Pick<Database, 'db' | 'onNotify'>,
  options: { ttlMs?: number; maxEntries?: number } = {},
): MembershipCache {
  const ttlMs = options.ttlMs ?? 30_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, { value: ActiveMembership | LinkStanding; expiresAt: number }>();
  let generation = 0;
  database.onNotify('access_changed', () => {
    generation++;
    entries.clear();
  });

  async function cached<T extends ActiveMembership | LinkStanding>(key: string, read: () => Promise<T | null>) {
    const entry = entries.get(key);
    if (entry && entry.expiresAt > performance.now()) return entry.value as T;
    const readAt = generation;
    const value = await read();
    if (value && readAt === generation) {
      entries.delete(key);
      // Oldest first out: a Map iterates in insertion order.
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, { value, expiresAt: performance.now() + ttlMs });
    }
    return value;
  }

  return {
    find(subject) {
      return cached(`${subject.userId}:${subject.organizationId}:${subject.appId ?? ''}`, () =>
        findActiveMembership(database.db, subject),
      );
    },
    linkStanding(subject) {
      return cached(`link:${subject.userId}:${subject.workflowId}`, () => findSessionStanding(database.db, subject));
    },
  };
}
