import type { DbOrTx } from '../../platform/db/client.ts';
import { type MailLanguage, mailLanguageOf } from '../../platform/mail/messages/index.ts';
import { findMailLocales } from './users.repo.ts';

/**
 * The language of the mails about a workflow (docs/mail-and-webhooks.md "Mail languages"): the sender's locale
 * setting (the workflow's owner, `PUT /user/v1/settings/locale`) when it names one of the mail languages, else the
 * organization owner's, else English. Asked inside the transaction that queues the mail, in one statement.
 */
export async function senderMailLanguage(
  db: DbOrTx,
  workflow: { ownerUserId: number; organizationId: number | null },
): Promise<MailLanguage> {
  const locales = await findMailLocales(db, workflow.ownerUserId, workflow.organizationId);
  return mailLanguageOf(locales.sender) ?? mailLanguageOf(locales.organizationOwner) ?? 'en';
}
