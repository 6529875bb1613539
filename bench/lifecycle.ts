// Full envelope lifecycle, driven from outside as a client sees it: the service runs in its own process (this
// script with the argument `serve`) on a scratch database, listening on 127.0.0.1, its mail going to a real SMTP
// peer (smtp-server) in this driver process. Per envelope: upload a 2-page PDF, add two recipients, place their
// fields, commence, each recipient takes the signing link from the mail the peer received, redeems it and
// signs; then the owner downloads the sealed PDF (the download waits for the seal). Reports envelopes/s sealed,
// per-step p50/p99, and CPU per envelope of the service, the driver and the whole machine.
// Run: npm run bench:lifecycle   (DATABASE_URL=postgres://... npm run bench:lifecycle uses a scratch database there)
// BENCH_ENVELOPES (default 160) and BENCH_CONCURRENCY (default 16) override the sizes. BENCH_CPU_PROFILE=<file>
// writes a V8 CPU profile of the service over the measured phase (warm-up excluded); read it with
// `node bench/cpu-profile-top.ts <file>`. BENCH_PAGE_PICTURES=1 makes each signer also fetch page 1's picture (GET
// /document/v1/page-image, 800 px) after redeeming its link, as the signing page does (the first ask of an envelope
// draws it). BENCH_COUNT_QUERIES=text|origin|both counts the SQL statements the
// service sends per envelope, by text, by HTTP route (or background job), or both (BENCH_TOP_STATEMENTS rows).
// BENCH_TIME_STATEMENTS=1 (embedded database) ranks statement texts by PGlite's own time per envelope instead.
// BENCH_SAMPLE_WAITS=1 (PostgreSQL) samples pg_stat_activity every 50 ms over the measured phase and prints what
// the scratch database's connections were waiting for (a lock, I/O, the client) with their statement, most often
// first (BENCH_TOP_STATEMENTS rows): how the lock queue behind each send was found (bench/README.md "Lifecycle throughput").
import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { SMTPServer } from 'smtp-server';

const ENVELOPES = Number(process.env.BENCH_ENVELOPES ?? 160);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PAGE_PICTURES = process.env.BENCH_PAGE_PICTURES === '1';
const TIME_STATEMENTS = process.env.BENCH_TIME_STATEMENTS === '1';
/** Texts of the named statements the embedded database was asked to parse, by name (statementText). */
const namedTexts = new Map<string, string>();

type ToServer = { type: 'profile-start' } | { type: 'profile-stop'; file?: string } | { type: 'stop' };
type FromServer =
  | { type: 'ready'; baseUrl: string; token: string; kind: string }
  | { type: 'profiled'; cpuMicros: number; statements: [string, number][] }
  | { type: 'error'; message: string };

if (process.argv[2] === 'serve') await serve();
else await drive();

// ---------------------------------------------------------------------------------------------------------
// The service process

