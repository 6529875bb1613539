import type { Database } from '../../platform/db/client.ts';
import { findActiveMembership } from './auth.repo.ts';

export type MembershipSubject = { userId: number; organizationId: number; appId?: number };
type ActiveMembership = NonNullable<Awaited<ReturnType<typeof findActiveMembership>>>;

export type MembershipCache = {
  /** The subject's active membership as findActiveMembership answers it (null: the account no longer stands). */
  find(subject: MembershipSubject): Promise<ActiveMembership | null>;
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
  const entries = new Map<string, { membership: ActiveMembership; expiresAt: number }>();
  let generation = 0;
  database.onNotify('access_changed', () => {
    generation++;
    entries.clear();
  });

  return {
    async find(subject) {
      const key = `${subject.userId}:${subject.organizationId}:${subject.appId ?? ''}`;
      const entry = entries.get(key);
      if (entry && entry.expiresAt > performance.now()) return entry.membership;
      const readAt = generation;
      const membership = await findActiveMembership(database.db, subject);
      if (membership && readAt === generation) {
        entries.delete(key);
        // Oldest first out: a Map iterates in insertion order.
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(key, { membership, expiresAt: performance.now() + ttlMs });
      }
      return membership;
    },
  };
}
