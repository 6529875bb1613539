import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { cookieNames, readCookie } from '../../http/session-cookie.ts';
import { WEB_ASSETS_DIR, WEB_PAGE_HEADERS, webShellWithNotice } from './webapp-shell.ts';

/** Content types of what Vite emits; anything else is not served. */
const ASSET_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};

/**
 * pdf.js's data files, served from the installed pdfjs-dist (the version the page's bundle was built with):
 * CMaps for CJK text, the standard fonts PDFs often name without embedding (Helvetica...), the image
 * decoders' WebAssembly and ICC profiles. Without them pdf.js draws such documents with substitutes.
 */
const PDFJS_DIR = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const PDFJS_DATA: Record<string, Record<string, string>> = {
  cmaps: { '.bcmap': 'application/octet-stream' },
  standard_fonts: { '.pfb': 'application/octet-stream', '.ttf': 'font/ttf' },
  wasm: { '.wasm': 'application/wasm', '.js': 'text/javascript; charset=utf-8' },
  iccs: { '.icc': 'application/octet-stream' },
};

/** One path segment of letters, digits, dot, dash and underscore, not starting with a dot: no traversal possible. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

const NO_SCRIPT = { title: 'Signature Service', text: 'This page needs JavaScript to show the document.' };
const SIGNIN_NO_SCRIPT = { title: 'Sign in', text: 'Signing in needs JavaScript.' };
const WORKSPACE_NO_SCRIPT = { title: 'Signature Service', text: 'This page needs JavaScript.' };

/** A browser asking for a page (an Accept that names text/html); API clients keep getting JSON. */
function wantsHtml(accept: string | undefined): boolean {
  return (accept ?? '').toLowerCase().includes('text/html');
}

/**
 * The sender's workspace's pages (web/src/workspace/routes.tsx picks the page in the browser). Signed-in pages send
 * a browser without a session cookie straight to sign-in (cheap: only the cookie's presence is checked here; an
 * ended session is found by the page's first API call, which sends it to sign-in the same way). `/signup` is public.
 */
const WORKSPACE_PAGES: { url: string; signedIn: boolean; summary: string }[] = [
  { url: '/', signedIn: true, summary: "The sender's workspace: the documents dashboard" },
  {
    url: '/envelopes/*',
    signedIn: true,
    summary: "The workspace's envelope pages (new, edit, the envelope after sending)",
  },
  { url: '/templates', signedIn: true, summary: "The workspace's templates" },
  { url: '/templates/*', signedIn: true, summary: "The workspace's template pages" },
  { url: '/organization', signedIn: true, summary: "The workspace's organization settings" },
  { url: '/organization/*', signedIn: true, summary: "The workspace's organization pages" },
  { url: '/profile', signedIn: true, summary: "The workspace's profile and settings" },
  { url: '/profile/*', signedIn: true, summary: "The workspace's profile pages" },
  { url: '/signup', signedIn: false, summary: 'The sign-up page' },
];

type Options = { secure: boolean };

/**
 * The web app's files: hashed assets (cached for a year: a new build has new names) and the HTML shell of
 * the pages that are not the signing link (that one lives beside the guest token route, which decides
 * between HTML and JSON).
 */