async function serve(): Promise<void> {
  const { default: inspector } = await import('node:inspector');
  const { eq } = await import('drizzle-orm');
  const { findDefaultPackage } = await import('../src/modules/billing/billing.repo.ts');
  const { createAccount } = await import('../src/modules/users/accounts.ts');
  const { organizations } = await import('../src/platform/db/schema/index.ts');
  const { startBenchServer } = await import('./bench-server.ts');
  const send = (message: FromServer) => process.send!(message);
  const statements = process.env.BENCH_COUNT_QUERIES || TIME_STATEMENTS ? await countStatements() : null;
  if (process.env.BENCH_NAMED_STATEMENTS === '1') await nameStatements();

  const server = await startBenchServer({
    name: 'lifecycle',
    // One account uploads every envelope, far beyond the per-account limit that protects a real service.
    config: {
      smtpUrl: process.env.BENCH_SMTP_URL,
      mailFrom: 'bench@example.com',
      jobPollSeconds: 0.5,
      uploadsPerMinute: 1_000_000,
    },
    overrides: { log: () => {} },
  });
  const { built } = server;
  const { db } = built.platform;
  const plan = await db.transaction((tx) => findDefaultPackage(tx));
  const { user, organizationId } = await db.transaction((tx) =>
    createAccount(
      tx,
      // Verified, as a sender's address must be before commence mails anyone.
      { name: 'Bench Owner', email: 'bench-owner@example.com', passwordHash: 'x', emailVerifiedAt: new Date() },
      plan!,
    ),
  );
  // Every commence debits a credit; the default plan's would run out.
  await db.update(organizations).set({ credits: 1_000_000 }).where(eq(organizations.id, organizationId));
  const token = await built.platform.tokens.sign({ sub: String(user.id), type: 'USER', organizationId }, 3600);
  const baseUrl = await server.listen();

  const session = new inspector.Session();
  session.connect();
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((resolve, reject) =>
      session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T))),
    );
  let cpuAtStart = process.cpuUsage();
  process.on('message', async (message: ToServer) => {
    try {
      if (message.type === 'profile-start') {
        cpuAtStart = process.cpuUsage();
        statements?.clear();
        if (process.env.BENCH_CPU_PROFILE) {
          await post('Profiler.enable');
          // 1 ms sampling keeps the profiler's own cost small over a run of tens of seconds.
          await post('Profiler.setSamplingInterval', { interval: 1000 });
          await post('Profiler.start');
        }
      } else if (message.type === 'profile-stop') {
        const used = process.cpuUsage(cpuAtStart);
        if (process.env.BENCH_CPU_PROFILE) {
          const { profile } = await post<{ profile: unknown }>('Profiler.stop');
          fs.writeFileSync(process.env.BENCH_CPU_PROFILE, JSON.stringify(profile));
        }
        send({ type: 'profiled', cpuMicros: used.user + used.system, statements: [...(statements ?? [])] });
      } else if (message.type === 'stop') {
        session.disconnect();
        await server.close();
        process.exit(0);
      }
    } catch (error) {
      send({ type: 'error', message: String((error as Error).stack ?? error) });
    }
  });
  send({ type: 'ready', baseUrl, token, kind: built.platform.database.kind });
}

/**
 * BENCH_COUNT_QUERIES: counts every statement the service sends, at the driver (node-postgres' Client.query, or
 * PGlite's query and exec, in and out of transactions), keyed by its text cut to 140 characters.
 */
