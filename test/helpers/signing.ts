import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { identityChallenges, type mailOutbox, recipients } from '../../src/platform/db/schema/index.ts';
import { findOrCreateGuestUser } from '../../src/modules/users/users.repo.ts';
import { createSigningCodes, loadSigningCodeKey, type SigningCodes } from '../../src/modules/signing/signing-codes.ts';
import { createDraftWorkflow, insertField, insertRecipient, type TestUser } from './factories.ts';
import type { TestApp } from './test-app.ts';

export type MailRow = typeof mailOutbox.$inferSelect;
export type RecipientRow = typeof recipients.$inferSelect;

export type RecipientSpec = {
  name: string;
  email?: string;
  role?: 'SIGNER' | 'APPROVER' | 'CC';
  order?: number | null;
  enforceIdentity?: boolean;
  /** SIGNER only: give it a SIGNATURE field (default true). */
  signatureField?: boolean;
};

let counter = 0;

/** A unique address for a guest recipient. */
export function guestEmail(label: string): string {
  counter += 1;
  return `${label.toLowerCase().replace(/[^a-z]/g, '')}${counter}-${Date.now().toString(36)}@guest.example.com`;
}

/**
 * A DRAFT workflow of `owner` with guest recipients inserted directly (not through the recipients endpoint),
 * each SIGNER holding a SIGNATURE field on page 1 unless told otherwise.
 */
export async function draftForSending(
  t: TestApp,
  owner: TestUser,
  options: { sequence?: 'ORDERED' | 'UNORDERED'; name?: string; recipients: RecipientSpec[] },
) {
  const sequence = options.sequence ?? 'UNORDERED';
  const { workflow, document } = await createDraftWorkflow(t, owner, { sequence, name: options.name });
  const rows: RecipientRow[] = [];
  for (const [index, spec] of options.recipients.entries()) {
    const email = spec.email ?? guestEmail(spec.name);
    const user = await findOrCreateGuestUser(t.platform.db, email, spec.name);
    const row = await insertRecipient(t, workflow.id, {
      userId: user.id,
      name: spec.name,
      email: user.email,
      role: spec.role ?? 'SIGNER',
      recipientOrder: spec.order === undefined ? (sequence === 'ORDERED' ? index + 1 : null) : spec.order,
      enforceIdentity: spec.enforceIdentity ?? false,
    });
    if ((spec.role ?? 'SIGNER') === 'SIGNER' && spec.signatureField !== false) {
      await insertField(t, {
        workflowId: workflow.id,
        documentId: document.id,
        recipientId: row.id,
        fieldType: 'SIGNATURE',
        fieldRequired: true,
        box: { x: 72, y: 80 + 50 * index, width: 150, height: 40 },
      });
    }
    rows.push(row);
  }
  return { workflow, document, rows };
}

/** POST commence as `owner`; the raw response (tests of errors look at it). */
export function commence(
  t: TestApp,
  owner: TestUser,
  workflowId: number,
  body: { title?: string | null; message?: string | null } = {},
) {
  return t.request('POST', `/workflow/v1/${workflowId}/commence`, { token: owner.token, body });
}

/** The signing link a mail's text carries, and its code (RUNTIME.md: `$PUBLIC_URL/sign/<code>`). */
export function linkFromMail(t: TestApp, mail: MailRow): { url: string; code: string } {
  const escaped = t.config.publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}/sign/([A-Za-z0-9_-]+)`).exec(mail.textBody);
  if (!match) throw new Error(`no signing link in mail ${mail.id}: ${mail.textBody}`);
  return { url: match[0], code: match[1] };
}

/** GET /auth/v1/getGuestToken/{code}; the raw response. */
export function redeem(t: TestApp, code: string) {
  return t.request('GET', `/auth/v1/getGuestToken/${code}`);
}

/** The one mail of `kind` to `email` (fails unless exactly one was sent). */
export async function onlyMail(t: TestApp, email: string, kind: string): Promise<MailRow> {
  const mails = await t.mails({ to: email, kind });
  expect(mails, `${kind} mails to ${email}`).toHaveLength(1);
  return mails[0];
}

/** The guest session a recipient gets from its latest commence mail: the full path a person takes. */
export async function guestFromMail(t: TestApp, email: string): Promise<{ token: string; code: string; session: any }> {
  const mails = await t.mails({ to: email, kind: 'COMMENCE' });
  expect(mails.length, `commence mails to ${email}`).toBeGreaterThan(0);
  const { code } = linkFromMail(t, mails.at(-1)!);
  const res = await redeem(t, code);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { token: res.body.accessToken, code, session: res.body };
}

/** The 6-digit code of an identity-verification mail. */
export function otpFromMail(mail: MailRow): string {
  const match = /\b(\d{6})\b/.exec(mail.textBody);
  if (!match) throw new Error(`no code in mail ${mail.id}`);
  return match[1];
}

/** The service's own signing codes (same key file in DATA_DIR), to mint codes the mails would not carry. */
export function signingCodesOf(t: TestApp): SigningCodes {
  return createSigningCodes(loadSigningCodeKey(t.config.dataDir));
}

/** Moves a recipient's live identity challenge back in time (time control for throttle and expiry tests). */
export async function ageChallenge(t: TestApp, recipientId: number, values: { sentAt?: Date; expiresAt?: Date }) {
  await t.platform.db.update(identityChallenges).set(values).where(eq(identityChallenges.recipientId, recipientId));
}

export async function recipientRow(t: TestApp, recipientId: number): Promise<RecipientRow> {
  const [row] = await t.platform.db.select().from(recipients).where(eq(recipients.id, recipientId));
  return row;
}
