import { sql } from 'drizzle-orm';
import { bigint, customType, index, integer, pgTable } from 'drizzle-orm/pg-core';

/** PostgreSQL's 64-bit transaction id (pg_current_xact_id()), read as text. */
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

/**
 * Which templates' analytics changed, and in which transaction (`txid`): triggers append a row per template when a
 * workflow made from it changes what analytics read (status, sent and completed times, deletion) or field events of
 * it arrive (migration 0020_document_list_triggers.sql). A cached analytics answer read under snapshot S stays exact
 * while every mark of its template is visible in S (modules/templates/template-analytics-cache.ts). Folded like the
 * list's ledger.
 */
export const templateAnalyticsMarks = pgTable('template_analytics_marks', {
  id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  templateId: integer().notNull(),
  txid: xid8().notNull().default(sql`pg_current_xact_id()`),
}, (t) => [index('template_analytics_marks_template_idx').on(t.templateId)]);