async function countStatements(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  // BENCH_COUNT_QUERIES=origin: keyed instead by the HTTP request (method and path, ids as :n) that sent it, or
  // "(jobs and background)"; the request is followed by an AsyncLocalStorage entered when the server receives it.
  const byOrigin = process.env.BENCH_COUNT_QUERIES === 'origin' || process.env.BENCH_COUNT_QUERIES === 'both';
  const withText = process.env.BENCH_COUNT_QUERIES !== 'origin';
  const { AsyncLocalStorage } = await import('node:async_hooks');
  const { subscribe } = await import('node:diagnostics_channel');
  const origin = new AsyncLocalStorage<string>();
  if (byOrigin) {
    subscribe('http.server.request.start', (message) => {
      const { request } = message as { request: { method: string; url: string } };
      origin.enterWith(
        `${request.method} ${request.url
          .split('?')[0]
          .replace(/\/\d+/g, '/:n')
          .replace(/getGuestToken\/[^/]+/, 'getGuestToken/:code')}`,
      );
    });
  }
  const count = (text: unknown, amount = 1) => {
    const raw = typeof text === 'string' ? text : ((text as { text?: string })?.text ?? String(text));
    // A named statement (PostgreSQL: prepared once per connection) is marked: the others are built and parsed every time.
    const named = typeof text === 'object' && text !== null && (text as { name?: string }).name ? '[named] ' : '';
    const key = [
      byOrigin ? (origin.getStore() ?? '(jobs and background)') : '',
      withText ? named + raw.replace(/\s+/g, ' ').trim().slice(0, 140) : '',
    ]
      .filter(Boolean)
      .join(' | ');
    counts.set(key, (counts.get(key) ?? 0) + amount);
  };
  const wrap = (target: any, method: string) => {
    const original = target[method];
    target[method] = function (this: unknown, text: unknown, ...rest: unknown[]) {
      count(text);
      return original.call(this, text, ...rest);
    };
  };
  const { default: pg } = await import('pg');
  // pool.query is counted where it is called (its stack names the caller); the client query it makes later is not.
  wrap(pg.Pool.prototype, 'query');
  const clientQuery = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: unknown, text: unknown, ...rest: unknown[]) {
    if (!(new Error().stack ?? '').includes('/pg-pool/')) count(text);
    return (clientQuery as any).call(this, text, ...rest);
  } as typeof clientQuery;
  // PGlite: every statement reaches the database as a protocol message, a Parse (query(), and the service's one-call
  // statements: pglite-query.ts), a Bind of a named statement parsed earlier, or a simple Query (exec(): begin, commit,
  // pg-boss's parameterless text); each is counted once by its text, whichever way it was sent.
  const { PGlite } = await import('@electric-sql/pglite');
  if (TIME_STATEMENTS) {
    // BENCH_TIME_STATEMENTS=1 (PGlite): the database's own time per statement text, in µs, instead of the count; a
    // message that carries no text (Bind, Execute, Sync of PGlite's query()) is charged to the last text seen, and
    // writing the data directory back (syncToFs) is a row of its own.
    let last = '(no statement)';
    const raw = PGlite.prototype.execProtocolRawSync;
    PGlite.prototype.execProtocolRawSync = function (this: InstanceType<typeof PGlite>, message: Uint8Array) {
      last = statementText(message) ?? last;
      const started = performance.now();
      try {
        return raw.call(this, message);
      } finally {
        count(last, (performance.now() - started) * 1000);
      }
    };
    const syncToFs = PGlite.prototype.syncToFs;
    PGlite.prototype.syncToFs = async function (this: InstanceType<typeof PGlite>) {
      const started = performance.now();
      try {
        return await syncToFs.call(this);
      } finally {
        count('(syncToFs)', (performance.now() - started) * 1000);
      }
    };
    return counts;
  }
  const execProtocolStream = PGlite.prototype.execProtocolStream;
  PGlite.prototype.execProtocolStream = function (
    this: InstanceType<typeof PGlite>,
    message: Uint8Array,
    ...rest: unknown[]
  ) {
    const text = statementText(message);
    if (text !== null) count(text);
    return (execProtocolStream as any).call(this, message, ...rest);
  } as typeof execProtocolStream;
  return counts;
}

/**
 * The statement's text of what a call into the embedded database carries, else null: a Parse ('P': name, then text),
 * a Bind ('B': portal, then the name of a statement parsed earlier) or a simple Query ('Q': text), the first of them
 * among the call's protocol messages (a Close of a statement may come first).
 */
function statementText(message: Uint8Array): string | null {
  const cString = (at: number) => Buffer.from(message.subarray(at, message.indexOf(0, at))).toString('utf8');
  for (
    let at = 0;
    at + 5 <= message.length;
    at += 1 + Buffer.from(message.buffer, message.byteOffset + at + 1, 4).readInt32BE(0)
  ) {
    const kind = message[at];
    if (kind === 0x51) return cString(at + 5);
    if (kind === 0x50) {
      const name = cString(at + 5);
      const text = cString(at + 5 + Buffer.byteLength(name) + 1);
      if (name) namedTexts.set(name, text);
      return text;
    }
    if (kind === 0x42) {
      const portal = cString(at + 5);
      const name = cString(at + 5 + Buffer.byteLength(portal) + 1);
      return name ? (namedTexts.get(name) ?? `(statement ${name})`) : null;
    }
  }
  return null;
}

/**
 * BENCH_NAMED_STATEMENTS=1 (an experiment, PostgreSQL only): every statement with parameters becomes a named
 * prepared statement of its connection (named by its text's hash), so PostgreSQL parses it once per connection
 * and may keep a generic plan, instead of parsing and planning every execution (node-postgres' default).
 */