export function webAppRoutes(options: Options): FastifyPluginAsyncTypebox {
  const sessionCookie = cookieNames(options.secure).session;
  return async (app) => {
    for (const page of WORKSPACE_PAGES) {
      app.get(
        page.url,
        {
          schema: {
            tags: ['Web app'],
            summary: page.summary,
            description:
              (page.signedIn
                ? "A browser (Accept naming text/html) with a web session cookie gets the web app's HTML shell; without one it is redirected (302) to " +
                  'GET /bff/auth/authorize?returnTo=<this path>, which brings it back here after sign-in. '
                : "Public. A browser (Accept naming text/html) gets the web app's HTML shell. ") +
              'Any other client gets 404 ROUTE_NOT_FOUND, as before this page existed: the path is not an API.',
            querystring: Type.Object({}, { additionalProperties: true }),
            produces: ['text/html', 'application/json'],
            response: {
              200: { description: "The web app's HTML shell", content: { 'text/html': { schema: Type.String() } } },
              ...(page.signedIn ? { 302: Type.Null({ description: 'Redirect to sign-in (no session cookie)' }) } : {}),
              404: Type.Ref('ErrorResponse'),
            },
            security: [],
          },
          config: { auth: 'public' },
        },
        async (request, reply) => {
          const pathname = request.url.split('?')[0];
          if (!wantsHtml(request.headers.accept))
            throw new AppError('ROUTE_NOT_FOUND', `No endpoint ${request.method} ${pathname}`);
          if (page.signedIn && !readCookie(request, sessionCookie)) {
            // request.url is this service's own path (the router matched it); the authorize route checks returnTo again anyway
            // and takes at most 512 characters (a longer query is dropped rather than refused).
            const returnTo = request.url.length <= 512 ? request.url : pathname.slice(0, 512);
            return reply
              .header('cache-control', 'no-store')
              .redirect(`/bff/auth/authorize?returnTo=${encodeURIComponent(returnTo)}`, 302);
          }
          return sendShell(reply, WORKSPACE_NO_SCRIPT);
        },
      );
    }

    app.get(
      '/app/assets/:file',
      {
        schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 200 }) }) },
        config: { auth: 'public' },
      },
      async (request, reply) => {
        const { file } = request.params;
        const type = ASSET_TYPES[path.extname(file).toLowerCase()];
        if (!ASSET_NAME.test(file) || !type) throw new AppError('NOT_FOUND', 'No such file');
        return sendFile(reply, path.join(WEB_ASSETS_DIR, file), type, 'public, max-age=31536000, immutable');
      },
    );

    app.get(
      '/app/pdfjs/:dir/:file',
      {
        schema: {
          hide: true,
          params: Type.Object({ dir: Type.String({ maxLength: 20 }), file: Type.String({ maxLength: 200 }) }),
        },
        config: { auth: 'public' },
      },
      async (request, reply) => {
        const { dir, file } = request.params;
        const type = Object.hasOwn(PDFJS_DATA, dir) ? PDFJS_DATA[dir][path.extname(file).toLowerCase()] : undefined;
        if (!ASSET_NAME.test(file) || !type) throw new AppError('NOT_FOUND', 'No such file');
        return sendFile(reply, path.join(PDFJS_DIR, dir, file), type, 'public, max-age=86400');
      },
    );

    app.get(
      '/signin',
      {
        schema: {
          tags: ['Web app'],
          summary: "The service's own sign-in page",
          description:
            'Public. Without OIDC_ISSUER, GET /bff/auth/authorize sends the browser here with ?state=; the page signs in with a password (then a TOTP code ' +
            'when two-factor sign-in is on) through POST /auth/v1/signin/authorize and completes through GET /bff/auth/callback. Opened without a state it starts a sign-in.',
          querystring: Type.Object(
            { state: Type.Optional(Type.String({ maxLength: 256 })) },
            { additionalProperties: true },
          ),
          produces: ['text/html'],
          response: {
            200: { description: "The web app's HTML shell", content: { 'text/html': { schema: Type.String() } } },
          },
        },
        config: { auth: 'public' },
      },
      async (_request, reply) => sendShell(reply, SIGNIN_NO_SCRIPT),
    );

    // The return addresses of an authorization (an SSO sign-in, a remote signature): the shell, whose page hands code and state on.
    const authorizationReturns = [
      {
        url: '/auth/sso/callback',
        notice: SIGNIN_NO_SCRIPT,
        summary: 'Default return address of an SSO redirect sign-in',
        description:
          'Public. Where GET /auth/v1/signin without redirectUri sends the browser back with ?code=&state=: the page posts {type: "sso-callback", code, ' +
          'state, error} to the window that opened it when that window is of this origin (never to another: the code signs in whoever exchanges it), then closes; ' +
          'otherwise it says to return to the app. A native client reads code and state from this redirect itself.',
      },
      {
        url: '/csc/callback',
        notice: NO_SCRIPT,
        summary: 'Return address of a remote-signing (CSC) authorization',
        description:
          'Public. The page the CSC provider redirects to with ?code=&state= after the signer authorized a signature; it hands the code back to the signing ' +
          'page that started the authorization (same browser tab) and sends the browser back there. A client may also read code from this redirect itself.',
      },
    ];
    for (const { url, notice, summary, description } of authorizationReturns) {
      app.get(
        url,
        {
          schema: {
            tags: ['Web app'],
            summary,
            description,
            querystring: Type.Object(
              {
                code: Type.Optional(Type.String({ maxLength: 4096 })),
                state: Type.Optional(Type.String({ maxLength: 4096 })),
                error: Type.Optional(Type.String({ maxLength: 200 })),
              },
              { additionalProperties: true },
            ),
            produces: ['text/html'],
            response: {
              200: { description: "The web app's HTML shell", content: { 'text/html': { schema: Type.String() } } },
            },
          },
          config: { auth: 'public' },
        },
        async (_request, reply) => sendShell(reply, notice),
      );
    }
  };
}

/** The web app's HTML shell (its pages route in the browser), with the notice shown without JavaScript. */
function sendShell(reply: FastifyReply, notice: { title: string; text: string }) {
  const html = webShellWithNotice(notice);
  if (html === null) throw new AppError('NOT_FOUND', 'The web app has not been built (npm run build:web)');
  return reply.headers(WEB_PAGE_HEADERS).type('text/html; charset=utf-8').send(html);
}

async function sendFile(reply: FastifyReply, full: string, type: string, cacheControl: string) {
  const stat = await fs.promises.stat(full).catch(() => null);
  if (!stat?.isFile()) throw new AppError('NOT_FOUND', 'No such file');
  return reply
    .header('cache-control', cacheControl)
    .header('content-length', stat.size)
    .type(type)
    .send(fs.createReadStream(full));
}
