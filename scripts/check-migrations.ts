// Fails when a migration newer than the upgrade fixture's (test/upgrade/fixture/) holds a table for long on a large
// database: the statements PostgreSQL answers by rewriting or scanning the whole table under ACCESS EXCLUSIVE (a
// column's type changed, a volatile default, SET NOT NULL, a constraint validated at once) or that touch every row
// (UPDATE or DELETE without WHERE). Drizzle runs pending migrations in one transaction, so such a lock lasts until
// the whole upgrade commits. A statement reviewed on the 100,000-workflow bench (bench/migration-locks.ts) may pass
// with a comment line `-- lock-reviewed: <figure and reason>` right above it. Part of `npm run lint:deps`.
import fs from 'node:fs';
import path from 'node:path';
import { fixtureMigrationCount } from '../test/upgrade/fixture.ts';

const folder = path.join(import.meta.dirname, '../src/platform/db/migrations');
const fixtureLevel = fixtureMigrationCount();
const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as {
  entries: { tag: string }[];
};

const RULES: [RegExp, string][] = [
  [/\bALTER\s+COLUMN\s+\S+\s+(SET\s+DATA\s+)?TYPE\b/i, "changing a column's type rewrites the table"],
  [
    /\bADD\s+COLUMN\b[^;]*\bDEFAULT\s+[^;]*\b(now|random|gen_random_uuid|clock_timestamp|uuid_generate_v4)\s*\(/i,
    'a volatile default rewrites the table (add the column without it, then backfill in batches)',
  ],
  [/\bSET\s+NOT\s+NULL\b/i, 'SET NOT NULL scans the table under an exclusive lock (a NOT VALID check first)'],
  [
    /\bADD\s+CONSTRAINT\b(?![^;]*\bNOT\s+VALID\b)[^;]*\b(FOREIGN\s+KEY|CHECK)\b/i,
    'a constraint added valid scans the table (ADD ... NOT VALID, then VALIDATE CONSTRAINT)',
  ],
  [/^\s*UPDATE\s+(?![^;]*\bWHERE\b)[^;]*;?/im, 'an UPDATE without WHERE writes every row in the upgrade'],
  [/^\s*DELETE\s+FROM\s+(?![^;]*\bWHERE\b)[^;]*;?/im, 'a DELETE without WHERE touches every row in the upgrade'],
  [/\b(VACUUM\s+FULL|CLUSTER)\b/i, 'rewrites the table'],
];

const problems: string[] = [];
for (const { tag } of journal.entries.slice(fixtureLevel)) {
  const text = fs.readFileSync(path.join(folder, `${tag}.sql`), 'utf8');
  for (const statement of text.split('--> statement-breakpoint')) {
    const lines = statement.split('\n');
    const reviewed = lines.some((line) => /^\s*--\s*lock-reviewed:\s*\S/.test(line));
    const code = lines.filter((line) => !line.trim().startsWith('--')).join('\n');
    for (const [pattern, why] of RULES)
      if (pattern.test(code) && !reviewed) problems.push(`${tag}: ${why}:\n    ${code.trim().split('\n')[0]}`);
  }
}
if (problems.length > 0) {
  console.error(`Migrations that hold a table for long on a large database:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `migrations: ${journal.entries.length - fixtureLevel} after the upgrade fixture's ${fixtureLevel}, none rewrites a table`,
);
