import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { mailOutbox } from '../../src/platform/db/schema/index.ts';
import type { OutgoingMail } from '../../src/platform/mail/outbox.ts';

type Received = { from: string; to: string[]; raw: string };

/** A real SMTP peer on loopback that refuses the first `refuse` messages with a temporary error. */
async function startSmtpPeer(refuse: number) {
  const received: Received[] = [];
  let attempts = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        attempts += 1;
        if (attempts <= refuse) {
          const error = Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 });
          return callback(error);
        }
        received.push({
          from: session.envelope.mailFrom ? (session.envelope.mailFrom as any).address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    attempts: () => attempts,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function enqueue(t: TestApp, mail: Partial<OutgoingMail> = {}) {
  const id = (await t.platform.db.transaction((tx) =>
    t.platform.outbox.enqueue(tx, {
      to: 'ann@example.com',
      subject: 'Hello',
      text: 'Body text',
      kind: 'TEST',
      ...mail,
    }),
  )) as number; // kind TEST is never optional: always queued
  t.platform.outbox.notify();
  return id;
}

async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('mail through a real SMTP peer', () => {
  let peer: Awaited<ReturnType<typeof startSmtpPeer>>;
  let t: TestApp;
  beforeAll(async () => {
    peer = await startSmtpPeer(1);
    t = await createTestApp({ smtpUrl: peer.url, mailFrom: 'platform@example.com' });
  });
  afterAll(async () => {
    await t?.close();
    await peer?.close();
  });

  it('a refused delivery is retried with backoff and then delivered once', async () => {
    const id = await enqueue(t, { subject: 'Retry me' });
    const row = await waitFor(async () => {
      const [r] = await t.platform.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
      return r.status === 'SENT' ? r : null;
    });
    expect(row.attempts).toBe(2);
    expect(row.lastError).toBeNull();
    expect(peer.attempts()).toBe(2);
    expect(peer.received).toHaveLength(1);
    expect(peer.received[0].to).toEqual(['ann@example.com']);
    expect(peer.received[0].from).toBe('platform@example.com');
    expect(peer.received[0].raw).toContain('Subject: Retry me');
    expect(peer.received[0].raw).toContain('Body text');
  });

  it('mail enqueued in a transaction that rolls back is never sent', async () => {
    const before = peer.received.length;
    await expect(
      t.platform.db.transaction(async (tx) => {
        await t.platform.outbox.enqueue(tx, { to: 'bob@example.com', subject: 'Never', text: 'x', kind: 'TEST' });
        throw new Error('state change failed');
      }),
    ).rejects.toThrow('state change failed');
    await t.drainJobs();
    const rows = await t.platform.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'bob@example.com'));
    expect(rows).toHaveLength(0);
    expect(peer.received.length).toBe(before);
  });

  it('attachments are read from the blob store', async () => {
    const blob = await t.platform.blobs.put(new TextEncoder().encode('%PDF-1.7 attachment body'));
    await enqueue(t, {
      to: 'carl@example.com',
      subject: 'With file',
      attachments: [{ filename: 'doc.pdf', contentType: 'application/pdf', blobKey: blob.key }],
    });
    const message = await waitFor(async () => peer.received.find((m) => m.to.includes('carl@example.com')));
    expect(message.raw).toContain('filename=doc.pdf');
    expect(message.raw).toContain(Buffer.from('%PDF-1.7 attachment body').toString('base64'));
  });
});

describe('mail without SMTP_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is written as an .eml file under DATA_DIR/outbox and marked sent', async () => {
    const id = await enqueue(t, { subject: 'Local copy', text: 'Open https://example.test/sign/abc' });
    await t.drainJobs();
    const [row] = await t.platform.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row.status).toBe('SENT');
    const dir = path.join(t.config.dataDir, 'outbox');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const eml = fs.readFileSync(path.join(dir, files[0]), 'utf8');
    expect(eml).toContain('Subject: Local copy');
    expect(eml).toContain('To: ann@example.com');
    expect(eml).toContain('https://example.test/sign/abc');
  });
});
