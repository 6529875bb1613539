import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { asc, eq } from 'drizzle-orm';
import { buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import {
  activities,
  documents,
  fields,
  mailOutbox,
  recipients,
  workflows,
} from '../../src/platform/db/schema/index.ts';
import {
  createDraftWorkflow,
  createUser,
  guestToken,
  insertField,
  insertRecipient,
  type TestUser,
} from './factories.ts';
import { markSent } from './envelope-states.ts';
import type { TestApp } from './test-app.ts';

/** Helpers here throw plain errors (no vitest import), so the benchmarks can use them too. */
function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** A valid RGBA PNG of `width` x `height` pixels, as a data URL (what a signature pad produces). */
export function pngDataUrl(width = 40, height = 12, seed = 0): string {
  return `data:image/png;base64,${pngBytes(width, height, seed).toString('base64')}`;
}

/** One PNG chunk: length, type, data and CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

export function pngBytes(width: number, height: number, seed = 0): Buffer {
  const chunk = pngChunk;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const offset = y * (width * 4 + 1) + 1 + x * 4;
      raw.set([(x * 7 + seed) & 255, (y * 13 + seed) & 255, 90, x % 5 === 0 ? 255 : 0], offset);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export type Party = { user: TestUser; row: typeof recipients.$inferSelect };

/**
 * A DRAFT workflow of `owner` with registered users as recipients (factories, not the recipients endpoint),
 * each with the given fields on page 1 of the single document.
 */
export async function draftWithRecipients(
  t: TestApp,
  owner: TestUser,
  options: {
    sequence: 'ORDERED' | 'UNORDERED';
    recipients: {
      name: string;
      role?: 'SIGNER' | 'APPROVER' | 'CC';
      order?: number;
      fields?: { fieldType: string; fieldRequired?: boolean; options?: string[] }[];
    }[];
  },
) {
  const { workflow, document } = await createDraftWorkflow(t, owner, { sequence: options.sequence });
  const parties: Party[] = [];
  const fieldIds: number[][] = [];
  for (const [index, spec] of options.recipients.entries()) {
    const user = await createUser(t, { name: spec.name });
    const row = await insertRecipient(t, workflow.id, {
      userId: user.userId,
      name: spec.name,
      email: user.email,
      role: spec.role ?? 'SIGNER',
      recipientOrder: spec.order ?? index + 1,
    });
    parties.push({ user, row });
    const ids: number[] = [];
    for (const [i, f] of (spec.fields ?? []).entries()) {
      const field = await insertField(t, {
        workflowId: workflow.id,
        documentId: document.id,
        recipientId: row.id,
        box: { x: 72, y: 100 + 60 * (index * 4 + i), width: 160, height: 40 },
        ...f,
      });
      ids.push(field.id);
    }
    fieldIds.push(ids);
  }
  return { workflow, document, parties, fieldIds };
}

export type FieldSpec = { fieldType: string; fieldRequired?: boolean; options?: string[] };

/**
 * A SENT workflow (written directly, for tests about the ceremony rather than commence) of `owner` with a
 * signer Alice holding `aliceFields` and a second signer Bob holding one SIGNATURE; both dispatched under
 * UNORDERED, only Alice under ORDERED. Tokens are signing-link (guest) tokens of the two rows.
 */
export async function sentEnvelope(
  t: TestApp,
  owner: TestUser,
  aliceFields: FieldSpec[],
  options: { sequence?: 'ORDERED' | 'UNORDERED' } = {},
) {
  const { workflow, document } = await createDraftWorkflow(t, owner, { sequence: options.sequence ?? 'UNORDERED' });
  const alice = await insertRecipient(t, workflow.id, {
    userId: (await createUser(t)).userId,
    name: 'Alice Signer',
    email: `alice-${crypto.randomUUID()}@example.com`,
    recipientOrder: 1,
  });
  const bob = await insertRecipient(t, workflow.id, {
    userId: (await createUser(t)).userId,
    name: 'Bob Signer',
    email: `bob-${crypto.randomUUID()}@example.com`,
    recipientOrder: 2,
  });
  const mine = [];
  for (const spec of aliceFields)
    mine.push(
      await insertField(t, { workflowId: workflow.id, documentId: document.id, recipientId: alice.id, ...spec }),
    );
  const bobSignature = await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: bob.id,
    fieldType: 'SIGNATURE',
  });
  await markSent(t, workflow.id, options.sequence === 'ORDERED' ? [alice.id] : [alice.id, bob.id]);
  return {
    workflow,
    document,
    alice,
    bob,
    fields: mine,
    bobSignature,
    aliceToken: await guestToken(t, alice),
    bobToken: await guestToken(t, bob),
  };
}

export async function fieldRow(t: TestApp, fieldId: number) {
  return (await t.platform.db.select().from(fields).where(eq(fields.id, fieldId)))[0];
}

