import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { requestContext } from '../../http/request-context.ts';
import { type GuestAccessService, VOIDED_LINK, VOIDED_TEXT } from './guest-access.service.ts';
import { CodeParams, GuestTokenResponse, SignLinkResponse, toGuestTokenResponse } from './guest-access.schemas.ts';
import { SIGNING_LINK_DAYS } from './signing-codes.ts';
import { WEB_PAGE_HEADERS, webShellWithNotice } from '../webapp/webapp-shell.ts';

const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-robots-tag': 'noindex',
};

function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>` +
    `<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}code{word-break:break-all}</style>` +
    `</head><body><h1>${title}</h1>${body}</body></html>`
  );
}

/** JSON only when asked for and HTML is not (a browser opening the mailed link gets the page). */
function wantsJson(accept: string | undefined): boolean {
  const value = (accept ?? '').toLowerCase();
  return value.includes('application/json') && !value.includes('text/html');
}

export function guestAccessRoutes(guests: GuestAccessService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/auth/v1/getGuestToken/:code',
      {
        schema: {
          tags: ['Authentication'],
          summary: 'Exchange a signing-link code for a guest session',
          description:
            `Public. The code is the last path segment of the mailed link $PUBLIC_URL/sign/<code>; it can be redeemed again and again for ${SIGNING_LINK_DAYS} days after the mail. ` +
            'The token acts as that one recipient row of that one workflow (any other workflow: 404). The first redemption records an Opened activity ' +
            'and moves the recipient from SENT to VIEWED; later ones record nothing. Once the recipient has finished, the token still reads and downloads but cannot act. ' +
            'Garbage, tampered or expired code, deleted workflow, a recipient row that was delegated away, or a VOID workflow whose recipient had not finished: 400 LINK_EXPIRED (links cannot be extended; the sender re-dispatches).',
          params: CodeParams,
          response: { 200: GuestTokenResponse, 400: Type.Ref('ErrorResponse') },
        },
        config: { auth: 'public' },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return toGuestTokenResponse(await guests.redeem(request.params.code, requestContext(request)));
      },
    );

    app.get(
      '/sign/:code',
      {
        schema: {
          tags: ['Authentication'],
          summary: 'The mailed signing link',
          description:
            "Public; what a recipient's browser opens from the commence mail. A browser (Accept naming text/html) gets the signing page of the web app, " +
            'which redeems the code itself with GET /auth/v1/getGuestToken/{code} once its script runs; with Accept: application/json (and not text/html), ' +
            '{redeemPath, expiresAt}. This route never redeems the code, so a mail scanner following the link neither opens the envelope nor creates a session. ' +
            'A code that would not redeem: 400 (the same page, which shows the expired-link message, or LINK_EXPIRED JSON).',
          params: CodeParams,
          produces: ['text/html', 'application/json'],
          response: {
            200: {
              description: 'The code redeems',
              content: { 'text/html': { schema: Type.String() }, 'application/json': { schema: SignLinkResponse } },
            },
            400: {
              description: 'The code does not redeem',
              content: {
                'text/html': { schema: Type.String() },
                'application/json': { schema: Type.Ref('ErrorResponse') },
              },
            },
          },
        },
        config: { auth: 'public' },
      },
      async (request, reply) => {
        const { code } = request.params;
        const inspected = await guests.inspect(code);
        const valid = inspected === 'VOIDED' ? null : inspected;
        const redeemPath = `/auth/v1/getGuestToken/${encodeURIComponent(code)}`;
        if (wantsJson(request.headers.accept)) {
          if (inspected === 'VOIDED') throw new AppError('LINK_EXPIRED', VOIDED_TEXT, VOIDED_LINK);
          if (!valid) throw new AppError('LINK_EXPIRED', 'Link or code expired');
          reply.header('cache-control', 'no-store');
          return reply.type('application/json').send({ redeemPath, expiresAt: valid.expiresAt.toISOString() });
        }
        const expired =
          inspected === 'VOIDED'
            ? { title: 'This envelope was voided', text: VOIDED_TEXT }
            : {
                title: 'This link has expired',
                text: 'This signing link is no longer valid. Links cannot be extended: ask the sender to send the document again.',
              };
        const shell = webShellWithNotice(
          valid
            ? {
                title: 'Your document is ready',
                text: 'This page needs JavaScript to show the document for review and signing.',
              }
            : expired,
        );
        if (shell !== null) {
          return reply
            .status(valid ? 200 : 400)
            .headers(WEB_PAGE_HEADERS)
            .type('text/html; charset=utf-8')
            .send(shell);
        }
        // The web app is not built (the service was started without `npm start`): the plain page of before.
        reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8');
        if (!valid) {
          return reply.status(400).send(page(expired.title, `<p>${expired.text}</p>`));
        }
        // A valid code is base64url, so it is safe inside the page as it is.
        return reply.send(
          page(
            'Your document is ready',
            '<p>Open this link in the signing app to review and sign the document.</p>' +
              `<p>Signing clients: redeem the code with <code>GET ${redeemPath}</code>.</p>` +
              `<p>The link can be used until ${valid.expiresAt.toISOString().slice(0, 10)}.</p>`,
          ),
        );
      },
    );
  };
}
