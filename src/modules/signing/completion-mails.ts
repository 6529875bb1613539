import { type MailLanguage, mailText } from '../../platform/mail/messages/index.ts';
import type { OutgoingMail } from '../../platform/mail/outbox.ts';
import { renderMail, type MailBranding } from '../../platform/mail/templates/layout.ts';
import type { RecipientRow, WorkflowRow } from '../workflows/workflow-access.ts';
import { signingLink, type SigningCodes } from './signing-codes.ts';
import { workflowTitle } from './signing-mails.ts';

/** Above this many bytes of sealed PDFs a completion mail carries a link instead of attachments. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

export type SealedDocument = { name: string; sealedBlobKey: string; sealedSize: number };
export type Person = { name: string; email: string };
/** The owner, with the language of the owner's mails (senderMailLanguage): absent, English. */
export type Owner = Person & { language?: MailLanguage };

export function pdfFileName(name: string): string {
  const base =
    name
      .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
      .trim()
      .replace(/\.pdf$/i, '') || 'document';
  return `${base}.pdf`;
}

/** The owner's download: the API path that answers the sealed documents and the certificate as one zip. */
export function ownerDownloadUrl(publicUrl: string, workflowId: number): string {
  return `${publicUrl}/document/v1/download/${workflowId}?selectedOption=downloadAll`;
}

/**
 * One completion mail per distinct address: every recipient row except DELEGATED ones (their task moved to
 * the delegate) and hidden assistant rows, plus the owner. Up to MAX_ATTACHMENT_BYTES the sealed PDFs are
 * attached; above, the mail holds a link instead: the owner's is the download path (their sign-in applies),
 * a recipient's is a fresh signing link (`$PUBLIC_URL/sign/<code>`), whose token can read and download the
 * finished workflow but no longer act. Every one is written in the owner's mail language: the owner sent the
 * envelope, and the recipients had its invitation in that language.
 */
export function completionMails(input: {
  workflow: WorkflowRow;
  owner: Owner;
  recipients: RecipientRow[];
  documents: SealedDocument[];
  publicUrl: string;
  codes: SigningCodes;
  now?: Date;
  branding?: MailBranding;
}): OutgoingMail[] {
  const { workflow, owner, documents, publicUrl, codes } = input;
  const total = documents.reduce((sum, d) => sum + d.sealedSize, 0);
  const attach = total <= MAX_ATTACHMENT_BYTES;
  const attachments = attach
    ? documents.map((d) => ({
        filename: pdfFileName(d.name),
        contentType: 'application/pdf',
        blobKey: d.sealedBlobKey,
      }))
    : undefined;
  const names = documents.map((d) => `- ${pdfFileName(d.name)}`);
  const t = mailText(owner.language);
  const seen = new Set<string>();
  const mails: OutgoingMail[] = [];

  const add = (to: Person, recipient: RecipientRow | null) => {
    const address = to.email.trim().toLowerCase();
    if (!address || seen.has(address)) return;
    seen.add(address);
    const link = attach
      ? null
      : recipient
        ? signingLink(codes, publicUrl, recipient, input.now).url
        : ownerDownloadUrl(publicUrl, workflow.id);
    mails.push({
      organizationId: workflow.organizationId,
      to: to.email,
      ...renderMail(
        {
          subject: t.completed.subject({ title: workflowTitle(workflow) }),
          greeting: to.name,
          blocks: [
            { lines: [t.completed.finished({ document: workflow.name, count: documents.length }), ...names] },
            attach
              ? t.completed.attached({ count: documents.length })
              : t.completed.tooLarge({ megabytes: MAX_ATTACHMENT_BYTES / 1024 / 1024 }),
            link && { label: t.completed.download, url: link },
          ],
          language: t.language,
        },
        input.branding,
      ),
      kind: 'COMPLETED',
      workflowId: workflow.id,
      recipientId: recipient?.id ?? null,
      ...(attachments ? { attachments } : {}),
    });
  };

  for (const recipient of input.recipients) {
    if (recipient.status === 'DELEGATED' || recipient.isHidden) continue;
    // The owner's own row (SELF, or the owner signing their envelope) gets the owner's mail below.
    if (recipient.email.trim().toLowerCase() === owner.email.trim().toLowerCase()) continue;
    add({ name: recipient.name, email: recipient.email }, recipient);
  }
  add(owner, null);
  return mails;
}

/** To the owner when sealing gave up after its last retry: the workflow is COMPLETED but has no sealed file. */
export function sealFailedMail(input: {
  workflow: WorkflowRow;
  owner: Owner;
  error: string;
  branding?: MailBranding;
}): OutgoingMail {
  const { workflow, owner } = input;
  const t = mailText(owner.language);
  return {
    organizationId: workflow.organizationId,
    to: owner.email,
    ...renderMail(
      {
        subject: t.sealFailed.subject({ title: workflowTitle(workflow) }),
        greeting: owner.name,
        blocks: [
          { lines: [t.sealFailed.body({ document: workflow.name }), t.sealFailed.reason({ reason: input.error })] },
          t.sealFailed.kept,
        ],
        language: t.language,
      },
      input.branding,
    ),
    kind: 'SEAL_FAILED',
    workflowId: workflow.id,
  };
}
