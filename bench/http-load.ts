// HTTP load from a separate process, as a client sees the service: autocannon in a child Node process, so the load
// generator does not share the service's event loop (in-process, it would take about half of it). Used by the list
// benches (document-list, org-lists, templates).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import autocannon from 'autocannon';

export type LoadOptions = {
  /** Base URL of the running service (http://127.0.0.1:port). */
  url: string;
  /** Request paths, taken in turn (one path: the same request again and again). */
  paths: string[];
  connections: number;
  seconds: number;
  headers: Record<string, string>;
  /** Load before the measured run, at the same connections, left out of every figure (default 1 s; 0: none): a new
   * pool connection's first statements and the JIT's first compilations are start-up costs, not the steady state. */
  warmupSeconds?: number;
};

export type LoadResult = {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  rps: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** CPU milliseconds per request: of the load client, and (when measured, see measureHttp) of this process and of the database's backends. */
  cpu: { client: number; service?: number; database?: number };
};

/** CPU time (user + system) of a process so far, in milliseconds, from /proc (Linux); 0 if it is gone. */
function processCpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * Runs autocannon in a child process and answers its latency figures (milliseconds), throughput and CPU per request.
 * The service's CPU is this process's (the bench serves in-process); `databasePids` names the PostgreSQL backends
 * serving it (the embedded database runs inside this process). CPU per request does not depend on how loaded the
 * machine is the way latency does: at 32 connections, latency is roughly 32 × CPU per request / cores.
 */
export async function measureHttp(
  options: LoadOptions,
  measure: { databasePids?: () => Promise<number[]> } = {},
): Promise<LoadResult> {
  let before = new Map<number, number>();
  let serviceBefore = process.cpuUsage();
  // The child says when its warm-up is over; CPU is counted from then.
  const startMeasuring = async () => {
    before = new Map(((await measure.databasePids?.()) ?? []).map((pid) => [pid, processCpuMs(pid)]));
    serviceBefore = process.cpuUsage();
  };
  const result = await runLoadProcess(options, startMeasuring);
  const service = process.cpuUsage(serviceBefore);
  // Backends the pool opened during the run started from nothing.
  const after = (await measure.databasePids?.()) ?? [];
  const requests = Math.max(1, result.total);
  result.cpu.service = (service.user + service.system) / 1000 / requests;
  if (after.length > 0)
    result.cpu.database = after.reduce((sum, pid) => sum + processCpuMs(pid) - (before.get(pid) ?? 0), 0) / requests;
  return result;
}

function runLoadProcess(options: LoadOptions, warm: () => Promise<void>): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    // Options through stdin: a long list of paths does not fit in argv.
    const child = spawn(process.execPath, [import.meta.filename], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.stdin.end(JSON.stringify(options));
    let out = '';
    let measuring = Promise.resolve();
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      // The warm-up's end is one line, "warm", before the figures: CPU baselines are read as soon as it arrives (a
      // few milliseconds into the measured run).
      if (out.startsWith('warm\n')) {
        out = out.slice(5);
        measuring = warm();
      }
    });
    child.on('error', reject);
    child.on('close', async (code) => {
      await measuring;
      if (code !== 0) reject(new Error(`load process exited with ${code}`));
      else resolve(JSON.parse(out) as LoadResult);
    });
  });
}

/** One line of figures: latency, throughput, failures, CPU per request. */
export function formatLoad(result: LoadResult): string {
  const cpu = [
    `service ${result.cpu.service?.toFixed(2) ?? '?'}`,
    result.cpu.database === undefined ? '' : `db ${result.cpu.database.toFixed(2)}`,
    `client ${result.cpu.client.toFixed(2)}`,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    `p50 ${String(result.p50).padStart(4)} ms  p99 ${String(result.p99).padStart(4)} ms  max ${String(result.max).padStart(4)} ms  ` +
    `${result.rps.toFixed(0).padStart(5)} req/s  non-2xx ${result.non2xx}  errors ${result.errors + result.timeouts}  cpu ms/req: ${cpu}`
  );
}

async function runChild(options: LoadOptions): Promise<void> {
  let next = 0;
  const run = (seconds: number) =>
    autocannon({
      url: options.url,
      connections: options.connections,
      duration: seconds,
      headers: options.headers,
      requests: [
        {
          setupRequest: (request) => {
            request.path = options.paths[next++ % options.paths.length];
            return request;
          },
        },
      ],
    });
  const warmup = options.warmupSeconds ?? 1;
  if (warmup > 0) await run(warmup);
  process.stdout.write('warm\n');
  const started = process.cpuUsage();
  const result = await run(options.seconds);
  const used = process.cpuUsage(started);
  const figures: LoadResult = {
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    rps: result.requests.average,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    cpu: { client: (used.user + used.system) / 1000 / Math.max(1, result.requests.total) },
  };
  process.stdout.write(JSON.stringify(figures));
}

if (process.argv[1] === import.meta.filename) {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  await runChild(JSON.parse(Buffer.concat(chunks).toString()) as LoadOptions);
}

/** The PostgreSQL backends serving the current database (for measureHttp's CPU figures); none on the embedded database. */
export async function backendPids(database: {
  kind: string;
  sql: { executeSql(text: string): Promise<{ rows: { pid: number }[] }> };
}): Promise<number[]> {
  if (database.kind !== 'postgres') return [];
  const result = await database.sql.executeSql(
    `select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`,
  );
  return result.rows.map((row) => Number(row.pid));
}
