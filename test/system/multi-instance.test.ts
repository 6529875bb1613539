import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { pngDataUrl } from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';
import { startS3Server, type S3TestServer } from '../helpers/s3-server.ts';
import { CookieBrowser, json } from '../web-session/helpers.ts';
import { SIGNIN_FAILURES_PER_ACCOUNT } from '../../src/platform/limits/attempts.ts';
import {
  call,
  killHard,
  ok,
  scratchDatabase,
  sleep,
  startServiceProcess,
  startSmtpPeer,
  type PeerMail,
  type ServiceProcess,
} from './service-process.ts';

/**
 * Several instances behave as one service (issue 15, item 4): three, then two, service PROCESSES (`node src/main.ts`)
 * on one PostgreSQL database, one S3 bucket (a real S3-compatible server) and one SMTP peer, sharing nothing else
 * but the keys directory (DATA_DIR/keys: the signing-link key and the seal identity; JWT_SECRET and SECRETS_KEY could
 * come from the environment instead). An envelope's steps are spread over them, one is killed (SIGKILL) while it
 * seals and another while it dispatches a Power Survey, and nothing is lost or done twice.
 *
 * PostgreSQL only: the embedded database belongs to one process (docs/operations.md "Several instances").
 */
const postgres = Boolean(process.env.DATABASE_URL);
const UPLOADS_PER_MINUTE = 4;
const SEAL_DELAY_MS = 4000;
const SURVEY_RECIPIENTS = 800;
const SURVEY_BATCH_DELAY_MS = 3000;

let database: NonNullable<Awaited<ReturnType<typeof scratchDatabase>>>;
let s3: S3TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let dataDir: string;
const instances: ServiceProcess[] = [];
let [a, b, c] = [] as ServiceProcess[];

function alive(): ServiceProcess[] {
  return instances.filter((service) => service.child.exitCode === null && service.child.signalCode === null);
}

async function start(name: string, publicUrl?: string): Promise<ServiceProcess> {
  const service = await startServiceProcess(name, {
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    // The AWS SDK's own chain reads these (the service never sees the credentials).
    AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'service@multi.example',
    SEAL_TEST_DELAY_MS: String(SEAL_DELAY_MS),
    // Each dispatch batch holds its transaction this long before committing: the kill below lands while a batch is
    // in flight, however fast the machine creates children (800 of them once took less than the 100 ms poll).
    SURVEY_TEST_DELAY_MS: String(SURVEY_BATCH_DELAY_MS),
    UPLOADS_PER_MINUTE: String(UPLOADS_PER_MINUTE),
    // Debug: every job attempt logs "job started" with its queue and id, which tells which instance holds a job.
    LOG_LEVEL: 'debug',
    ...(publicUrl ? { PUBLIC_URL: publicUrl } : {}),
  });
  instances.push(service);
  return service;
}

beforeAll(async () => {
  if (!postgres) return;
  database = (await scratchDatabase('sig_multi'))!;
  s3 = await startS3Server();
  smtp = await startSmtpPeer();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sig-multi-'));
  // A first, alone (it creates the keys); B and C together. PUBLIC_URL, the address every mail links to, is A's: the
  // front door a load balancer would be.
  a = await start('A');
  [b, c] = await Promise.all([start('B', a.base), start('C', a.base)]);
}, 600_000);