/** POST commence as the owner; throws unless it answers 200. */
export async function commence(
  t: TestApp,
  owner: TestUser,
  workflowId: number,
  body: { title?: string; message?: string } = {},
) {
  const res = await t.request('POST', `/workflow/v1/${workflowId}/commence`, { token: owner.token, body });
  check(res.status === 200, `commence: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The signing link of the latest commence mail to `email`, redeemed for a guest token, as a recipient would. */
export async function tokenFromMail(t: TestApp, email: string, kind = 'COMMENCE'): Promise<string> {
  const mails = await t.mails({ to: email, kind });
  check(mails.length > 0, `no ${kind} mail to ${email}`);
  const match = /\/sign\/([A-Za-z0-9_-]+)/.exec(mails.at(-1)!.textBody);
  check(match, `no signing link in the ${kind} mail to ${email}`);
  const res = await t.request('GET', `/auth/v1/getGuestToken/${match[1]}`);
  check(res.status === 200, `getGuestToken: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.accessToken;
}

/** Signs every SIGNATURE/INITIALS field listed, filling the others with a plausible value, in one fields/save. */
export async function saveAll(t: TestApp, token: string, documentId: number, fieldIds: number[]) {
  const rows = await Promise.all(
    fieldIds.map(async (id) => (await t.platform.db.select().from(fields).where(eq(fields.id, id)))[0]),
  );
  const body = rows.map((f) => ({
    id: f.id,
    type: f.fieldType,
    value: sampleValue(f.fieldType, f.options as string[] | null),
  }));
  return t.request('POST', `/workflow/v1/${documentId}/fields/save`, { token, body });
}

export function sampleValue(fieldType: string, options?: string[] | null): string | boolean {
  switch (fieldType) {
    case 'SIGNATURE':
    case 'INITIALS':
    case 'STAMP':
    case 'IMAGE':
      return pngDataUrl();
    case 'CHECKBOX':
      return true;
    case 'DATE':
      return '2026-03-14';
    case 'NUMBER':
      return '42.5';
    case 'EMAIL':
      return 'someone@example.com';
    case 'DROPDOWN':
      return options?.[0] ?? '';
    default:
      return 'Filled value';
  }
}

export async function workflowRow(t: TestApp, workflowId: number) {
  return (await t.platform.db.select().from(workflows).where(eq(workflows.id, workflowId)))[0];
}

export async function recipientRow(t: TestApp, recipientId: number) {
  return (await t.platform.db.select().from(recipients).where(eq(recipients.id, recipientId)))[0];
}

export async function activityKinds(t: TestApp, workflowId: number): Promise<string[]> {
  const rows = await t.platform.db
    .select({ kind: activities.kind })
    .from(activities)
    .where(eq(activities.workflowId, workflowId))
    .orderBy(asc(activities.id));
  return rows.map((r) => r.kind);
}

export async function documentRows(t: TestApp, workflowId: number) {
  return t.platform.db.select().from(documents).where(eq(documents.workflowId, workflowId)).orderBy(asc(documents.id));
}

export async function mailRows(t: TestApp, workflowId: number, kind: string) {
  return (
    await t.platform.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.workflowId, workflowId))
      .orderBy(asc(mailOutbox.id))
  ).filter((m) => m.kind === kind);
}

/** Waits until the workflow's seal has left PENDING (the job ran), then returns the row. */
export async function waitForSeal(t: TestApp, workflowId: number, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await t.drainJobs();
    const row = await workflowRow(t, workflowId);
    if (row.sealStatus !== 'PENDING' && row.sealStatus !== 'NONE') return row;
    if (Date.now() > deadline) throw new Error(`seal of workflow ${workflowId} still ${row.sealStatus}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Simulates a crash and a restart: the first instance's HTTP server and job workers stop (what was queued
 * stays in the database), and a new instance is built on the same database and DATA_DIR with `overrides`.
 * The returned app's close() stops the new instance and then releases the database through `t.close()`.
 */
export async function restartApp(t: TestApp, overrides: Partial<Config> = {}): Promise<TestApp> {
  await t.app.close();
  await t.platform.jobs.stop();
  const config: Config = { ...t.config, ...overrides };
  const built = await buildApp(config, { database: t.platform.database, log: () => {} });
  const closeFirst = t.close.bind(t);
  const restarted: TestApp = {
    ...t,
    ...built,
    config,
    async request(method, url, options = {}) {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let payload: string | undefined;
      if (options.body !== undefined) {
        payload = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await built.app.inject({ method: method as any, url, headers, payload });
      const isJson = String(response.headers['content-type'] ?? '').includes('application/json') && response.body;
      return {
        status: response.statusCode,
        body: isJson ? JSON.parse(response.body) : response.body,
        headers: response.headers,
        raw: response.body,
      };
    },
    async mails(filter = {}) {
      await built.platform.jobs.drain();
      const rows = await built.platform.db.select().from(mailOutbox).orderBy(asc(mailOutbox.id));
      return rows.filter((r) => (!filter.to || r.toAddress === filter.to) && (!filter.kind || r.kind === filter.kind));
    },
    drainJobs: () => built.platform.jobs.drain(),
    async close() {
      await built.app.close();
      await built.platform.jobs.stop();
      built.platform.mailTransport.close();
      await closeFirst();
    },
  };
  return restarted;
}
