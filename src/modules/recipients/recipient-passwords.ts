import { AppError } from '../../errors.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import { MAX_RECIPIENT_PASSWORDS_PER_CALL } from './recipients.schemas.ts';

/** A password as a body gives it: undefined not given, null or '' none, anything else a password. */
type GivenPassword = string | null | undefined;

/** At most MAX_RECIPIENT_PASSWORDS_PER_CALL passwords in one call: each costs an argon2id hash. */
export function assertRecipientPasswordCount(passwords: readonly GivenPassword[]): void {
  const given = passwords.filter((password) => password).length;
  if (given <= MAX_RECIPIENT_PASSWORDS_PER_CALL) return;
  throw new AppError(
    'RECIPIENT_PASSWORD_LIMIT',
    `At most ${MAX_RECIPIENT_PASSWORDS_PER_CALL} recipients with a recipientPassword per request (${given} given): add the others in further requests`,
    { limit: MAX_RECIPIENT_PASSWORDS_PER_CALL, given },
  );
}

/**
 * The argon2id hashes of recipient passwords, in order: undefined stays undefined (keep what is stored), null or ''
 * becomes null (none). Callers run this before their transaction, never inside it: a hash takes about 110 ms, and
 * inside the transaction the workflow's row lock (on the embedded database, its only session) would be held for
 * every one of them. One after another, so a call takes one thread of the pool, not all of them.
 */
export async function hashRecipientPasswords(
  passwords: readonly GivenPassword[],
): Promise<(string | null | undefined)[]> {
  assertRecipientPasswordCount(passwords);
  const hashes: (string | null | undefined)[] = [];
  for (const password of passwords)
    hashes.push(password === undefined ? undefined : password ? await hashPassword(password) : null);
  return hashes;
}
