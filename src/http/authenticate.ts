import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import type { TokenSigner } from '../platform/auth/jwt.ts';
import type { Db } from '../platform/db/client.ts';
import { isAccountActive } from '../modules/auth/auth.repo.ts';

/**
 * Who is calling. A CLIENT token (partner backend) acts as the user it was issued for, so it is a `user`
 * caller carrying its appId. A GUEST token reaches one workflow as one recipient row.
 */
export type UserCaller = { kind: 'user'; userId: number; organizationId: number; appId?: number; sessionId?: string };
export type GuestCaller = { kind: 'guest'; userId: number; recipientId: number; workflowId: number; sessionId?: string };
export type Caller = UserCaller | GuestCaller;

/**
 * Every route declares who may call it: `public` (anyone), `user` (a registered user's or partner's
 * token), `participant` (a user, or a guest token of a signing link).
 */
export type AuthPolicy = 'public' | 'user' | 'participant';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    auth?: AuthPolicy;
  }
}

export type RouteAuth = { method: string; url: string; auth: AuthPolicy };

/** Installs the caller resolution; returns the live list of routes with their policy (for the route-auth test). */
export function registerAuthentication(app: FastifyInstance, tokens: TokenSigner, db: Db): RouteAuth[] {
  const routes: RouteAuth[] = [];
  app.decorateRequest('caller', null);

  // Refuse to start with a route that does not say who may call it.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) return;
    const auth = (route.config as { auth?: AuthPolicy } | undefined)?.auth;
    if (!auth) throw new Error(`Route ${route.method} ${route.url} has no config.auth`);
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, auth });
  });

  // onRequest runs before body parsing and validation, so an anonymous caller gets 401 rather than 400.
  app.addHook('onRequest', async (request) => {
    const policy = request.routeOptions.config?.auth;
    if (!policy || policy === 'public') return;
    const caller = await resolveCaller(request, tokens);
    if (!caller) throw new AppError('UNAUTHORIZED', 'A valid bearer token is required');
    // An access token outlives nothing it was issued on: a removed account, a membership that ended or a
    // disabled business app ends it at once, not when it expires (guest tokens are re-checked at refresh).
    if (caller.kind === 'user' && !(await isAccountActive(db, caller))) {
      throw new AppError('UNAUTHORIZED', 'The account, its membership or the business app behind this token no longer exists or is disabled');
    }
    if (policy === 'user' && caller.kind !== 'user') throw new AppError('USER_NOT_HAVE_ACCESS', 'This endpoint needs a signed-in user');
    request.caller = caller;
  });
  return routes;
}

async function resolveCaller(request: FastifyRequest, tokens: TokenSigner): Promise<Caller | null> {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) return null;
  const claims = await tokens.verify(match[1]);
  if (!claims) return null;
  const userId = Number(claims.sub);
  if (!Number.isInteger(userId)) return null;
  // A token minted outside a session (none are, but tests may) is its own session: what it verifies dies with it.
  const sessionId = claims.sid ?? `token:${(claims as { jti?: string }).jti}`;
  if (claims.type === 'GUEST') {
    if (!Number.isInteger(claims.recipientId) || !Number.isInteger(claims.workflowId)) return null;
    return { kind: 'guest', userId, recipientId: claims.recipientId!, workflowId: claims.workflowId!, sessionId };
  }
  const organizationId = Number((claims as { organizationId?: number }).organizationId);
  if (!Number.isInteger(organizationId)) return null;
  return { kind: 'user', userId, organizationId, ...(claims.type === 'CLIENT' ? { appId: claims.appId } : {}), sessionId };
}

/** The caller of a route declared `user` or `participant`; the hook has already rejected anonymous calls. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new AppError('UNAUTHORIZED');
  return request.caller;
}

export function userOf(request: FastifyRequest): UserCaller {
  const caller = callerOf(request);
  if (caller.kind !== 'user') throw new AppError('USER_NOT_HAVE_ACCESS', 'This endpoint needs a signed-in user');
  return caller;
}
