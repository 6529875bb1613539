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

    app.post(
      '/auth/v1/smart_card/hash',
      {
        schema: {
          tags,
          summary: 'Smart-card sign-in, step 1: a hash for the card to sign',
          description:
            "Takes the card's certificate (PEM) and answers {challengeId, hash}: hash is base64 of a SHA-256 digest to sign with the " +
            "card's key; the challenge is single use and valid 5 minutes. certificate may hold, after the card's certificate, the intermediate " +
            "CA certificates of its chain (PEM blocks, at most 8, in any order), for a CA of SMART_CARD_CA_FILE that is not the card's direct issuer. " +
            'The certificates are only read here (an unreadable block or more than 8 intermediates: 400 SMART_CARD_CERTIFICATE_INVALID); they are ' +
            'checked at verify. At most 100 challenges (smart card and passkey together) per client ' +
            `address in 15 minutes: then 429 CHALLENGE_RATE_LIMITED with Retry-After. ${OFF}`,
          body: HashBody,
          response: { 200: HashResponse, 400: error, 429: error },
          security: [],
        },
        config: { auth: 'public' },
      },
      async (request) => smartCards.hash(request.body, request.ip),
    );

    app.post(
      '/auth/v1/smart_card/signature/verify',
      {
        schema: {
          tags,
          summary: 'Smart-card sign-in, step 2: verify the signature',
          description:
            'Takes {challengeId, signature} (base64; RSA PKCS#1 v1.5, or ECDSA as DER or raw r||s, over the hash) and answers the ' +
            "password-login shape for the registered account whose email the certificate names (subjectAltName rfc822Name, else the subject's " +
            "emailAddress); the account's two-factor setting does not apply (the card and its PIN are two factors). The certificate must have a " +
            'path to a CA certificate of SMART_CARD_CA_FILE (root or intermediate) through the intermediates sent with it at hash or held in the ' +
            'bundle: every certificate of the path within its validity period and signed by the next; each issuer a CA (basicConstraints cA; ' +
            "keyCertSign when it has a key usage; its pathLen respected); the card's certificate not a CA, with key usage digitalSignature and an " +
            'extended key usage that includes clientAuth (1.3.6.1.5.5.7.3.2) or smart-card logon (1.3.6.1.4.1.311.20.2.2) (without the extension: ' +
            "refused). No certificate of the path but the bundle's may be revoked: the OCSP responders and CRL distribution points each names are " +
            'asked under the outbound rules; when one names some and none answers usably, it is refused. Any refusal is 401 SMART_CARD_REJECTED ' +
            'with responseBody.reason (CHALLENGE, SIGNATURE, UNTRUSTED_ISSUER (no path to the bundle), NOT_YET_VALID, EXPIRED, ISSUER_NOT_CA, ' +
            'PATH_LENGTH, KEY_USAGE, EXTENDED_KEY_USAGE, REVOKED, REVOCATION_UNKNOWN, NO_EMAIL, NO_ACCOUNT, ACCOUNT_NOT_VERIFIED) and counts against the ' +
            "sign-in limits (the certificate's account: 10, the address: 100 in 15 minutes; then 401 ACCOUNT_TEMPORARILY_LOCKED with " +
            `Retry-After). ${OFF}`,
          body: VerifyBody,
          response: { 200: SessionResponse, 400: error, 401: error },
          security: [],
        },
        config: { auth: 'public' },
      },
      async (request) => smartCards.verify(request.body, request.ip),
    );
  };
}
