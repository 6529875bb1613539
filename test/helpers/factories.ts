import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { documents, recipients, workflows, fields, users } from '../../src/platform/db/schema/index.ts';
import { createAccount } from '../../src/modules/users/accounts.ts';
import { findDefaultPackage } from '../../src/modules/billing/billing.repo.ts';
import { hashPassword } from '../../src/platform/auth/passwords.ts';
import { makePdf } from './pdf-fixtures.ts';
import type { TestApp } from './test-app.ts';

export type TestUser = {
  userId: number;
  organizationId: number;
  email: string;
  name: string;
  password: string;
  token: string;
};

let counter = 0;
let cachedHash: string | null = null;
const DEFAULT_PASSWORD = 'correct horse battery';

/**
 * A registered user with an organization on the default plan, and an access token. Created directly
 * (not over HTTP) so tests of other modules do not depend on the sign-up route. Its email is marked verified
 * (as if it had opened the sign-up mail's link), because tests of other modules have it reach workflows
 * addressed to it through its account, which an unverified account may not; `emailVerified: false` leaves it
 * unverified, as a fresh sign-up is.
 */
export async function createUser(
  t: TestApp,
  options: { name?: string; email?: string; emailVerified?: boolean } = {},
): Promise<TestUser> {
  counter += 1;
  const email = options.email ?? `user${counter}-${crypto.randomBytes(3).toString('hex')}@example.com`;
  const name = options.name ?? 'Test User';
  cachedHash ??= await hashPassword(DEFAULT_PASSWORD);
  const { user, organizationId } = await t.platform.db.transaction(async (tx) => {
    const plan = await findDefaultPackage(tx);
    const created = await createAccount(tx, { name, email, passwordHash: cachedHash! }, plan!);
    if (options.emailVerified !== false)
      await tx.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, created.user.id));
    return created;
  });
  const token = await t.platform.tokens.sign({ sub: String(user.id), type: 'USER', organizationId }, 3600);
  return { userId: user.id, organizationId, email: user.email, name, password: DEFAULT_PASSWORD, token };
}

/** A token for a guest acting as one recipient row of one workflow, as a signing link would give. */
export async function guestToken(
  t: TestApp,
  recipient: { id: number; userId: number; workflowId: number },
): Promise<string> {
  return t.platform.tokens.sign(
    { sub: String(recipient.userId), type: 'GUEST', recipientId: recipient.id, workflowId: recipient.workflowId },
    3600,
  );
}

/**
 * A DRAFT workflow owned by `owner` with one stored PDF document of `pages` Letter pages (612x792), inserted
 * directly. Modules whose tests need a workflow but are not about upload use this.
 */
export async function createDraftWorkflow(
  t: TestApp,
  owner: TestUser,
  options: {
    sequence?: 'SELF' | 'ORDERED' | 'UNORDERED' | 'SURVEY';
    pages?: number;
    name?: string;
    pdf?: Uint8Array;
  } = {},
) {
  const sequence = options.sequence ?? 'UNORDERED';
  const pages = options.pages ?? 1;
  // `pdf`: a document of the test's own (its page count given as `pages`).
  const bytes = options.pdf ?? (await makePdf(pages));
  const blob = await t.platform.blobs.put(bytes);
  return t.platform.db.transaction(async (tx) => {
    const [workflow] = await tx
      .insert(workflows)
      .values({
        ownerUserId: owner.userId,
        organizationId: owner.organizationId,
        name: options.name ?? 'Test agreement',
        sequence,
        signType: sequence === 'SELF' ? 'SELFSIGN' : sequence === 'SURVEY' ? 'POWERSURVEY' : 'COUNTERSIGN',
      })
      .returning();
    const [document] = await tx
      .insert(documents)
      .values({
        workflowId: workflow.id,
        name: options.name ?? 'Test agreement',
        blobKey: blob.key,
        size: blob.size,
        pages,
        pageSizes: Array.from({ length: pages }, () => ({ width: 612, height: 792, rotation: 0 })),
      })
      .returning();
    let selfRecipient = null;
    if (sequence === 'SELF') {
      [selfRecipient] = await tx
        .insert(recipients)
        .values({
          workflowId: workflow.id,
          userId: owner.userId,
          name: owner.name,
          email: owner.email,
          role: 'SIGNER',
          color: '#1A56DB',
        })
        .returning();
    }
    return { workflow, document, selfRecipient };
  });
}

/** Adds a recipient row directly (for tests not about the recipients endpoints). */
export async function insertRecipient(
  t: TestApp,
  workflowId: number,
  values: {
    userId: number;
    name: string;
    email: string;
    role?: string;
    recipientOrder?: number | null;
    enforceIdentity?: boolean;
  },
) {
  const [row] = await t.platform.db
    .insert(recipients)
    .values({ workflowId, color: '#FF0000', role: 'SIGNER', ...values })
    .returning();
  return row;
}

/** Adds a field row directly (for tests not about the fields endpoints). */
export async function insertField(
  t: TestApp,
  values: {
    workflowId: number;
    documentId: number;
    recipientId: number;
    fieldType: string;
    fieldRequired?: boolean;
    pageNo?: number;
    box?: { x: number; y: number; width: number; height: number };
    label?: string;
    options?: string[];
  },
) {
  const [row] = await t.platform.db
    .insert(fields)
    .values({ pageNo: 1, box: { x: 72, y: 72, width: 150, height: 40 }, ...values })
    .returning();
  return row;
}
