/**
 * The one HTML escaper, for every page and mail the service writes as text (mails, the evidence report, the invitation
 * pages): names, sentences and user agents are user input. Safe in element content and in quoted attribute values.
 */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
