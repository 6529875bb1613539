import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../src/platform/crypto/secrets.ts';
import { mailOutbox, organizations } from '../../src/platform/db/schema/index.ts';
import { encryptConfigurations, type StoredEmailSettings } from '../../src/platform/mail/transport-resolver.ts';
import { createUser } from '../helpers/factories.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { setCustomMailPlan } from '../mail-settings/helpers.ts';

type Received = { from: string; to: string[]; user: string | null; raw: string };

/** A real SMTP peer on loopback; with `password`, it accepts only that login (over plain text, as loopback allows). */
async function startSmtpPeer(password?: string) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: !password,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.password !== password) return callback(new Error('Invalid username or password'));
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mailFrom = session.envelope.mailFrom;
        received.push({
          from: mailFrom ? mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: (session.user as string | undefined) ?? null,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function send(t: TestApp, organizationId: number, subject: string) {
  const id = (await t.platform.db.transaction((tx) =>
    t.platform.outbox.enqueue(tx, { organizationId, to: 'ann@example.com', subject, text: 'Body text', kind: 'TEST' }),
  )) as number; // kind TEST is never optional: always queued
  t.platform.outbox.notify();
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
    const [row] = await t.platform.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    if (row.status !== 'PENDING') return row;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`mail ${id} was not delivered in time`);
}

describe('mail routing per organization', () => {
  let platformPeer: Awaited<ReturnType<typeof startSmtpPeer>>;
  let organizationPeer: Awaited<ReturnType<typeof startSmtpPeer>>;
  let t: TestApp;
  beforeAll(async () => {
    platformPeer = await startSmtpPeer();
    organizationPeer = await startSmtpPeer('s3cret pass');
    // The organization's SMTP server is on loopback, which the outbound rules refuse by default.
    t = await createTestApp({
      smtpUrl: platformPeer.url,
      mailFrom: 'platform@example.com',
      outboundAllowPrivate: true,
    });
  });
  afterAll(async () => {
    await t?.close();
    await platformPeer?.close();
    await organizationPeer?.close();
  });

  async function configure(organizationId: number, settings: StoredEmailSettings | null) {
    await t.platform.db
      .update(organizations)
      .set({ emailSettings: settings })
      .where(eq(organizations.id, organizationId));
  }

  it("sends an organization's mail through its own SMTP server, with the stored password decrypted, and others' through the platform's", async () => {
    const managed = await createUser(t, { name: 'Org Owner' });
    const other = await createUser(t, { name: 'Other Owner' });
    await setCustomMailPlan(t, managed.organizationId, true);
    const configurations = encryptConfigurations(
      {
        SMTP_SERVER: '127.0.0.1',
        SMTP_PORT: String(organizationPeer.port),
        SSL_TLS: 'NONE',
        AUTHENTICATION: 'true',
        USER_ID: 'mailer',
        PASSWORD: 's3cret pass',
        EMAIL_FROM: 'contracts@acme.example',
      },
      t.platform.secrets,
    );
    expect(configurations.PASSWORD).not.toContain('s3cret');
    expect(configurations.PASSWORD).toMatch(/^v1\./);
    await configure(managed.organizationId, {
      emailMode: 'ORG_MANAGED',
      source: 'CUSTOM',
      provider: 'SMTP',
      configurations,
    });

    expect((await send(t, managed.organizationId, 'Through ACME')).status).toBe('SENT');
    expect((await send(t, other.organizationId, 'Through the platform')).status).toBe('SENT');

    expect(organizationPeer.received).toHaveLength(1);
    expect(organizationPeer.received[0]).toMatchObject({
      from: 'contracts@acme.example',
      to: ['ann@example.com'],
      user: 'mailer',
    });
    expect(organizationPeer.received[0].raw).toContain('Subject: Through ACME');
    expect(platformPeer.received.map((m) => m.raw.match(/^Subject: (.*)$/m)?.[1])).toEqual(['Through the platform']);
    expect(platformPeer.received[0].from).toBe('platform@example.com');

    // Back to GLOBAL: the organization's mail goes through the platform again.
    await configure(managed.organizationId, { emailMode: 'GLOBAL', provider: 'SMTP', configurations });
    expect((await send(t, managed.organizationId, 'Global again')).status).toBe('SENT');
    expect(organizationPeer.received).toHaveLength(1);
    expect(platformPeer.received.at(-1)?.raw).toContain('Subject: Global again');
  });

  it('keeps a mail PENDING for retry when the stored password is not one this installation encrypted', async () => {
    const owner = await createUser(t, { name: 'Foreign Key' });
    const foreign = createSecretBox([crypto.randomBytes(32)]);
    await setCustomMailPlan(t, owner.organizationId, true);
    await configure(owner.organizationId, {
      emailMode: 'ORG_MANAGED',
      provider: 'SMTP',
      configurations: encryptConfigurations(
        {
          SMTP_SERVER: '127.0.0.1',
          SMTP_PORT: String(organizationPeer.port),
          SSL_TLS: 'NONE',
          AUTHENTICATION: 'true',
          USER_ID: 'mailer',
          PASSWORD: 's3cret pass',
          EMAIL_FROM: 'x@acme.example',
        },
        foreign,
      ),
    });
    const id = (await t.platform.db.transaction((tx) =>
      t.platform.outbox.enqueue(tx, {
        organizationId: owner.organizationId,
        to: 'ann@example.com',
        subject: 'Never',
        text: 'x',
        kind: 'TEST',
      }),
    )) as number; // kind TEST is never optional: always queued
    t.platform.outbox.notify();
    await new Promise((r) => setTimeout(r, 1500));
    const [row] = await t.platform.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row.status).toBe('PENDING');
    expect(organizationPeer.received.map((m) => m.raw)).not.toContainEqual(expect.stringContaining('Subject: Never'));
  });
});

describe('the secret box', () => {
  it('decrypts what it encrypted, under a rotated key too, and refuses altered values', () => {
    const [oldKey, newKey] = [crypto.randomBytes(32), crypto.randomBytes(32)];
    const before = createSecretBox([oldKey]).encrypt('hunter2');
    const rotated = createSecretBox([newKey, oldKey]);
    expect(rotated.decrypt(before)).toBe('hunter2');
    const after = rotated.encrypt('hunter2');
    expect(after.split('.')[1]).not.toBe(before.split('.')[1]);
    expect(() => createSecretBox([oldKey]).decrypt(after)).toThrow(/no longer holds/);
    const parts = after.split('.');
    const tampered = Buffer.from(parts[3], 'base64url');
    tampered[0] ^= 1;
    expect(() => rotated.decrypt([...parts.slice(0, 3), tampered.toString('base64url')].join('.'))).toThrow();
  });
});
