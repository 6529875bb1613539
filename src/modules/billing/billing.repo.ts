import { and, asc, count, eq, ilike, or } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { packages } from '../../platform/db/schema/index.ts';

export type PackageRow = typeof packages.$inferSelect;

export async function findPresetPackagesPage(db: DbOrTx, search: string | undefined, limit: number, offset: number) {
  const where = and(eq(packages.preset, true), search ? or(ilike(packages.name, `%${escapeLike(search)}%`), ilike(packages.description, `%${escapeLike(search)}%`)) : undefined);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(packages).where(where).orderBy(asc(packages.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(packages).where(where),
  ]);
  return { rows, total };
}

export async function findDefaultPackage(db: DbOrTx): Promise<PackageRow | null> {
  const [row] = await db.select().from(packages).where(eq(packages.isDefault, true)).limit(1);
  return row ?? null;
}

export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