afterAll(async () => {
  for (const service of instances) await killHard(service);
  await database?.drop();
  await s3?.close();
  await smtp?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function account(on: ServiceProcess, label: string) {
  const email = `${label}-${crypto.randomBytes(4).toString('hex')}@multi.example`;
  const password = 'correct horse battery';
  const { userId } = await ok(on.base, 'POST', '/auth/v1/signup', { body: { name: 'Multi Owner', email, password } });
  // Sending to others needs a verified address (RUNTIME.md round three): the owner opens the mailed link and confirms.
  const [mail] = await database.query(
    "select text_body from mail_outbox where to_address = $1 and kind = 'EMAIL_VERIFICATION' order by id desc limit 1",
    [email],
  );
  const code = /\/verify-email\/([A-Za-z0-9_-]{43})/.exec(mail?.text_body ?? '')?.[1];
  if (!code) throw new Error(`no verification link mailed to ${email}`);
  await ok(on.base, 'POST', '/auth/v1/verify-email', { body: { code } });
  return { email, password, userId: userId as number };
}

async function signin(on: ServiceProcess, email: string, password: string): Promise<string> {
  return (await ok(on.base, 'POST', '/auth/v1/signin', { body: { grant_type: 'PASSWORD', username: email, password } }))
    .accessToken;
}

async function upload(on: ServiceProcess, token: string, query = '') {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(await makePdf(1))], { type: 'application/pdf' }), 'contract.pdf');
  return call(on.base, 'POST', `/document/v1${query}`, { token, form });
}

/** The signing code in the newest COMMENCE mail queued for `email`. */
async function signingCode(email: string): Promise<string> {
  const [row] = await database.query(
    "select text_body from mail_outbox where to_address = $1 and kind = 'COMMENCE' order by id desc limit 1",
    [email.toLowerCase()],
  );
  const code = /\/sign\/([A-Za-z0-9_-]+)/.exec(row?.text_body ?? '')?.[1];
  if (!code) throw new Error(`no signing link mailed to ${email}`);
  return code;
}

async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** The instance whose log shows it started a job of `queue` (matching `match` when given), if any. */
function holderOf(
  queue: string,
  match: (line: Record<string, any>) => boolean = () => true,
): ServiceProcess | undefined {
  return alive().find((service) => service.logLines().some((line) => line.job === queue && match(line)));
}

