import type { FastifyRequest } from 'fastify';

/** Where a request came from, as the audit trail records it. */
export type RequestContext = {
  ipAddress: string;
  accessChannel: 'web' | 'mobile' | 'api';
  userAgent: string;
  /** SHA-256 of the electronic-signature disclosure the client showed (X-Disclosure-SHA256), if it names one. */
  disclosureHash?: string;
};

// The mobile client sends no distinguishing header (SPEC.md), so the user agent of its HTTP stack decides.
const MOBILE_AGENT = /\b(Android|iPhone|iPad|Mobile|okhttp|Dart|CFNetwork|Expo)\b/i;

export function requestContext(request: FastifyRequest): RequestContext {
  const userAgent = String(request.headers['user-agent'] ?? '');
  const accessChannel =
    request.caller?.kind === 'user' && request.caller.appId ? 'api' : MOBILE_AGENT.test(userAgent) ? 'mobile' : 'web';
  const disclosure = request.headers['x-disclosure-sha256'];
  return {
    ipAddress: request.ip,
    accessChannel,
    userAgent,
    ...(typeof disclosure === 'string' && disclosure ? { disclosureHash: disclosure } : {}),
  };
}
