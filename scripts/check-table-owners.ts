/**
 * Fails when code writes a table its module does not own (ARCHITECTURE.md, "Tables and their owners"). The owners
 * are declared in one map, src/platform/db/schema/owners.ts; a write is a Drizzle `.insert(t)`, `.update(t)` or
 * `.delete(t)` of a schema table, or a raw `insert into` / `update … set` / `delete from` in SQL text. Run by
 * `npm run lint:deps`; `--list` prints every write found, by table.
 */
import fs from 'node:fs';
import path from 'node:path';
import { TABLE_OWNERS } from '../src/platform/db/schema/owners.ts';
import * as schema from '../src/platform/db/schema/index.ts';
import { getTableName, isTable } from 'drizzle-orm';

const root = path.resolve(import.meta.dirname, '..');
const tables = new Map<string, string>();
for (const [name, value] of Object.entries(schema)) if (isTable(value)) tables.set(name, getTableName(value));
const bySqlName = new Map([...tables].map(([name, sqlName]) => [sqlName, name]));

/** Who a source file writes as: its module (`signing`), or its part of the platform (`platform/mail`). */
function writerOf(file: string): string {
  const parts = path.relative(path.join(root, 'src'), file).split(path.sep);
  if (parts[0] === 'modules') return parts[1];
  if (parts[0] === 'platform') return parts.length > 2 ? `platform/${parts[1]}` : 'platform';
  return parts[0].replace(/\.ts$/, '');
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(at);
    else if (
      entry.name.endsWith('.ts') &&
      !entry.name.endsWith('.test.ts') &&
      !at.includes(`${path.sep}schema${path.sep}`)
    )
      yield at;
  }
}

type Write = { table: string; writer: string; at: string };
const writes: Write[] = [];
for (const file of sourceFiles(path.join(root, 'src'))) {
  const text = fs.readFileSync(file, 'utf8');
  const writer = writerOf(file);
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  for (const match of text.matchAll(/\.(?:insert|update|delete)\(\s*([A-Za-z]+)\s*\)/g)) {
    if (tables.has(match[1]))
      writes.push({ table: match[1], writer, at: `${path.relative(root, file)}:${lineOf(match.index)}` });
  }
  for (const match of text.matchAll(/\b(?:insert\s+into|delete\s+from|update)\s+"?([a-z_]+)"?(?=[\s(])/gi)) {
    const table = bySqlName.get(match[1]);
    if (table) writes.push({ table, writer, at: `${path.relative(root, file)}:${lineOf(match.index)}` });
  }
}

if (process.argv.includes('--list')) {
  const byTable = new Map<string, Write[]>();
  for (const write of writes) byTable.set(write.table, [...(byTable.get(write.table) ?? []), write]);
  for (const [table, list] of [...byTable].sort()) {
    console.log(`${table} (${[...new Set(list.map((w) => w.writer))].join(', ')})`);
    for (const write of list) console.log(`  ${write.writer.padEnd(20)} ${write.at}`);
  }
}

const problems: string[] = [];
for (const name of tables.keys())
  if (!(name in TABLE_OWNERS)) problems.push(`table ${name} has no owner in src/platform/db/schema/owners.ts`);
for (const write of writes) {
  const owners: readonly string[] =
    (TABLE_OWNERS as Record<string, { owners: readonly string[] }>)[write.table]?.owners ?? [];
  if (!owners.includes(write.writer))
    problems.push(`${write.at}: ${write.writer} writes ${write.table}, owned by ${owners.join(', ') || 'nobody'}`);
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`✘ ${problems.length} write(s) outside the table owners`);
  process.exit(1);
}
console.log(`✔ every write of the ${tables.size} tables is by an owner (${writes.length} writes)`);
