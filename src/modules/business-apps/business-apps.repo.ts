import { and, asc, count, eq, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { businessApps, organizations } from '../../platform/db/schema/index.ts';

export type BusinessAppRow = typeof businessApps.$inferSelect;
export type NewBusinessApp = Pick<
  typeof businessApps.$inferInsert,
  'organizationId' | 'clientId' | 'appName' | 'callbackUrl' | 'secretHash' | 'webhookSecret' | 'status'
>;

export async function insertBusinessApp(db: DbOrTx, values: NewBusinessApp): Promise<BusinessAppRow> {
  const [row] = await db.insert(businessApps).values(values).returning();
  return row;
}

export async function findAppsOfOrganization(db: DbOrTx, organizationId: number): Promise<BusinessAppRow[]> {
  return db
    .select()
    .from(businessApps)
    .where(eq(businessApps.organizationId, organizationId))
    .orderBy(asc(businessApps.id));
}

/** The app when it belongs to the organization; another organization's app is null, like a missing one. */
export async function findAppOfOrganization(
  db: DbOrTx,
  organizationId: number,
  appId: number,
  options: { lock?: boolean } = {},
): Promise<BusinessAppRow | null> {
  const query = db
    .select()
    .from(businessApps)
    .where(and(eq(businessApps.id, appId), eq(businessApps.organizationId, organizationId)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

/** Apps that would clash with a registration: the same client id anywhere, or the same name (ignoring case) in the organization. */
export async function findClashingApps(
  db: DbOrTx,
  organizationId: number,
  clientId: string,
  appName: string,
): Promise<BusinessAppRow[]> {
  return db
    .select()
    .from(businessApps)
    .where(
      or(
        eq(businessApps.clientId, clientId),
        and(eq(businessApps.organizationId, organizationId), sql`lower(${businessApps.appName}) = lower(${appName})`),
      ),
    );
}

/** Another app of the organization with this name, ignoring case (a rename's clash). */
export async function findAppNamed(
  db: DbOrTx,
  organizationId: number,
  appName: string,
  exceptAppId: number,
): Promise<BusinessAppRow | null> {
  const [row] = await db
    .select()
    .from(businessApps)
    .where(
      and(
        eq(businessApps.organizationId, organizationId),
        sql`lower(${businessApps.appName}) = lower(${appName})`,
        ne(businessApps.id, exceptAppId),
      ),
    );
  return row ?? null;
}

/**
 * Locks the organization's row (FOR NO KEY UPDATE: inserts of rows referencing it still go on) for a decision that
 * counts its apps: two registrations or enables of one organization take turns, so both cannot pass the limit.
 */
export async function lockOrganizationForApps(db: DbOrTx, organizationId: number): Promise<void> {
  await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for('no key update');
}

/** The organization's enabled apps: those that receive callbacks. */
export async function countEnabledApps(db: DbOrTx, organizationId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(businessApps)
    .where(and(eq(businessApps.organizationId, organizationId), eq(businessApps.status, true)));
  return Number(row?.n ?? 0);
}

export async function updateApp(
  db: DbOrTx,
  appId: number,
  values: Partial<Pick<BusinessAppRow, 'status' | 'secretHash' | 'webhookSecret' | 'appName' | 'callbackUrl'>>,
): Promise<BusinessAppRow> {
  const [row] = await db.update(businessApps).set(values).where(eq(businessApps.id, appId)).returning();
  return row;
}