async function nameStatements(): Promise<void> {
  const { default: pg } = await import('pg');
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: unknown, config: unknown, ...rest: unknown[]) {
    if (
      config &&
      typeof config === 'object' &&
      'text' in config &&
      !(config as { name?: string }).name &&
      rest.length > 0 &&
      Array.isArray(rest[0]) &&
      (rest[0] as unknown[]).length > 0
    ) {
      const text = (config as { text: string }).text;
      config = { ...config, name: `b${crypto.createHash('sha1').update(text).digest('hex').slice(0, 20)}` };
    }
    return (query as any).call(this, config, ...rest);
  } as typeof query;
}

// ---------------------------------------------------------------------------------------------------------
// The driver: SMTP peer and HTTP client

async function drive(): Promise<void> {
  const { makePdf } = await import('../test/helpers/pdf-fixtures.ts');
  const { pngDataUrl } = await import('../test/helpers/ceremony.ts');

  // Signing links by recipient address, as the peer receives the commence mails.
  const links = new Map<string, string>();
  const waiting = new Map<string, (code: string) => void>();
  let received = 0;
  const peer = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      const parts: Buffer[] = [];
      stream.on('data', (part: Buffer) => parts.push(part));
      stream.on('end', () => {
        received += 1;
        const code = signingCode(Buffer.concat(parts).toString('latin1'));
        for (const to of session.envelope.rcptTo) {
          const address = to.address.toLowerCase();
          if (!code || links.has(address)) continue;
          links.set(address, code);
          waiting.get(address)?.(code);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  const smtpUrl = `smtp://127.0.0.1:${(peer.server.address() as { port: number }).port}`;

  const child = fork(import.meta.filename, ['serve'], {
    env: { ...process.env, BENCH_SMTP_URL: smtpUrl },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = (await nextMessage(child, 'ready')) as Extract<FromServer, { type: 'ready' }>;
  const { baseUrl, token, kind } = ready;

  function linkOf(address: string): Promise<string> {
    const known = links.get(address);
    if (known) return Promise.resolve(known);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no commence mail to ${address} within 60 s`)), 60_000);
      waiting.set(address, (code) => {
        clearTimeout(timer);
        waiting.delete(address);
        resolve(code);
      });
    });
  }

  async function call(
    method: string,
    path: string,
    options: { token?: string; body?: unknown; form?: FormData } = {},
  ): Promise<any> {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | FormData | undefined = options.form;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }

  const pdf = await makePdf(2);
  const signature = pngDataUrl(120, 40);
  const STEPS = [
    'upload',
    'recipients',
    'fields',
    'commence',
    'mail',
    'guest token',
    ...(PAGE_PICTURES ? (['page picture'] as const) : []),
    'sign (first)',
    'sign (final)',
    'sealed download',
    'envelope',
  ] as const;
  type Step = (typeof STEPS)[number];

  async function envelope(n: number): Promise<Record<Step, number>> {
    const t: Partial<Record<Step, number>> = {};
    const started = performance.now();
    let mark = started;
    const lap = (step: Step) => {
      const now = performance.now();
      t[step] = (t[step] ?? 0) + (now - mark);
      mark = now;
    };
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(pdf)], { type: 'application/pdf' }), 'contract.pdf');
    const { id: documentId, workflowId } = await call('POST', '/document/v1?sequence=UNORDERED', { token, form });
    lap('upload');
    const tag = crypto.randomBytes(4).toString('hex');
    const emails = [`a${n}-${tag}@bench.example`, `b${n}-${tag}@bench.example`];
    const rows = await call('POST', `/workflow/v1/${workflowId}/recipients`, {
      token,
      body: emails.map((emailAddress, i) => ({
        name: i === 0 ? 'Ada Signer' : 'Ben Signer',
        emailAddress,
        useDigitalCert: false,
        recipientColor: i === 0 ? '#1A56DB' : '#D61F69',
        recipientRole: 'SIGNER',
      })),
    });
    lap('recipients');
    const placed = await call('POST', '/workflow/v1/fields/list', {
      token,
      body: rows.flatMap((r: { id: number }, i: number) => [
        {
          documentId,
          recipientId: r.id,
          pageNo: 2,
          box: { x: 72, y: 500 + i * 80, width: 180, height: 50 },
          fieldType: 'SIGNATURE',
          fieldRequired: true,
        },
        {
          documentId,
          recipientId: r.id,
          pageNo: 1,
          box: { x: 72, y: 200 + i * 40, width: 200, height: 24 },
          fieldType: 'NAME',
          fieldRequired: true,
        },
      ]),
    });
    lap('fields');
    await call('POST', `/workflow/v1/${workflowId}/commence`, {
      token,
      body: { title: `Bench ${n}`, message: 'Please sign' },
    });
    lap('commence');
    const codes = await Promise.all(emails.map(linkOf));
    lap('mail');
    let completed = false;
    for (const [i, code] of codes.entries()) {
      const guest = await call('GET', `/auth/v1/getGuestToken/${code}`);
      lap('guest token');
      if (PAGE_PICTURES) {
        const picture = await fetch(`${baseUrl}/document/v1/page-image/${workflowId}?page=1&width=800`, {
          headers: { authorization: `Bearer ${guest.accessToken}` },
        });
        const jpeg = Buffer.from(await picture.arrayBuffer());
        if (picture.status !== 200 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8)
          throw new Error(`page picture of ${workflowId}: ${picture.status}`);
        lap('page picture');
      }
      const mine = placed.filter((f: { recipientId: number }) => f.recipientId === rows[i].id);
      const result = await call('POST', `/workflow/v1/${documentId}/fields/save`, {
        token: guest.accessToken,
        body: mine.map((f: { id: number; fieldType: string }) => ({
          id: f.id,
          type: f.fieldType,
          value: f.fieldType === 'SIGNATURE' ? signature : i === 0 ? 'Ada Signer' : 'Ben Signer',
        })),
      });
      lap(i === 0 ? 'sign (first)' : 'sign (final)');
      completed = result.workflowStatus === 'COMPLETED';
    }
    if (!completed) throw new Error(`workflow ${workflowId} did not complete`);
    const response = await fetch(
      `${baseUrl}/document/v1/download/${workflowId}?selectedOption=downloadDocument&documentId=${documentId}`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    const sealed = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200 || !sealed.includes('/ByteRange'))
      throw new Error(`download of ${workflowId}: ${response.status} ${sealed.subarray(0, 300).toString()}`);
    lap('sealed download');
    t.envelope = performance.now() - started;
    return t as Record<Step, number>;
  }

  try {
    // Warm-up, not counted: compiled schemas, the seal identity, font subsets, pooled connections and workers.
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, 8) }, (_, i) => envelope(-1 - i)));

    const machineBefore = machineCpu();
    const driverBefore = process.cpuUsage();
    child.send({ type: 'profile-start' } satisfies ToServer);
    const waits =
      process.env.BENCH_SAMPLE_WAITS === '1' && kind === 'postgres'
        ? await sampleWaits(process.env.DATABASE_URL!)
        : null;
    const timings: Record<Step, number>[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < ENVELOPES) timings.push(await envelope(next++));
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const waited = await waits?.stop();
    child.send({ type: 'profile-stop' } satisfies ToServer);
    const { cpuMicros, statements } = (await nextMessage(child, 'profiled')) as Extract<
      FromServer,
      { type: 'profiled' }
    >;
    const driver = process.cpuUsage(driverBefore);
    const machine = machineCpu(machineBefore);

    const perEnvelope = (micros: number) => (micros / 1000 / ENVELOPES).toFixed(1);
    console.log(
      `${kind}: ${ENVELOPES} envelopes, ${CONCURRENCY} in flight, ${seconds.toFixed(1)} s: ${(ENVELOPES / seconds).toFixed(2)} envelopes/s sealed (${received} mails at the SMTP peer)`,
    );
    console.log(
      `  CPU per envelope: service ${perEnvelope(cpuMicros)} ms, driver + SMTP peer ${perEnvelope(driver.user + driver.system)} ms, ` +
        `whole machine ${perEnvelope(machine.busyMicros)} ms (database and other load included); ${os.cpus().length} cores, ` +
        `machine ${(machine.busyMicros / 1e6 / seconds).toFixed(2)} cores busy, load average ${os.loadavg()[0].toFixed(1)}`,
    );
    if (statements.length > 0) {
      const total = statements.reduce((sum, [, n]) => sum + n, 0);
      const unit = TIME_STATEMENTS ? 1000 * ENVELOPES : ENVELOPES;
      console.log(
        TIME_STATEMENTS
          ? `  PGlite's time per envelope: ${(total / unit).toFixed(1)} ms; the costliest statements (ms per envelope):`
          : `  SQL statements per envelope: ${(total / unit).toFixed(1)}; the most frequent (per envelope):`,
      );
      for (const [text, n] of statements
        .sort((a, b) => b[1] - a[1])
        .slice(0, Number(process.env.BENCH_TOP_STATEMENTS ?? 40)))
        console.log(`    ${(n / unit).toFixed(2).padStart(6)}  ${text}`);
    }
    if (waited) {
      console.log(
        `  waits in ${waited.samples} samples of the database's active connections (every 50 ms), most frequent first:`,
      );
      for (const [what, n] of waited.counts.slice(0, Number(process.env.BENCH_TOP_STATEMENTS ?? 40)))
        console.log(`    ${String(n).padStart(6)}  ${what}`);
    }
    for (const step of STEPS) {
      const values = timings.map((t) => t[step]).sort((a, b) => a - b);
      const pct = (p: number) => values[Math.min(values.length - 1, Math.ceil(p * values.length) - 1)].toFixed(0);
      console.log(`  ${step.padEnd(16)} p50 ${pct(0.5).padStart(6)} ms   p99 ${pct(0.99).padStart(6)} ms`);
    }
  } finally {
    child.send({ type: 'stop' } satisfies ToServer);
    await new Promise((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve) => peer.close(() => resolve()));
  }
}

/**
 * BENCH_SAMPLE_WAITS: every 50 ms, the scratch databases' (sig_bench_*) client connections that are running a
 * statement and waiting for something, by wait event and statement, counted until stop(). Its own connection.
 */
async function sampleWaits(url: string): Promise<{ stop(): Promise<{ samples: number; counts: [string, number][] }> }> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const counts = new Map<string, number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await client.query<{
        what: string;
      }>(`select wait_event_type || ':' || wait_event || ' | ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as what
        from pg_stat_activity where datname like 'sig_bench_%' and backend_type = 'client backend' and state = 'active' and wait_event is not null`);
      samples += 1;
      for (const { what } of rows) counts.set(what, (counts.get(what) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await client.end();
      return { samples, counts: [...counts].sort((a, b) => b[1] - a[1]) };
    },
  };
}

/** The `/sign/<code>` link of a raw message (its text part may be quoted-printable, with soft line breaks). */
function signingCode(raw: string): string | null {
  const decoded = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
  return /\/sign\/([A-Za-z0-9_-]+)/.exec(decoded)?.[1] ?? null;
}

function nextMessage(child: ChildProcess, type: FromServer['type']): Promise<FromServer> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: FromServer) => {
      if (message.type === 'error') return finish(() => reject(new Error(`service: ${message.message}`)));
      if (message.type === type) finish(() => resolve(message));
    };
    const onExit = (code: number | null) => finish(() => reject(new Error(`service exited (${code})`)));
    const finish = (then: () => void) => {
      child.off('message', onMessage);
      child.off('exit', onExit);
      then();
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/** Busy CPU time of the whole machine from /proc/stat (every process: the database, other users), in µs. */
function machineCpu(since?: { busyMicros: number }): { busyMicros: number } {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: busy = all but idle and iowait.
  const busyTicks = fields
    .slice(0, 8)
    .reduce((sum, value, index) => (index === 3 || index === 4 ? sum : sum + value), 0);
  const busyMicros = (busyTicks * 1e6) / 100;
  return { busyMicros: busyMicros - (since?.busyMicros ?? 0) };
}
