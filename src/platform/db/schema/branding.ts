import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts.ts';

/**
 * An organization's look (SPEC.md "Organization: branding"), written by modules/branding only. No row: the
 * platform default. Mail rendering (platform/mail) and the signing page read it.
 */
export const organizationBranding = pgTable(
  'organization_branding',
  {
    organizationId: integer()
      .primaryKey()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** `#RRGGBB`; null: the platform colour. */
    primaryColor: text(),
    /** Who mail and the signing page say the documents come from; null: the platform name. */
    senderName: text(),
    /** Blob key (SHA-256) of the re-encoded PNG logo; also its public, unguessable address. */
    logoBlobKey: text(),
    updatedByUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('organization_branding_logo_idx').on(t.logoBlobKey)],
);
