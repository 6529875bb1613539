import { and, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { executePrepared, type DbOrTx, type Tx } from '../../platform/db/client.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { users, userSettings } from '../../platform/db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;

/** Emails are compared and stored lower-cased and trimmed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)));
  return row ?? null;
}

/** The user row under FOR NO KEY UPDATE (workflows.repo.ts says why not FOR UPDATE): serializes what is counted per account (sign-in failures). */
export async function lockUser(tx: Tx, id: number): Promise<UserRow | null> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('no key update');
  return row ?? null;
}

const userById = preparedStatement('user_by_id', (db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id'))),
);

export async function findUserById(db: DbOrTx, id: number): Promise<UserRow | null> {
  const [row] = await userById(db).execute({ id });
  return row ?? null;
}

/**
 * The user behind a recipient email: the registered or guest user holding it, or a new guest user
 * (SPEC.md: a recipient whose email matches no platform user gets a guest user). Concurrent calls for the
 * same email converge on one row through the unique index.
 */
export async function findOrCreateGuestUser(db: DbOrTx, email: string, name: string): Promise<UserRow> {
  const normalized = normalizeEmail(email);
  const existing = await findUserByEmail(db, normalized);
  if (existing) return existing;
  const [inserted] = await db
    .insert(users)
    .values({ email: normalized, name, isGuest: true })
    .onConflictDoNothing()
    .returning();
  return inserted ?? (await findUserByEmail(db, normalized))!;
}

/** Stores a new enrollment secret while two-factor is off; it becomes active when enabled. */
export async function setPendingTotpSecret(db: DbOrTx, userId: number, secret: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpSecret: secret })
    .where(and(eq(users.id, userId), eq(users.twoFactorEnabled, false)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Turning two-factor off forgets the secret, so turning it on again needs a new enrollment. */
export async function setTwoFactorEnabled(db: DbOrTx, userId: number, enabled: boolean): Promise<void> {
  await db
    .update(users)
    .set(enabled ? { twoFactorEnabled: true } : { twoFactorEnabled: false, totpSecret: null })
    .where(eq(users.id, userId));
}

/**
 * Records `step` as the user's last accepted TOTP step, only if it is later than the one recorded; false
 * means the code's step was already used (a replay), also when two requests race with the same code.
 */
export async function consumeTotpStep(db: DbOrTx, userId: number, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Stores the digest of a new verification code for the user's address; an earlier code stops working. */
export async function setEmailVerificationCode(
  db: DbOrTx,
  userId: number,
  codeHash: string,
  expiresAt: Date,
): Promise<void> {
  await db
    .update(users)
    .set({ emailVerificationHash: codeHash, emailVerificationExpiresAt: expiresAt })
    .where(eq(users.id, userId));
}

/** The account holding this unexpired verification code, without using it (the browser's page asks before it confirms). */
export async function findUserByVerificationCode(
  db: DbOrTx,
  codeHash: string,
  now: Date = new Date(),
): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(
      and(
        eq(users.emailVerificationHash, codeHash),
        gt(users.emailVerificationExpiresAt, now),
        eq(users.isGuest, false),
      ),
    );
  return row ?? null;
}

/**
 * Marks the address of the user holding this (unexpired) code verified, once; a second use of the same code
 * finds the user already verified and changes nothing. Null when no user holds the code or it has expired.
 */
export async function verifyEmailByCode(db: DbOrTx, codeHash: string, now: Date = new Date()): Promise<UserRow | null> {
  const row = await findUserByVerificationCode(db, codeHash, now);
  if (!row) return null;
  if (row.emailVerifiedAt) return row;
  const [updated] = await db
    .update(users)
    .set({ emailVerifiedAt: now })
    .where(and(eq(users.id, row.id), isNull(users.emailVerifiedAt)))
    .returning();
  return updated ?? row;
}

export type UserSettingsRow = typeof userSettings.$inferSelect;

/** For the outbox's question (addresseesWantMail): each address's account, if any, and its notification settings; keyed by normalized address. */
export async function findMailPreferences(
  db: DbOrTx,
  emails: string[],
): Promise<Map<string, { isGuest: boolean; emailVerifiedAt: Date | null; notifications: unknown }>> {
  const rows = await db
    .select({
      email: users.email,
      isGuest: users.isGuest,
      emailVerifiedAt: users.emailVerifiedAt,
      notifications: userSettings.notifications,
    })
    .from(users)
    .leftJoin(userSettings, eq(userSettings.userId, users.id))
    .where(inArray(users.email, [...new Set(emails.map(normalizeEmail))]));
  return new Map(rows.map((row) => [row.email, row]));
}

export async function findUserSettings(db: DbOrTx, userId: number): Promise<UserSettingsRow | null> {
  const [row] = await db.select().from(userSettings).where(eq(userSettings.userId, userId));
  return row ?? null;
}

export async function upsertNotificationSettings(
  db: DbOrTx,
  userId: number,
  notifications: Record<string, boolean>,
): Promise<void> {
  await db
    .insert(userSettings)
    .values({ userId, notifications })
    .onConflictDoUpdate({ target: userSettings.userId, set: { notifications, updatedAt: new Date() } });
}

/**
 * The locale settings that decide a workflow's mail language, in one statement: its owner's and its organization's
 * owner's (either null when that account has set none, or is gone).
 */
export async function findMailLocales(
  db: DbOrTx,
  ownerUserId: number,
  organizationId: number | null,
): Promise<{ sender: string | null; organizationOwner: string | null }> {
  const { rows } = await executePrepared(
    db,
    sql`select (select locale from users where id = ${ownerUserId}) as "sender",
      (select owner.locale from organizations join users owner on owner.id = organizations.owner_user_id
        where organizations.id = ${organizationId ?? -1}) as "organizationOwner"`,
  );
  const row = rows[0] as { sender: string | null; organizationOwner: string | null } | undefined;
  return { sender: row?.sender ?? null, organizationOwner: row?.organizationOwner ?? null };
}

export async function setLocale(db: DbOrTx, userId: number, locale: string): Promise<void> {
  await db.update(users).set({ locale }).where(eq(users.id, userId));
}

/** Turns a guest user into a registered one; null when it is no longer a guest (a concurrent sign-up won). */
export async function upgradeGuestUser(
  tx: Tx,
  userId: number,
  values: Partial<typeof users.$inferInsert>,
): Promise<UserRow | null> {
  const [row] = await tx
    .update(users)
    .set(values)
    .where(and(eq(users.id, userId), eq(users.isGuest, true)))
    .returning();
  return row ?? null;
}

/** A new registered user; null when the email was taken meanwhile (the unique index decides). */
export async function insertAccountUser(tx: Tx, values: typeof users.$inferInsert): Promise<UserRow | null> {
  const [row] = await tx.insert(users).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

export async function setUserOrganization(tx: Tx, userId: number, organizationId: number): Promise<UserRow> {
  const [row] = await tx.update(users).set({ organizationId }).where(eq(users.id, userId)).returning();
  return row;
}
