import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/platform/db/schema/index.ts';
import { signUp } from '../helpers/auth.ts';
import { createDraftWorkflow, createUser, insertField, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { addField, addRecipients, fieldEntry, recipientEntry } from '../helpers/recipients.ts';
import { commence, pngDataUrl, tokenFromMail, waitForSeal } from '../helpers/ceremony.ts';
import { setRecipient } from '../helpers/envelope-states.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { setCustomMailPlan } from '../mail-settings/helpers.ts';

/**
 * The attack (trust issue, item 1): a new account routes its organization's mail through an SMTP server it runs,
 * invites the address of a guest who received someone else's envelope, reads the invitation code on its own server,
 * accepts it (which proves the address), and so becomes that person. The defence (RUNTIME.md round three, "Mail that
 * proves who someone is"): invitations, one-time codes and the links of recipients who sign with a platform-certified key
 * always leave through the platform's own mail; the rest follows the organization's routing; the evidence report names
 * the route that carried each recipient's link.
 */

type Received = { to: string[]; raw: string };

async function startSmtpPeer(login?: { user: string; password: string }) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: !login,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (!login || auth.username !== login.user || auth.password !== login.password)
        return callback(new Error('Invalid username or password'));
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
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
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Quoted-printable soft line breaks undone, so a link split over lines reads whole. */
function bodyText(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

let t: TestApp;
let platformPeer: Awaited<ReturnType<typeof startSmtpPeer>>;
let attackerPeer: Awaited<ReturnType<typeof startSmtpPeer>>;

beforeAll(async () => {
  platformPeer = await startSmtpPeer();
  attackerPeer = await startSmtpPeer({ user: 'mallory', password: 'mallory-smtp' });
  // The attacker's SMTP server runs on loopback, which the outbound rules refuse unless told otherwise.
  t = await createTestApp({ smtpUrl: platformPeer.url, mailFrom: 'platform@example.com', outboundAllowPrivate: true });
});
afterAll(async () => {
  await t?.close();
  await platformPeer?.close();
  await attackerPeer?.close();
});

/** The attacker's organization, routed through the attacker's SMTP server (its plan allows custom mail). */
async function attackerWithOwnMail(): Promise<TestUser> {
  const attacker = await createUser(t, { name: 'Mallory Attacker' });
  // Getting such a plan for free is refused by the billing rules (test/security/paid-plan-self-service.test.ts); the attack
  // here is what custom mail gave an organization that had it, so the plan is given directly.
  await setCustomMailPlan(t, attacker.organizationId, true);
  const res = await t.request('PUT', '/organization/v1/email-settings', {
    token: attacker.token,
    body: {
      emailMode: 'ORG_MANAGED',
      source: 'CUSTOM',
      provider: 'SMTP',
      configurations: {
        SMTP_SERVER: '127.0.0.1',
        SMTP_PORT: String(attackerPeer.port),
        SSL_TLS: 'NONE',
        AUTHENTICATION: 'TRUE',
        USER_ID: 'mallory',
        PASSWORD: 'mallory-smtp',
        EMAIL_FROM: 'contracts@mallory.example',
      },
    },
  });
  expect(res.status, res.raw).toBe(200);
  return attacker;
}

/** Waits until every mail queued so far has been delivered (or failed). */
async function delivered() {
  await t.mails();
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
    const pending = await t.platform.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(eq(mailOutbox.status, 'PENDING'));
    if (pending.length === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('mail still pending');
}

describe('mail that proves who someone is leaves through the platform', () => {
  it("the invitation to a guest's address never reaches the inviting organization's mail server, so its code cannot be read there", async () => {
    // Someone else's confidential envelope, sent to a guest.
    const victimOwner = await createUser(t, { name: 'Victor Owner' });
    const guestEmail = `guest-${Date.now()}@victim.example`;
    const { workflow, document } = await createDraftWorkflow(t, victimOwner, { name: 'Confidential' });
    const [guest] = await addRecipients(t, victimOwner.token, workflow.id, [
      recipientEntry({ name: 'Gina Guest', emailAddress: guestEmail }),
    ]);
    await addField(t, victimOwner.token, document.id, fieldEntry(guest.id, { fieldType: 'SIGNATURE' }));
    await commence(t, victimOwner, workflow.id);

    const attacker = await attackerWithOwnMail();
    const invite = await t.request('POST', '/organization/v1/user', {
      token: attacker.token,
      body: { name: 'Gina Guest', emailAddress: guestEmail },
    });
    expect(invite.status, invite.raw).toBe(200);
    await delivered();

    const [mail] = await t.mails({ to: guestEmail, kind: 'ORGANIZATION_INVITATION' });
    expect(mail).toMatchObject({ status: 'SENT', route: 'PLATFORM', viaPlatform: true });
    // Nothing addressed to the guest reached the attacker's server; the platform's carried the invitation.
    expect(attackerPeer.received.filter((m) => m.to.includes(guestEmail))).toEqual([]);
    const atPlatform = platformPeer.received.filter(
      (m) => m.to.includes(guestEmail) && /Invitation to join/.test(m.raw),
    );
    expect(atPlatform).toHaveLength(1);
    expect(bodyText(atPlatform[0].raw)).toMatch(/\/invite\/[A-Za-z0-9_-]{43}/);
  });

  it('one-time codes and the links of platform-certified signers go through the platform; other links and mails follow the organization', async () => {
    const sender = await attackerWithOwnMail();
    const { workflow, document } = await createDraftWorkflow(t, sender, { name: 'Routing rules' });
    const [plain, certified, checked] = (
      await addRecipients(t, sender.token, workflow.id, [
        recipientEntry({ name: 'Paul Plain' }),
        recipientEntry({ name: 'Cora Certified', useDigitalCert: true }),
        recipientEntry({ name: 'Ida Identity', enforceIdentity: true }),
      ])
    ).map((row: { id: number; emailAddress: string }) => ({ id: row.id, email: row.emailAddress }));
    for (const [index, row] of [plain, certified, checked].entries()) {
      await addField(
        t,
        sender.token,
        document.id,
        fieldEntry(row.id, { fieldType: 'SIGNATURE', box: { x: 72, y: 72 + 60 * index, width: 150, height: 40 } }),
      );
    }
    await commence(t, sender, workflow.id);

    const guestToken = await tokenFromMail(t, checked.email);
    const otp = await t.request('POST', `/workflow/v1/${workflow.id}/identity/send-otp`, { token: guestToken });
    expect(otp.status, otp.raw).toBe(200);
    await delivered();

    const routeOf = async (email: string, kind: string) =>
      (await t.mails({ to: email, kind })).map((m) => ({ route: m.route, viaPlatform: m.viaPlatform }));
    expect(await routeOf(plain.email, 'COMMENCE')).toEqual([{ route: 'SMTP', viaPlatform: false }]);
    expect(await routeOf(checked.email, 'COMMENCE')).toEqual([{ route: 'SMTP', viaPlatform: false }]);
    expect(await routeOf(certified.email, 'COMMENCE')).toEqual([{ route: 'PLATFORM', viaPlatform: true }]);
    expect(await routeOf(checked.email, 'OTP')).toEqual([{ route: 'PLATFORM', viaPlatform: true }]);
    expect(attackerPeer.received.some((m) => m.to.includes(certified.email))).toBe(false);
    expect(attackerPeer.received.some((m) => m.to.includes(checked.email) && /verification code/i.test(m.raw))).toBe(
      false,
    );
    expect(platformPeer.received.some((m) => m.to.includes(certified.email) && /\/sign\//.test(bodyText(m.raw)))).toBe(
      true,
    );
  });

  it('the evidence report names, for each recipient, the route that delivered their signing link', async () => {
    const sender = await attackerWithOwnMail();
    const { workflow, document } = await createDraftWorkflow(t, sender, { name: 'Evidence of routes' });
    const plainUser = await createUser(t, { name: 'Paula Plain' });
    const certUser = await createUser(t, { name: 'Carl Certified' });
    const plain = await insertRecipient(t, workflow.id, {
      userId: plainUser.userId,
      name: plainUser.name,
      email: plainUser.email,
    });
    const certified = await insertRecipient(t, workflow.id, {
      userId: certUser.userId,
      name: certUser.name,
      email: certUser.email,
    });
    await setRecipient(t, certified.id, { useDigitalCert: true });
    const plainField = await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId: plain.id,
      fieldType: 'SIGNATURE',
    });
    const certField = await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId: certified.id,
      fieldType: 'SIGNATURE',
      box: { x: 72, y: 300, width: 150, height: 40 },
    });
    await commence(t, sender, workflow.id);
    await delivered();

    for (const [row, field] of [
      [plain, plainField],
      [certified, certField],
    ] as const) {
      const token = await tokenFromMail(t, row.email);
      const res = await t.request('POST', `/workflow/v1/${document.id}/fields/save`, {
        token,
        body: [{ id: field.id, type: 'SIGNATURE', value: pngDataUrl(60, 20, row.id) }],
      });
      expect(res.status, res.raw).toBe(200);
    }
    await waitForSeal(t, workflow.id);
    const report = await t.request('GET', `/workflow/v1/evidence-report/${workflow.id}`, { token: sender.token });
    expect(report.status, report.raw.slice(0, 300)).toBe(200);
    const rowOf = (email: string) => report.raw.split('<tr>').find((row) => row.includes(`<td>${email}</td>`)) ?? '';
    expect(report.raw).toContain('Link delivered by');
    expect(rowOf(plain.email)).toContain('the organization&#39;s SMTP server');
    expect(rowOf(certified.email)).toContain('the platform&#39;s mail');
    expect(rowOf(certified.email)).not.toContain('SMTP server');
  });

  it("a sign-up's verification mail and an account's own mails never carry an organization", async () => {
    const fresh = await signUp(t, { name: 'Fresh Person' });
    const [mail] = await t.mails({ to: fresh.email, kind: 'EMAIL_VERIFICATION' });
    expect(mail.organizationId).toBeNull();
    await delivered();
    expect((await t.mails({ to: fresh.email, kind: 'EMAIL_VERIFICATION' }))[0].route).toBe('PLATFORM');
  });
});
