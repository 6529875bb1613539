import { eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { Db, DbOrTx, Tx } from '../db/client.ts';
import { intArray, preparedStatement } from '../db/prepared.ts';
import { batchPerTurn } from '../db/batch-per-turn.ts';
import { mailOutbox, organizations } from '../db/schema/index.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { defineJob, type Job, type JobQueue } from '../jobs/queue.ts';
import type { MailTransport } from './transport.ts';
import { MailSendError } from './senders/mail-sender.ts';
import type { MailBrandingLookup } from './branding.ts';
import { renderMail, type MailBranding, type MailTemplate } from './templates/layout.ts';

export type OutgoingMail = {
  /** Routes through the organization's email settings when it has them (unless `viaPlatform`), and wears its branding. */
  organizationId?: number | null;
  /**
   * The mail proves control of its address (an invitation, a one-time code, the signing link of a recipient who signs with a
   * platform-certified key): it always leaves through the platform's own mail, never the organization's provider, which
   * would hand whoever runs that provider the proof (RUNTIME.md round three, "Mail that proves who someone is").
   */
  viaPlatform?: boolean;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** What caused the mail (COMMENCE, OTP, COMPLETED, REMINDER, ...). */
  kind: string;
  workflowId?: number | null;
  recipientId?: number | null;
  attachments?: { filename: string; contentType: string; blobKey: string }[];
  /** Set by renderMail when the mail was written in the platform's look: enqueue renders it in the organization's branding. */
  template?: MailTemplate;
};

export const MailDeliveryPayload = Type.Object({ mailId: Type.Integer({ minimum: 1 }) });

export type Outbox = {
  /**
   * Inserts the mail and its delivery job inside `tx`: both commit with the state change, or neither does. Answers
   * the outbox row's id, or null when the addressee turned this kind of mail off (nothing is queued then).
   */
  enqueue(tx: Tx, mail: OutgoingMail): Promise<number | null>;
  /**
   * `enqueue` for many mails in one multi-row insert and one job insert (a Power Survey batch): the same rules
   * (preferences, branding, looked up once per organization); answers the ids in the order of `mails`, null where
   * held back.
   */
  enqueueMany(tx: Tx, mails: OutgoingMail[]): Promise<(number | null)[]>;
  /** Wake the delivery worker; call after the transaction commits. */
  notify(): void;
};

/**
 * Picks the transport for a mail: the organization's own routing when configured (resolved by the
 * caller-supplied function), else the platform's.
 */
export type TransportResolver = (
  organizationId: number | null,
  known?: { emailSettings: unknown },
) => Promise<{ transport: MailTransport; from: string; route: string }>;

/**
 * Whether each person at `address` wants a mail of `kind` (their notification preferences), one answer per entry in
 * order; the users module answers it, through app.ts, since platform/ never imports modules/.
 */
export type MailPreference = (db: DbOrTx, asked: { address: string; kind: string }[]) => Promise<boolean[]>;

export function createOutbox(jobs: JobQueue, brandingOf?: MailBrandingLookup, wants?: MailPreference): Outbox {
  return {
    async enqueue(tx, unbranded) {
      // Asked here, where every mail is queued, so no sender can forget it.
      if (wants && !(await wants(tx, [{ address: unbranded.to, kind: unbranded.kind }]))[0]) return null;
      const mail = await inOrganizationBranding(tx, unbranded, brandingOf);
      const [row] = await tx.insert(mailOutbox).values(outboxRow(mail)).returning({ id: mailOutbox.id });
      await jobs.send(tx, MAIL_DELIVER_JOB, { mailId: row.id });
      return row.id;
    },
    async enqueueMany(tx, mails) {
      const wanted = wants
        ? await wants(
            tx,
            mails.map((mail) => ({ address: mail.to, kind: mail.kind })),
          )
        : mails.map(() => true);
      const brandings = new Map<number, Promise<MailBranding | null>>();
      const branded: OutgoingMail[] = [];
      for (const [index, mail] of mails.entries()) {
        if (!wanted[index]) continue;
        branded.push(
          await inOrganizationBranding(
            tx,
            mail,
            brandingOf &&
              ((db, organizationId) => {
                if (!brandings.has(organizationId)) brandings.set(organizationId, brandingOf(db, organizationId));
                return brandings.get(organizationId)!;
              }),
          ),
        );
      }
      const ids =
        branded.length === 0
          ? []
          : (await tx.insert(mailOutbox).values(branded.map(outboxRow)).returning({ id: mailOutbox.id })).map(
              (row) => row.id,
            );
      await jobs.sendMany(
        tx,
        MAIL_DELIVER_JOB,
        ids.map((mailId) => ({ mailId })),
      );
      let next = 0;
      return wanted.map((kept) => (kept ? ids[next++] : null));
    },
    notify: () => jobs.notify(MAIL_DELIVER_JOB),
  };
}

function outboxRow(mail: OutgoingMail): typeof mailOutbox.$inferInsert {
  return {
    organizationId: mail.organizationId ?? null,
    toAddress: mail.to,
    subject: mail.subject,
    textBody: mail.text,
    htmlBody: mail.html ?? null,
    attachments: mail.attachments ?? null,
    kind: mail.kind,
    viaPlatform: mail.viaPlatform ?? false,
    workflowId: mail.workflowId ?? null,
    recipientId: mail.recipientId ?? null,
  };
}

/**
 * Every mail of an organization wears its branding (colour, logo, sender name), whichever module wrote it:
 * a mail rendered in the platform's look is rendered again here, in the transaction that queues it.
 */
async function inOrganizationBranding(
  tx: Tx,
  mail: OutgoingMail,
  brandingOf: MailBrandingLookup | undefined,
): Promise<OutgoingMail> {
  if (!brandingOf || !mail.template || !mail.organizationId) return mail;
  const branding = await brandingOf(tx, mail.organizationId);
  if (!branding) return mail;
  const { subject, text, html } = renderMail(mail.template, branding);
  return { ...mail, subject, text, html };
}

/**
 * One Message-ID per outbox row, whichever attempt or instance sends it. Delivery is at least once: a process killed
 * between the peer's acceptance and the SENT update sends the mail again on the retry, and this header is what lets
 * the receiving side (and the several-instances test) tell such a repeat from a second mail.
 */
export function outboxMessageId(mail: { id: number; createdAt: Date }, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<outbox-${mail.id}-${mail.createdAt.getTime().toString(36)}@${domain}>`;
}

const RETRY_LIMIT = 8;
/**
 * Deliveries one process runs at once. A delivery mostly waits on the SMTP peer (a connection per mail)
 * and on a few short queries, so overlapping them is what makes a burst drain; 16 stays well under the
 * PostgreSQL pool (20) that HTTP requests share. Measured with `npm run bench:mail`.
 */
const DELIVERY_CONCURRENCY = 16;

// The delivery job's two statements on every mail, prepared once (src/platform/db/prepared.ts; unprepared through Drizzle
// they cost about half of a delivery's CPU in this process) and shared by the deliveries of one event-loop turn
// (batch-per-turn.ts): the jobs of one fetch read their rows together, and the mails whose peer answered in the same
// poll are marked SENT together. The ids travel as one array literal, so the statement's text never depends on the count.
const mailsToDeliver = preparedStatement('mails_to_deliver', (db) =>
  db
    .select({ mail: mailOutbox, emailSettings: organizations.emailSettings })
    .from(mailOutbox)
    .leftJoin(organizations, eq(organizations.id, mailOutbox.organizationId))
    .where(sql`${mailOutbox.id} = any(${sql.placeholder('mailIds')}::int[])`),
);
const markMailsSent = preparedStatement('mails_sent', (db) =>
  db
    .update(mailOutbox)
    .set({
      status: 'SENT',
      sentAt: sql`${sql.placeholder('sentAt')}::timestamptz`,
      attempts: sql`${mailOutbox.attempts} + 1`,
      lastError: null,
      route: sql`${sql.placeholder('route')}::text`,
    })
    .where(sql`${mailOutbox.id} = any(${sql.placeholder('mailIds')}::int[])`),
);

export type MailDeliveryDeps = {
  db: Db;
  blobs: BlobStore;
  resolveTransport: TransportResolver;
  onOutcome?: (outcome: 'sent' | 'failed') => void;
};

/** The delivery job: sends one outbox row; a refusal throws so pg-boss retries it with backoff. */
export const MAIL_DELIVER_JOB = defineJob({
  name: 'mail.deliver',
  payload: MailDeliveryPayload,
  retryLimit: RETRY_LIMIT,
  retryDelay: 2,
  retryBackoff: true,
  retryDelayMax: 600,
  concurrency: DELIVERY_CONCURRENCY,
});

export function mailDeliveryJob(deps: MailDeliveryDeps): Job<typeof MailDeliveryPayload> {
  const readMail = batchPerTurn(async (mailIds: number[]) => {
    const rows = await mailsToDeliver(deps.db).execute({ mailIds: intArray([...new Set(mailIds)]) });
    const byId = new Map(rows.map((row) => [row.mail.id, row]));
    return mailIds.map((id) => byId.get(id));
  });
  const markSent = batchPerTurn(async (sent: { mailId: number; route: string | null }[]) => {
    const sentAt = new Date();
    const byRoute = Map.groupBy(sent, (mail) => mail.route);
    for (const [route, mails] of byRoute)
      await markMailsSent(deps.db).execute({ mailIds: intArray(mails.map((mail) => mail.mailId)), route, sentAt });
    return sent.map(() => undefined);
  });
  return {
    ...MAIL_DELIVER_JOB,
    async handler({ mailId }, meta) {
      // The organization's mail settings come with the row: one round trip instead of two per mail.
      const found = await readMail(mailId);
      const mail = found?.mail;
      // Already delivered (the job ran twice) or gone: nothing to do.
      if (!mail || mail.status === 'SENT') return;
      let route: string | null = null;
      try {
        // Inside the try: settings that cannot be used (a key this installation lacks) are a failed attempt with its
        // reason recorded, and after the last retry the mail is FAILED rather than retried silently.
        // Mail that proves an address takes the platform's route whatever the organization configured.
        const resolved = await deps.resolveTransport(mail.viaPlatform ? null : mail.organizationId, {
          emailSettings: found.emailSettings,
        });
        const { transport, from } = resolved;
        route = resolved.route;
        const attachments = [];
        for (const a of (mail.attachments as OutgoingMail['attachments']) ?? []) {
          attachments.push({
            filename: a.filename,
            contentType: a.contentType,
            content: await deps.blobs.get(a.blobKey),
          });
        }
        await transport.send({
          from,
          to: mail.toAddress,
          subject: mail.subject,
          text: mail.textBody,
          html: mail.htmlBody ?? undefined,
          attachments,
          messageId: outboxMessageId(mail, from),
        });
      } catch (error) {
        const isLastAttempt = meta.retryCount >= meta.retryLimit;
        await deps.db
          .update(mailOutbox)
          .set({
            attempts: sql`${mailOutbox.attempts} + 1`,
            // The owner's delivery log shows at which step their provider failed (CONNECT, AUTH, TOKEN, SEND, CONFIG).
            lastError:
              `${error instanceof MailSendError ? `[${error.step}] ` : ''}${String((error as Error).message ?? error)}`.slice(
                0,
                1000,
              ),
            status: isLastAttempt ? 'FAILED' : 'PENDING',
            ...(route ? { route } : {}),
          })
          .where(eq(mailOutbox.id, mailId));
        deps.onOutcome?.('failed');
        throw error;
      }
      await markSent({ mailId, route });
      deps.onOutcome?.('sent');
    },
  };
}