describe.skipIf(!postgres)('three instances on one database and one bucket', () => {
  it('share sign-in limits, upload limits and web sessions: they live in the database', async () => {
    // Sign-in lockout counted across instances: the failures are spread over A, B and C.
    const locked = await account(a, 'locked');
    for (let i = 0; i < SIGNIN_FAILURES_PER_ACCOUNT.max; i++) {
      const on = [a, b, c][i % 3];
      const wrong = await call(on.base, 'POST', '/auth/v1/signin', {
        body: { grant_type: 'PASSWORD', username: locked.email, password: 'wrong password' },
      });
      expect(wrong.status).toBe(401);
    }
    for (const on of [a, b, c]) {
      const right = await call(on.base, 'POST', '/auth/v1/signin', {
        body: { grant_type: 'PASSWORD', username: locked.email, password: locked.password },
      });
      expect(right.status, `${on.name}: ${JSON.stringify(right.body)}`).toBe(401);
      expect(right.body.message).toBe('ACCOUNT_TEMPORARILY_LOCKED');
    }

    // The upload rate limit is one count too.
    const uploader = await account(b, 'uploader');
    const token = await signin(c, uploader.email, uploader.password);
    for (let i = 0; i < UPLOADS_PER_MINUTE; i++) expect((await upload([a, b, c][i % 3], token)).status).toBe(201);
    const over = await upload(c, token);
    expect(over.status).toBe(429);
    expect(over.body.message).toBe('UPLOAD_RATE_LIMITED');

    // A web session begun on A, signed in on B, completed on C works on A and B, and a logout on B ends it on C.
    const person = await account(a, 'browser');
    const browser = new CookieBrowser();
    const authorize = await browser.request(`${a.base}/bff/auth/authorize`);
    expect(authorize.status).toBe(302);
    const state = new URL(authorize.headers.get('location')!).searchParams.get('state')!;
    const signed = await browser.request(`${b.base}/auth/v1/signin/authorize`, {
      method: 'POST',
      body: { state, grant_type: 'PASSWORD', username: person.email, password: person.password },
    });
    expect(signed.status).toBe(200);
    const callback = new URL((await json(signed)).redirectUrl);
    const landed = await browser.request(`${c.base}${callback.pathname}${callback.search}`);
    expect(landed.status).toBe(302);
    const me = await json(await browser.request(`${a.base}/bff/auth/me`));
    expect(me).toMatchObject({ userId: person.userId, email: person.email });
    expect((await browser.request(`${b.base}/user/v1/settings/profile`)).status).toBe(200);
    expect(
      (
        await browser.request(`${b.base}/bff/auth/logout`, {
          method: 'POST',
          headers: { 'x-csrf-token': me.csrfToken },
        })
      ).status,
    ).toBe(200);
    expect((await browser.request(`${c.base}/bff/auth/me`)).status).toBe(401);
  }, 300_000);

  it('carry one envelope across A, B and C; a kill -9 during sealing: sealed once by another instance, one set of completion mails', async () => {
    const owner = await account(a, 'owner');
    const token = await signin(b, owner.email, owner.password);
    // Upload on A, recipients on B, fields and commence on C.
    const uploaded = await upload(a, token);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const { id: documentId, workflowId } = uploaded.body;
    const signers = ['First Signer', 'Second Signer'].map((name, i) => ({
      name,
      email: `signer${i + 1}-${crypto.randomBytes(3).toString('hex')}@multi.example`,
    }));
    const rows = await ok(b.base, 'POST', `/workflow/v1/${workflowId}/recipients`, {
      token,
      body: signers.map((s) => ({
        name: s.name,
        emailAddress: s.email,
        useDigitalCert: false,
        recipientColor: '#1A56DB',
        recipientRole: 'SIGNER',
      })),
    });
    const fields = await ok(c.base, 'POST', '/workflow/v1/fields/list', {
      token,
      body: rows.map((row: any, i: number) => ({
        documentId,
        recipientId: row.id,
        pageNo: 1,
        box: { x: 72, y: 500 - 80 * i, width: 180, height: 50 },
        fieldType: 'SIGNATURE',
        fieldRequired: true,
      })),
    });
    await ok(c.base, 'POST', `/workflow/v1/${workflowId}/commence`, { token, body: {} });
    await until(
      'both commence mails at the SMTP peer',
      async () => signers.every((s) => smtp.received.some((m) => m.to.includes(s.email) && m.subject !== '')),
      60_000,
    );

    // The first signer signs on A, the second on B: the workflow completes there and its seal job is queued.
    const guestA = (await ok(a.base, 'GET', `/auth/v1/getGuestToken/${await signingCode(signers[0].email)}`))
      .accessToken;
    await ok(a.base, 'POST', `/workflow/v1/${documentId}/fields/save`, {
      token: guestA,
      body: [{ id: fields[0].id, type: 'SIGNATURE', value: pngDataUrl(80, 30, 1) }],
    });
    const bucketBefore = new Set(s3.keys());
    const guestB = (await ok(b.base, 'GET', `/auth/v1/getGuestToken/${await signingCode(signers[1].email)}`))
      .accessToken;
    const done = await ok(b.base, 'POST', `/workflow/v1/${documentId}/fields/save`, {
      token: guestB,
      body: [{ id: fields[1].id, type: 'SIGNATURE', value: pngDataUrl(80, 30, 2) }],
    });
    expect(done).toMatchObject({ workflowStatus: 'COMPLETED', sealStatus: 'PENDING' });

    // Whoever took the seal job is inside its SEAL_TEST_DELAY_MS window: kill it there.
    const sealer = await until(
      'an instance sealing',
      async () =>
        holderOf(
          'workflow.seal',
          (line) => line.workflowId === workflowId && String(line.msg).includes('waits SEAL_TEST_DELAY_MS'),
        ),
      30_000,
    );
    await killHard(sealer);
    const killedAt = Date.now();
    const survivors = alive();
    expect(survivors).toHaveLength(2);

    // Another instance reclaims the job when the lease lapses and seals; a download on a survivor waits for it.
    const [reader] = survivors;
    const sealedAnswer = await until(
      'the sealed download',
      async () => {
        const res = await fetch(
          `${reader.base}/document/v1/download/${workflowId}?selectedOption=downloadDocument&documentId=${documentId}`,
          { headers: { authorization: `Bearer ${token}` } },
        );
        return res.status === 200 ? res : null;
      },
      90_000,
    );
    const sealedBytes = new Uint8Array(await sealedAnswer.arrayBuffer());
    const sealedAfterMs = Date.now() - killedAt;
    expect((await pdfsig(sealedBytes)).allValid).toBe(true);
    const resealer = holderOf('workflow.seal', (line) => line.workflowId === workflowId);
    expect(resealer && resealer !== sealer).toBe(true);

    // Exactly once: one seal job (its lost attempt counted), one new object in the bucket (the sealed file, kept
    // over its source as the appended update: appended-blob.ts).
    const [row] = await database.query('select sealed_blob_key from documents where id = $1', [documentId]);
    const added = [...new Set(s3.keys())].filter((key) => !bucketBefore.has(key));
    expect(added).toEqual([`blobs/${row.sealed_blob_key}.appended`]);
    const jobs = await database.query(
      "select state, retry_count from pgboss.job where name = 'workflow.seal' and data->>'workflowId' = $1",
      [String(workflowId)],
    );
    expect(jobs).toEqual([{ state: 'completed', retry_count: 1 }]);

    // One completion mail per person (the owner and both signers) reached the SMTP peer, and no second set follows.
    const completed = () =>
      smtp.received.filter(
        (m) =>
          m.subject.startsWith('Completed:') &&
          [owner.email, ...signers.map((s) => s.email)].some((e) => m.to.includes(e)),
      );
    await until('three completion mails', async () => completed().length >= 3, 60_000);
    await sleep(3000);
    expect(
      completed()
        .map((m) => m.to[0])
        .sort(),
    ).toEqual([owner.email, ...signers.map((s) => s.email)].sort());
    console.log(
      `multi-instance: ${sealer.name} killed while sealing; ${resealer!.name} sealed, download answered ${sealedAfterMs} ms after the kill`,
    );
  }, 600_000);

  it('two instances: a kill -9 during a Power Survey dispatch creates every child once and sends every mail once', async () => {
    const [first, second] = alive();
    expect(alive()).toHaveLength(2);
    const owner = await account(first, 'survey');
    const token = await signin(second, owner.email, owner.password);
    // The plan and the credits for a survey this large.
    await database.query(
      'update packages set power_survey_recipient_limit = 100000 where id = (select package_id from organizations where owner_user_id = $1)',
      [owner.userId],
    );
    await database.query('update organizations set credits = $2 where owner_user_id = $1', [
      owner.userId,
      SURVEY_RECIPIENTS + 100,
    ]);
    const uploaded = await upload(first, token, '?sequence=SURVEY&signType=POWERSURVEY');
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const { id: documentId, workflowId: parentId } = uploaded.body;
    const stamp = crypto.randomBytes(3).toString('hex');
    const people = Array.from({ length: SURVEY_RECIPIENTS }, (_, i) => ({
      name: 'Survey Person',
      emailAddress: `p${i}-${stamp}@survey.example`,
      useDigitalCert: false,
      recipientColor: '#1A56DB',
    }));
    await ok(second.base, 'POST', `/workflow/v1/${parentId}/recipients`, { token, body: people });
    await ok(first.base, 'POST', '/workflow/v1/fields/list', {
      token,
      body: [
        {
          documentId,
          recipientId: null,
          pageNo: 1,
          box: { x: 72, y: 72, width: 150, height: 40 },
          fieldType: 'SIGNATURE',
          fieldRequired: true,
        },
      ],
    });
    const [{ credits: creditsBefore }] = await database.query(
      'select credits from organizations where owner_user_id = $1',
      [owner.userId],
    );

    const commenced = await call(second.base, 'POST', `/workflow/v1/${parentId}/commence`, {
      token,
      body: { title: 'Staff survey' },
    });
    expect(commenced.status, JSON.stringify(commenced.body)).toBe(202);
    const children = async () =>
      Number(
        (await database.query('select count(*)::int as n from workflows where parent_workflow_id = $1', [parentId]))[0]
          .n,
      );

    // Kill the instance running the dispatch while it is under way: the first batches (3 lanes of 250) have
    // committed and the last one (50) waits inside its transaction (SURVEY_TEST_DELAY_MS); the kill rolls it back.
    const dispatcher = await until('an instance dispatching', async () => holderOf('survey.dispatch'), 30_000);
    await until('the dispatch under way', async () => (await children()) >= SURVEY_RECIPIENTS / 8, 120_000);
    const batchesWaited = () =>
      dispatcher.logLines().filter((line) => String(line.msg).includes('children waits SURVEY_TEST_DELAY_MS')).length;
    await until('the fourth batch in flight', async () => batchesWaited() >= 4, 30_000);
    await killHard(dispatcher);
    const atKill = await children();
    const killedAt = Date.now();
    expect(atKill).toBeLessThan(SURVEY_RECIPIENTS);
    const [survivor] = alive();
    expect(survivor).toBeDefined();

    // The survivor takes the job over and finishes the dispatch; every commence mail is delivered.
    await until('every child', async () => (await children()) === SURVEY_RECIPIENTS, 180_000);
    const finishedAfterMs = Date.now() - killedAt;
    const childMails = async () =>
      database.query(
        "select m.id, m.status, m.to_address, m.created_at from mail_outbox m join workflows w on w.id = m.workflow_id where w.parent_workflow_id = $1 and m.kind = 'COMMENCE'",
        [parentId],
      );
    await until(
      'every commence mail sent',
      async () => {
        const mails = await childMails();
        return mails.length === SURVEY_RECIPIENTS && mails.every((m) => m.status === 'SENT');
      },
      180_000,
    );
    await sleep(2000);

    // Every child once: one per survey recipient, each with one commence mail queued; the credits debited once.
    const [counts] = await database.query(
      'select count(*)::int as children, count(distinct parent_recipient_id)::int as recipients from workflows where parent_workflow_id = $1',
      [parentId],
    );
    expect(counts).toEqual({ children: SURVEY_RECIPIENTS, recipients: SURVEY_RECIPIENTS });
    const mails = await childMails();
    expect(new Set(mails.map((m) => m.to_address)).size).toBe(SURVEY_RECIPIENTS);
    const [{ credits: creditsAfter }] = await database.query(
      'select credits from organizations where owner_user_id = $1',
      [owner.userId],
    );
    expect(creditsBefore - creditsAfter).toBe(SURVEY_RECIPIENTS);

    // At the SMTP peer: every recipient's mail arrived. Delivery is at least once: a mail the peer accepted just
    // before the kill, but which the killed process never recorded as SENT, is sent again by the survivor, with the
    // same Message-ID (one per outbox row), so the receiving side sees one message. Such repeats are bounded by the
    // deliveries the killed process had in flight.
    const survey = smtp.received.filter((m) => m.to[0]?.endsWith(`-${stamp}@survey.example`));
    const byMessageId = new Map<string, PeerMail[]>();
    for (const mail of survey)
      byMessageId.set(mail.messageId ?? '', [...(byMessageId.get(mail.messageId ?? '') ?? []), mail]);
    expect(byMessageId.has('')).toBe(false);
    expect(byMessageId.size).toBe(SURVEY_RECIPIENTS);
    expect(new Set(survey.map((m) => m.to[0])).size).toBe(SURVEY_RECIPIENTS);
    for (const copies of byMessageId.values()) expect(new Set(copies.map((m) => m.to[0])).size).toBe(1);
    const repeats = survey.length - byMessageId.size;
    expect(repeats).toBeLessThanOrEqual(16);
    console.log(
      `multi-instance: ${dispatcher.name} killed at ${atKill}/${SURVEY_RECIPIENTS} children; ${survivor.name} finished ${finishedAfterMs} ms later; ` +
        `${survey.length} mails at the peer for ${byMessageId.size} messages (${repeats} resent after the kill)`,
    );
  }, 600_000);
});
