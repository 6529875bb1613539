import crypto from 'node:crypto';
import type { EnvelopeRecord } from './envelope-record.ts';
import { visibleRecipients } from './envelope-record.ts';
import { formatHistoryTime } from './history-time.ts';
import type { LinkDelivery } from './history.repo.ts';
import { escapeHtml } from '../../platform/html.ts';

/** The platform's sealing certificate as the report shows it. */
export type SealCertificate = {
  subject: string;
  fingerprintSha256: string;
  certificatePem: string;
  chainPem: string[];
};

/** Whether the stored file behind a blob key still hashes to that key. */
export type StoredHashCheck = 'verified' | 'mismatch' | 'missing';

export type EvidenceReportInput = {
  record: EnvelopeRecord;
  /** The link-carrying mails of the workflow with their delivery route (history.repo.ts findLinkDeliveries). */
  linkDeliveries: LinkDelivery[];
  storedHashes: Map<string, StoredHashCheck>;
  certificate: SealCertificate;
  generatedAt: Date;
};

const STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:2rem;color:#111;font-size:14px}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ccc}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #ddd;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#f4f4f4}code,pre,.hash{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;word-break:break-all}
pre{white-space:pre-wrap;background:#f8f8f8;padding:.5rem;border:1px solid #eee}
.verdict{padding:.6rem 1rem;font-weight:600;border-radius:4px}.intact{background:#e6f4ea;color:#0b5d1e}.tampered{background:#fde7e9;color:#8a1020}
`;

export function renderEvidenceReport(input: EvidenceReportInput): string {
  const { record } = input;
  const { workflow } = record;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Evidence report: ${escapeHtml(workflow.name)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Evidence report</h1>
<p>${escapeHtml(workflow.name)} (workflow ${workflow.id}). Generated ${escapeHtml(time(record, input.generatedAt))} (${escapeHtml(record.timeZone)}).</p>
${chainSection(record)}
${envelopeSection(record)}
${documentsSection(record, input.storedHashes)}
${recipientsSection(record, input.linkDeliveries)}
${eventsSection(record)}
${consentSection(record)}
${certificateSection(input.certificate)}
</body>
</html>
`;
}

function time(record: EnvelopeRecord, date: Date | null | undefined): string {
  return formatHistoryTime(date, record.timeZone);
}

function table(headers: string[], rows: string[][]): string {
  const head = headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows.map((cells) => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n');
  return `<table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

function chainSection(record: EnvelopeRecord): string {
  const { chain } = record;
  const verdict = chain.intact
    ? `<p class="verdict intact" id="chain-verdict">INTACT: the activity hash chain verifies over all ${chain.rowCount} rows.</p>`
    : `<p class="verdict tampered" id="chain-verdict">TAMPERED: the activity hash chain is broken at ${chain.breaks
        .map((b) => `row ${b.position} (activity id ${b.activityId})`)
        .join(', ')}. Those rows were edited, inserted or a row before them was deleted after they were recorded.</p>`;
  return `<h2>Audit trail integrity</h2>
${verdict}
<p>Each activity row stores the SHA-256 of the previous row's hash and its own content; a report recomputes the whole chain.</p>`;
}

function envelopeSection(record: EnvelopeRecord): string {
  const { workflow } = record;
  const rows: [string, string][] = [
    ['Envelope', workflow.name],
    ['Workflow id', String(workflow.id)],
    ['Status', workflow.status],
    ['Sequence', workflow.sequence],
    ['Owner', `${record.owner.name} <${record.owner.email}>`],
    ['Created', time(record, workflow.createdAt)],
    ['Sent', time(record, workflow.sentAt)],
    ['Completed', time(record, workflow.completedAt)],
    ['Time zone', record.timeZone],
    ['Seal status', workflow.sealStatus + (workflow.sealError ? `: ${workflow.sealError}` : '')],
  ];
  return `<h2>Envelope</h2>\n${table(
    ['Item', 'Value'],
    rows.map(([k, v]) => [escapeHtml(k), escapeHtml(v)]),
  )}`;
}

function documentsSection(record: EnvelopeRecord, stored: Map<string, StoredHashCheck>): string {
  const check = (key: string) => escapeHtml(stored.get(key) ?? 'missing');
  const rows = record.documents.map((d) => [
    escapeHtml(d.name),
    String(d.pages),
    `<span class="hash">${escapeHtml(d.blobKey)}</span><br>stored file: ${check(d.blobKey)}`,
    d.sealedBlobKey
      ? `<span class="hash">${escapeHtml(d.sealedBlobKey)}</span><br>stored file: ${check(d.sealedBlobKey)}`
      : `not sealed (seal ${escapeHtml(record.workflow.sealStatus)})`,
  ]);
  return `<h2>Documents</h2>\n${table(['Document', 'Pages', 'SHA-256 before sealing (original upload)', 'SHA-256 after sealing'], rows)}`;
}

function recipientsSection(record: EnvelopeRecord, deliveries: LinkDelivery[]): string {
  const rows = visibleRecipients(record).map((r) => [
    escapeHtml(r.name),
    escapeHtml(r.email),
    escapeHtml(r.role),
    escapeHtml(r.status),
    escapeHtml(time(record, r.dispatchedAt)),
    escapeHtml(time(record, r.viewedAt)),
    escapeHtml(time(record, r.actedAt)),
    escapeHtml(linkRoute(record, r.id, deliveries)),
  ]);
  return `<h2>Recipients</h2>
<p>"Link delivered by" names who carried each recipient's signing link: the platform's own mail, or the organization's own mail provider.
Links of recipients who sign with a platform-certified key always travel through the platform's mail.</p>
${table(['Name', 'Email', 'Role', 'Status', 'Received', 'Viewed', 'Acted', 'Link delivered by'], rows)}`;
}

const ROUTE_NAMES: Record<string, string> = {
  PLATFORM: "the platform's mail",
  SMTP: "the organization's SMTP server",
  EMAIL_API: "the organization's email API provider",
  CLOUD_MAIL: "the organization's cloud mail provider",
  OAUTH2_MAIL: "the organization's OAuth 2.0 mail provider",
};

/**
 * Who carried the recipient's links, each route once with when it first did; a self-signing owner signs in the account
 * (no link), and a link still queued or undelivered says so.
 */
function linkRoute(record: EnvelopeRecord, recipientId: number, deliveries: LinkDelivery[]): string {
  const own = deliveries.filter((d) => d.recipientId === recipientId);
  if (own.length === 0)
    return record.workflow.sequence === 'SELF' ? 'no link: signed in the account' : 'no link mailed';
  const sent = own.filter((d) => d.status === 'SENT');
  if (sent.length === 0)
    return own.some((d) => d.status === 'FAILED') ? 'not delivered (the mail failed)' : 'not delivered yet';
  const firstByRoute = new Map<string, Date | null>();
  for (const delivery of sent) {
    const route = delivery.route ?? 'PLATFORM';
    if (!firstByRoute.has(route)) firstByRoute.set(route, delivery.sentAt);
  }
  return [...firstByRoute]
    .map(([route, at]) => `${ROUTE_NAMES[route] ?? route}${at ? ` (${time(record, at)})` : ''}`)
    .join('; ');
}

function eventsSection(record: EnvelopeRecord): string {
  const broken = new Set(record.chain.breaks.map((b) => b.activityId));
  const rows = record.activities.map((a, index) => [
    String(index + 1) + (broken.has(a.id) ? ' <strong>TAMPERED</strong>' : ''),
    escapeHtml(time(record, a.createdAt)),
    escapeHtml(a.userName),
    escapeHtml(a.ipAddress),
    escapeHtml(a.accessChannel),
    escapeHtml(a.userAgent ?? ''),
    escapeHtml(a.action),
    escapeHtml(a.sentence),
    escapeHtml(a.status),
    `<span class="hash">${escapeHtml(a.hash)}</span>`,
  ]);
  return `<h2>Events</h2>
<p>Every recorded activity, oldest first (including rows the history timeline folds: later uploads and assistant routing).</p>
${table(['Row', 'Time', 'Actor', 'IP address', 'Channel', 'User agent', 'Action', 'Activity', 'Status', 'Row hash'], rows)}`;
}

function consentSection(record: EnvelopeRecord): string {
  const consents = record.activities.filter((a) => a.consent !== null && typeof a.consent === 'object');
  if (consents.length === 0) return '<h2>Electronic-signature consent</h2>\n<p>No consent was recorded.</p>';
  const blocks = consents.map((a) => {
    const consent = a.consent as Record<string, unknown>;
    const text = typeof consent.text === 'string' ? consent.text : '';
    const textHash = String(consent.textHash ?? '');
    const digest = crypto.createHash('sha256').update(text, 'utf8');
    const hex = digest.copy().digest('hex');
    const matches = textHash.toLowerCase() === hex || textHash === digest.digest('base64');
    const rows: [string, unknown][] = [
      ['Recipient', `${consent.recipientName ?? a.userName} <${consent.recipientEmail ?? ''}>`],
      ['Accepted', time(record, a.createdAt)],
      ['IP address', consent.ipAddress ?? a.ipAddress],
      ['Channel', consent.accessChannel ?? a.accessChannel],
      ['User agent', consent.userAgent ?? a.userAgent ?? ''],
      ['Source', consent.source ?? ''],
      ['Evidence', typeof consent.evidence === 'string' ? consent.evidence : JSON.stringify(consent.evidence ?? '')],
      ['Text SHA-256 (textHash)', textHash],
      [
        'Text hash check',
        matches ? 'matches the text below' : `DOES NOT MATCH the text below (SHA-256 of the text is ${hex})`,
      ],
    ];
    return `${table(
      ['Item', 'Value'],
      rows.map(([k, v]) => [escapeHtml(k), escapeHtml(v)]),
    )}\n<p>Text shown to the signer:</p>\n<pre class="consent-text">${escapeHtml(text)}</pre>`;
  });
  return `<h2>Electronic-signature consent</h2>\n${blocks.join('\n')}`;
}

function certificateSection(certificate: SealCertificate): string {
  return `<h2>Seal certificate</h2>
${table(
  ['Item', 'Value'],
  [
    ['Subject', escapeHtml(certificate.subject)],
    ['SHA-256 fingerprint', `<span class="hash">${escapeHtml(certificate.fingerprintSha256)}</span>`],
  ],
)}
<p>Certificate (PEM):</p>
<pre class="pem">${escapeHtml(certificate.certificatePem.trim())}</pre>${
    certificate.chainPem.length > 0
      ? `
<p>Issuer chain, nearest first (PEM):</p>
<pre class="pem">${escapeHtml(certificate.chainPem.map((pem) => pem.trim()).join('\n'))}</pre>`
      : ''
  }`;
}
