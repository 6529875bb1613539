import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SessionResponse } from '../auth/auth.schemas.ts';
import type { SmartCardService } from './smart-card.service.ts';
import { HashBody, HashResponse, VerifyBody } from './smart-card.schemas.ts';

const error = Type.Ref('ErrorResponse');
const OFF = 'SMART_CARD_CA_FILE unset: 400 OPERATION_IS_NOT_ALLOWED.';

export function smartCardRoutes(smartCards: SmartCardService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Authentication'];

    app.post('/auth/v1/smart_card/hash', {
      schema: {
        tags,
        summary: 'Smart-card sign-in, step 1: a hash for the card to sign',
        description: 'Takes the card\'s certificate (PEM) and answers {challengeId, hash}: hash is base64 of a SHA-256 digest to sign with the '
          + 'card\'s key; the challenge is single use and valid 5 minutes. The certificate is only read here (not one certificate: 400 '
          + 'SMART_CARD_CERTIFICATE_INVALID); it is checked at verify. At most 100 challenges (smart card and passkey together) per client '
          + `address in 15 minutes: then 400 CHALLENGE_RATE_LIMITED with Retry-After. ${OFF}`,
        body: HashBody,
        response: { 200: HashResponse, 400: error },
        security: [],
      },
      config: { auth: 'public' },
    }, async (request) => smartCards.hash(request.body, request.ip));

    app.post('/auth/v1/smart_card/signature/verify', {
      schema: {
        tags,
        summary: 'Smart-card sign-in, step 2: verify the signature',
        description: 'Takes {challengeId, signature} (base64; RSA PKCS#1 v1.5, or ECDSA as DER or raw r||s, over the hash) and answers the '
          + 'password-login shape for the registered account whose email the certificate names (subjectAltName rfc822Name, else the subject\'s '
          + 'emailAddress); the account\'s two-factor setting does not apply (the card and its PIN are two factors). The certificate must be '
          + 'issued by a CA of SMART_CARD_CA_FILE, it and its issuer within their validity period, not a CA, with key usage digitalSignature, '
          + 'and not revoked: the OCSP responders and CRL distribution points it names are asked under the outbound rules; when it names some '
          + 'and none answers usably, it is refused. Any refusal is 401 SMART_CARD_REJECTED with responseBody.reason (CHALLENGE, SIGNATURE, '
          + 'UNTRUSTED_ISSUER, NOT_YET_VALID, EXPIRED, KEY_USAGE, REVOKED, REVOCATION_UNKNOWN, NO_EMAIL, NO_ACCOUNT) and counts against the '
          + 'sign-in limits (the certificate\'s account: 10, the address: 100 in 15 minutes; then 401 ACCOUNT_TEMPORARILY_LOCKED with '
          + `Retry-After). ${OFF}`,
        body: VerifyBody,
        response: { 200: SessionResponse, 400: error, 401: error },
        security: [],
      },
      config: { auth: 'public' },
    }, async (request) => smartCards.verify(request.body, request.ip));
  };
}
