import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { preparedStatement } from '../db/prepared.ts';
import { organizationBranding } from '../db/schema/index.ts';
import type { MailBranding } from './templates/layout.ts';

/** Reads an organization's branding for its mail, inside the transaction that queues the mail. */
export type MailBrandingLookup = (db: DbOrTx, organizationId: number) => Promise<MailBranding | null>;

/** Where a stored logo can be fetched without a token: its content hash is the address (modules/branding serves it). */
export function publicLogoPath(logoBlobKey: string): string {
  return `/branding/v1/logos/${logoBlobKey}`;
}

const brandingOf = preparedStatement('mail_branding', (db) =>
  db
    .select()
    .from(organizationBranding)
    .where(eq(organizationBranding.organizationId, sql.placeholder('organizationId'))),
);

/**
 * The organization's colour, sender name and logo (an absolute URL under PUBLIC_URL, since a mail client
 * fetches it from outside), or null for an organization on the platform's look.
 */
export function createMailBrandingLookup(publicUrl: string): MailBrandingLookup {
  const base = publicUrl.replace(/\/+$/, '');
  return async (db, organizationId) => {
    const [row] = await brandingOf(db).execute({ organizationId });
    if (!row) return null;
    return {
      colour: row.primaryColor,
      senderName: row.senderName,
      logoUrl: row.logoBlobKey ? `${base}${publicLogoPath(row.logoBlobKey)}` : null,
    };
  };
}
