/**
 * The upgrade fixture (test/upgrade/fixture/, made by scripts/make-upgrade-fixture.sh) as its readers need it: the
 * upgrade test, bench/migration-locks.ts and scripts/check-migrations.ts.
 */
import fs from 'node:fs';
import path from 'node:path';

export const FIXTURE_DIR = path.join(import.meta.dirname, 'fixture');

/** pg_dump's SQL without its psql meta-commands (\restrict), which a driver does not understand. */
export function fixtureSql(): string {
  return fs
    .readFileSync(path.join(FIXTURE_DIR, 'database.sql'), 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('\\'))
    .join('\n');
}

/** How many migrations the fixture's database had run: the ones after it are what an upgrade applies. */
export function fixtureMigrationCount(): number {
  return (fixtureSql().match(/^INSERT INTO drizzle\.__drizzle_migrations /gm) ?? []).length;
}
