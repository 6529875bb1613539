import crypto from 'node:crypto';

/** RUNTIME.md: `X-Signature-256: sha256=<hex HMAC-SHA256 of the raw body under webhookSecret>`. */
export function webhookSignature(body: string, secret: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}
