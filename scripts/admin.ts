// The operator's command line: `npm run admin -- <command>` calls the operator's API (/admin/v1/) of a running
// service over HTTP, with ADMIN_TOKEN from the environment. It is a client of the service, not part of it: it reads
// only ADMIN_TOKEN, PUBLIC_URL and PORT, so it runs wherever the service can be reached. Backup and restore are the
// exception: they handle the service's private keys and files, so they run on its host, as its user, with its
// DATA_DIR (and DATABASE_URL), and nothing of a backup goes over HTTP (src/platform/backup/).
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  grant <orgId> <pkgId>      put the organization on the package (any ACTIVE one) for a new cycle with its credits
  renew <orgId>              renew the organization's current package for a new cycle
  orgs [search]              find organizations by name, owner name or email, or id
  org <orgId>                one organization
  users [search]             find users by name or email, or id, with their organizations
  packages [search]          every package, preset and custom (the ids grant takes)
  awaiting-seal              finished workflows whose seal is PENDING or FAILED (--status to pick one)
  reseal <workflowId>        seal a workflow again (a FAILED or PENDING seal)
  disable-user <userId>      disable an account: no sign-in, its tokens, sessions and envelopes' links refused (--reason)
  enable-user <userId>       enable it again: everything works as before
  disable-org <orgId>        disable an organization: its members, apps and envelopes' links refused (--reason)
  enable-org <orgId>         enable it again
  queues                     each job queue's depth (waiting, deferred, active, retry, failed) and oldest waiting job
  export <orgId>             the organization's envelopes with their evidence as a zip (--out <file>)
  backup <dir>               a consistent backup of the running service into a new or empty directory: the database
                             (the embedded one, or pg_dump of DATABASE_URL's), the keys and the stored files (or the
                             bucket's list); on the service's host, with its DATA_DIR
  restore <dir>              write a backup into an empty DATA_DIR (and, for PostgreSQL, the empty database of
                             DATABASE_URL) before the service starts there; needs no running service
  help                       this text

Options:
  --url <url>       the service's base URL (default: $PUBLIC_URL, else http://localhost:$PORT, PORT 8080)
  --page <n>        zero-based page of a list (default 0)
  --size <n>        page size of a list (default 20, at most 1000)
  --status <s>      awaiting-seal: PENDING or FAILED
  --reason <text>   disable-user, disable-org: why, kept with the record
  --by <name>       disable-user, disable-org: who disables it (default: $USER, else "operator")
  --out <file>      export: where the zip goes (default organization-<orgId>-<date>.zip here; - for stdout)
  --json            print the API's JSON answer instead of a table

Environment: ADMIN_TOKEN (required), the service's ADMIN_TOKEN; PUBLIC_URL or PORT as above.
  backup and restore also read DATA_DIR (default ./data) and DATABASE_URL, as the service does.
Exit status: 0 done, 1 the service refused or could not be reached (its error description is printed), 2 bad usage.`;

class UsageError extends Error {}

type Row = Record<string, unknown>;
type Page = { content: Row[]; totalElements: number };

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        url: { type: 'string' },
        page: { type: 'string' },
        size: { type: 'string' },
        status: { type: 'string' },
        reason: { type: 'string' },
        by: { type: 'string' },
        out: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [command = 'help', ...args] = positionals;
  if (values.help || command === 'help') {
    console.log(USAGE);
    return 0;
  }
  const base = (values.url ?? env.PUBLIC_URL ?? `http://localhost:${env.PORT || 8080}`).replace(/\/+$/, '');
  // Asked for when a command calls the service, so a mistyped command is told as such first.
  const api = (method: string, path: string, body?: unknown) => {
    if (!env.ADMIN_TOKEN) throw new UsageError("ADMIN_TOKEN is not set: export the service's ADMIN_TOKEN first");
    return call(base, env.ADMIN_TOKEN, method, path, body);
  };
  const paging = { page: values.page, size: values.size };
  const print = (answer: unknown, table: (answer: any) => string) =>
    console.log(values.json ? JSON.stringify(answer, null, 2) : table(answer));

  switch (command) {
    case 'grant': {
      const [orgId, pkgId] = ids(args, ['orgId', 'pkgId']);
      print(await api('PUT', `/admin/v1/organizations/${orgId}/package`, { pkgId }), billingText);
      return 0;
    }
    case 'renew': {
      const [orgId] = ids(args, ['orgId']);
      print(await api('PUT', `/admin/v1/organizations/${orgId}/package/renew`), billingText);
      return 0;
    }
    case 'orgs':
      print(
        await api('GET', `/admin/v1/organizations${query({ search: optionalSearch(args), ...paging })}`),
        (page: Page) =>
          pageText(page, [
            ['id', (o) => o.id],
            ['name', (o) => o.name],
            ['owner', (o) => (o.owner as Row).email],
            ['package', (o) => (o.package as Row).name],
            ['credits', (o) => o.credits],
            ['expires', (o) => `${day(o.packageExpiresAt)}${o.expired ? ' (expired)' : ''}`],
            ['plan', (o) => (o.servicePlanActive ? 'on' : 'OFF')],
            ['members', (o) => o.activeMembers],
          ]),
      );
      return 0;
    case 'org': {
      const [orgId] = ids(args, ['orgId']);
      print(await api('GET', `/admin/v1/organizations/${orgId}`), objectText);
      return 0;
    }
    case 'users':
      print(await api('GET', `/admin/v1/users${query({ search: optionalSearch(args), ...paging })}`), (page: Page) =>
        pageText(page, [
          ['id', (u) => u.id],
          ['email', (u) => u.email],
          ['name', (u) => u.name],
          ['verified', (u) => (u.emailVerified ? 'yes' : 'no')],
          ['guest', (u) => (u.isGuest ? 'yes' : '')],
          [
            'organizations',
            (u) =>
              (u.organizations as Row[])
                .map(
                  (o) =>
                    `${o.organizationId} ${o.name}${o.isOwner ? ' (owner)' : ''}${o.status === 'ACTIVE' ? '' : ` [${o.status}]`}`,
                )
                .join('; '),
          ],
        ]),
      );
      return 0;
    case 'packages':
      print(await api('GET', `/admin/v1/packages${query({ search: optionalSearch(args), ...paging })}`), (page: Page) =>
        pageText(page, [
          ['id', (p) => p.id],
          ['name', (p) => p.name],
          ['preset', (p) => (p.preset ? 'yes' : 'custom')],
          ['status', (p) => p.status],
          ['credits', (p) => p.credits],
          ['price/credit', (p) => `${p.currencySymbol}${p.creditsPrice}`],
          ['days', (p) => p.duration],
        ]),
      );
      return 0;
    case 'awaiting-seal':
      if (args.length > 0) throw new UsageError('awaiting-seal takes no arguments (use --status PENDING or FAILED)');
      print(
        await api('GET', `/admin/v1/workflows/awaiting-seal${query({ sealStatus: values.status, ...paging })}`),
        (page: Page) =>
          pageText(page, [
            ['workflow', (w) => w.workflowId],
            ['org', (w) => w.organizationId],
            ['completed', (w) => w.completedAt ?? ''],
            ['seal', (w) => w.sealStatus],
            ['failed runs', (w) => w.failedRuns],
            ['job', (w) => (w.sealJobLive ? 'live' : 'none')],
            ['last error', (w) => w.sealError ?? ''],
          ]),
      );
      return 0;
    case 'reseal': {
      const [workflowId] = ids(args, ['workflowId']);
      print(await api('POST', `/admin/v1/workflows/${workflowId}/reseal`), (r: Row) =>
        r.queued
          ? `Workflow ${r.workflowId}: seal job queued (seal ${r.sealStatus}).`
          : `Workflow ${r.workflowId}: a seal job is already queued or running (seal ${r.sealStatus}); nothing added.`,
      );
      return 0;
    }
    case 'disable-user':
    case 'enable-user':
    case 'disable-org':
    case 'enable-org': {
      const [id] = ids(args, [command.endsWith('user') ? 'userId' : 'orgId']);
      const disable = command.startsWith('disable');
      const path = `/admin/v1/${command.endsWith('user') ? 'users' : 'organizations'}/${id}/${disable ? 'disable' : 'enable'}`;
      const body = disable
        ? { by: values.by ?? (env.USER || 'operator'), ...(values.reason ? { reason: values.reason } : {}) }
        : undefined;
      print(await api('POST', path, body), (r: Row) => {
        const what = command.endsWith('user') ? `User ${r.id} (${r.email})` : `Organization ${r.id} (${r.name})`;
        return r.disabled
          ? `${what} is disabled since ${r.disabledAt} by ${r.disabledBy}${r.disabledReason ? `: ${r.disabledReason}` : ''}.`
          : `${what} is enabled.`;
      });
      return 0;
    }
    case 'queues':
      if (args.length > 0) throw new UsageError('queues takes no arguments');
      print(await api('GET', '/admin/v1/queues'), (answer: { queues: Row[] }) =>
        pageText({ content: answer.queues, totalElements: answer.queues.length }, [
          ['queue', (q) => q.queue],
          ['waiting', (q) => q.queued],
          ['deferred', (q) => q.deferred],
          ['active', (q) => q.active],
          ['retry', (q) => q.retry],
          ['failed', (q) => q.failed],
          [
            'oldest waiting',
            (q) => (q.oldestWaitingCreatedAt ? `${q.oldestWaitingCreatedAt} (${age(q.oldestWaitingAgeSeconds)})` : ''),
          ],
        ]),
      );
      return 0;
    case 'export': {
      const [orgId] = ids(args, ['orgId']);
      if (!env.ADMIN_TOKEN) throw new UsageError("ADMIN_TOKEN is not set: export the service's ADMIN_TOKEN first");
      const target = values.out ?? `organization-${orgId}-${new Date().toISOString().slice(0, 10)}.zip`;
      const bytes = await download(base, env.ADMIN_TOKEN, `/admin/v1/organizations/${orgId}/export`, target);
      if (target !== '-') console.error(`Organization ${orgId}: ${bytes} bytes written to ${target}.`);
      return 0;
    }
    case 'backup': {
      const [dir] = paths(args, 'dir');
      if (!env.ADMIN_TOKEN) throw new UsageError("ADMIN_TOKEN is not set: export the service's ADMIN_TOKEN first");
      const { writeBackup, BackupError } = await import('../src/platform/backup/backup-dir.ts');
      const dataDir = path.resolve(env.DATA_DIR || './data');
      const snapshot = (await api('POST', '/admin/v1/backup/snapshot')) as Row;
      try {
        const { manifest, warnings } = await writeBackup({
          dataDir,
          target: path.resolve(dir),
          snapshot: String(snapshot.name),
          databaseUrl: env.DATABASE_URL || undefined,
        });
        const files =
          manifest.storage.kind === 'filesystem'
            ? `${manifest.storage.files} stored files (${manifest.storage.bytes} bytes)`
            : `the list of bucket ${manifest.storage.bucket}'s ${manifest.storage.objects} objects`;
        console.log(
          values.json
            ? JSON.stringify(manifest, null, 2)
            : [
                `Backup of the service as of ${manifest.takenAt} written to ${path.resolve(dir)}:`,
                `  database: ${manifest.database.kind === 'pglite' ? 'the embedded database' : 'pg_dump of DATABASE_URL'} (${manifest.database.file}, ${manifest.database.size} bytes)`,
                `  keys: ${manifest.keys.length} files · ${files}`,
                ...warnings.map((w) => `Note: ${w}`),
                "It holds the platform's private keys: keep it as safe as DATA_DIR.",
              ].join('\n'),
        );
      } catch (error) {
        if (error instanceof BackupError) throw new ApiError(error.message);
        throw error;
      }
      return 0;
    }
    case 'restore': {
      const [dir] = paths(args, 'dir');
      const { restoreBackup, BackupError } = await import('../src/platform/backup/backup-dir.ts');
      const dataDir = path.resolve(env.DATA_DIR || './data');
      try {
        const { manifest, warnings } = await restoreBackup({
          source: path.resolve(dir),
          dataDir,
          databaseUrl: env.DATABASE_URL || undefined,
        });
        console.log(
          [
            `Restored the backup of ${manifest.takenAt} into DATA_DIR ${dataDir}${manifest.database.kind === 'postgres' ? ' and the database of DATABASE_URL' : ''}.`,
            ...warnings.map((w) => `Note: ${w}`),
            'Start the service on it (npm start with this DATA_DIR); its jobs that were running resume.',
          ].join('\n'),
        );
      } catch (error) {
        if (error instanceof BackupError) throw new ApiError(error.message);
        throw error;
      }
      return 0;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/** The service's refusal, with the standard error body's description. */
class ApiError extends Error {}

/** A file answer streamed to `target` (- : stdout) as it arrives; a refusal is reported as call() reports it. */
async function download(base: string, token: string, path: string, target: string): Promise<number> {
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new ApiError(`cannot reach ${base}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  if (!response.ok || !response.body) return failure(response, await response.text());
  const source = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  let bytes = 0;
  source.on('data', (chunk: Buffer) => {
    bytes += chunk.byteLength;
  });
  const partial = `${target}.part`;
  try {
    await pipeline(source, target === '-' ? process.stdout : fs.createWriteStream(partial));
  } catch (error) {
    if (target !== '-') fs.rmSync(partial, { force: true });
    throw new ApiError(`the export was cut off after ${bytes} bytes: ${(error as Error).message}`);
  }
  if (target !== '-') fs.renameSync(partial, target);
  return bytes;
}

function age(seconds: unknown): string {
  const s = Number(seconds);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.floor(s / 60)} min`;
  if (s < 172800) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86400)} days`;
}

async function call(base: string, token: string, method: string, path: string, body?: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new ApiError(`cannot reach ${base}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  const text = await response.text();
  if (!response.ok) return failure(response, text);
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's page): reported as it came.
    return text;
  }
}

/** Throws the service's refusal with its error body's description. */
function failure(response: Response, text: string): never {
  let answer: unknown = text;
  try {
    answer = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's page): reported as it came.
  }
  const error = answer as {
    message?: string;
    errorDescription?: string;
    responseBody?: { detail?: unknown };
    requestId?: string;
  } | null;
  const description =
    typeof error === 'object' && error?.errorDescription
      ? error.errorDescription
      : String(text).slice(0, 300) || response.statusText;
  const detail =
    typeof error === 'object' && error?.responseBody?.detail ? ` (${String(error.responseBody.detail)})` : '';
  const reference = typeof error === 'object' && error?.requestId ? ` [request ${error.requestId}]` : '';
  throw new ApiError(
    `${response.status}${typeof error === 'object' && error?.message ? ` ${error.message}` : ''}: ${description}${detail}${reference}`,
  );
}

function ids(args: string[], names: string[]): number[] {
  if (args.length !== names.length) throw new UsageError(`expected ${names.map((n) => `<${n}>`).join(' ')}`);
  return args.map((value, i) => {
    if (!/^\d+$/.test(value) || Number(value) < 1)
      throw new UsageError(`${names[i]} must be a positive whole number, not "${value}"`);
    return Number(value);
  });
}

function paths(args: string[], name: string): string[] {
  if (args.length !== 1 || !args[0]) throw new UsageError(`expected <${name}>`);
  return args;
}

function optionalSearch(args: string[]): string | undefined {
  return args.length === 0 ? undefined : args.join(' ');
}

function query(values: Record<string, string | undefined>): string {
  const params = new URLSearchParams(
    Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const text = params.toString();
  return text ? `?${text}` : '';
}

function day(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 10) : '';
}

type ColumnSpec = [title: string, value: (row: Row) => unknown];

function pageText(page: Page, columns: ColumnSpec[]): string {
  if (page.content.length === 0) return `Nothing found (${page.totalElements} in all).`;
  const cells = page.content.map((row) => columns.map(([, value]) => String(value(row) ?? '')));
  const widths = columns.map(([title], i) => Math.max(title.length, ...cells.map((line) => line[i].length)));
  const line = (values: string[]) =>
    values
      .map((value, i) => value.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [
    line(columns.map(([title]) => title)),
    line(widths.map((w) => '-'.repeat(w))),
    ...cells.map(line),
    '',
    `${page.content.length} shown of ${page.totalElements}.`,
  ].join('\n');
}

function billingText(billing: Row): string {
  const pkg = billing.package as Row;
  return [
    `Organization ${billing.orgId} is on ${pkg.name} (package ${pkg.id}).`,
    `Credits: ${billing.credits} · cycle ${day(billing.packageStartedAt)} to ${day(billing.packageExpiresAt)}${billing.servicePlanActive ? '' : ' · service plan switched OFF'}`,
  ].join('\n');
}

function objectText(value: Row): string {
  const flat = (prefix: string, object: Row): [string, unknown][] =>
    Object.entries(object).flatMap(([key, v]) =>
      v !== null && typeof v === 'object' && !Array.isArray(v)
        ? flat(`${prefix}${key}.`, v as Row)
        : [[`${prefix}${key}`, v] as [string, unknown]],
    );
  const entries = flat('', value);
  const width = Math.max(...entries.map(([key]) => key.length));
  return entries.map(([key, v]) => `${key.padEnd(width)}  ${v}`).join('\n');
}

try {
  process.exitCode = await main(process.argv.slice(2), process.env);
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`admin: ${error.message}\nRun "npm run admin -- help" for the commands.`);
    process.exitCode = 2;
  } else if (error instanceof ApiError) {
    console.error(`admin: ${error.message}`);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
