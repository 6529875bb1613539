import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import type { TokenSigner } from '../platform/auth/jwt.ts';
import { assertAccountStanding, assertLinkStanding, type MembershipCache } from '../modules/auth/membership-cache.ts';
import { assertAuthorized, assertValidPolicy, toModuleGrants, type AuthPolicy, type Membership } from './authorize.ts';

/**
 * Who is calling. A CLIENT token (partner backend) acts as the user it was issued for, so it is a `user`
 * caller carrying its appId, and the membership (owner, role grants) of the token's organization. A GUEST token
 * reaches one workflow as one recipient row.
 */
export type UserCaller = {
  kind: 'user';
  userId: number;
  organizationId: number;
  membership: Membership;
  appId?: number;
  sessionId?: string;
};
export type GuestCaller = {
  kind: 'guest';
  userId: number;
  recipientId: number;
  workflowId: number;
  sessionId?: string;
};
export type Caller = UserCaller | GuestCaller;

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    auth?: AuthPolicy;
  }
}

/**
 * A registered route, its policy, whether it is a GET that writes (config.writes, see session-cookie.ts) and its
 * request schemas (the route-auth test builds valid requests from them).
 */
export type RouteAuth = {
  method: string;
  url: string;
  auth: AuthPolicy;
  writes: boolean;
  schema: { body?: unknown; querystring?: unknown };
};

/** Installs the caller resolution; returns the live list of routes with their policy (for the route-auth test). */
export function registerAuthentication(
  app: FastifyInstance,
  tokens: TokenSigner,
  memberships: MembershipCache,
  options: { adminToken?: string } = {},
): RouteAuth[] {
  const routes: RouteAuth[] = [];
  app.decorateRequest('caller', null);

  // Refuse to start with a route that does not say who may call it.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) return;
    const auth = (route.config as { auth?: unknown } | undefined)?.auth;
    if (!auth) throw new Error(`Route ${route.method} ${route.url} has no config.auth`);
    assertValidPolicy(auth, `${route.method} ${route.url}`);
    const writes = (route.config as { writes?: unknown }).writes;
    if (writes !== undefined && writes !== true)
      throw new Error(`Route ${route.method} ${route.url} has an invalid config.writes: ${JSON.stringify(writes)}`);
    for (const method of [route.method].flat()) {
      routes.push({
        method,
        url: route.url,
        auth,
        writes: writes === true,
        schema: { body: route.schema?.body, querystring: route.schema?.querystring },
      });
    }
  });

  // onRequest runs before body parsing and validation, so an anonymous caller gets 401 rather than 400.
  app.addHook('onRequest', async (request) => {
    const policy = request.routeOptions.config?.auth;
    if (!policy || policy === 'public') return;
    if (policy === 'operator') {
      if (!isAdminToken(request.headers.authorization, options.adminToken))
        throw new AppError('UNAUTHORIZED', "The operator's API needs Authorization: Bearer $ADMIN_TOKEN");
      return;
    }
    const identity = await resolveCaller(request, tokens);
    if (!identity) throw new AppError('UNAUTHORIZED', 'A valid bearer token is required');
    if (identity.kind === 'guest') {
      // The operator's switches (docs/security.md): no statement when this process already knows the link's standing.
      const standing = await memberships.linkStanding(identity);
      if (standing) assertLinkStanding(standing);
    }
    const caller =
      identity.kind === 'user' ? { ...identity, membership: await membershipOf(memberships, identity) } : identity;
    assertAuthorized(policy, caller);
    request.caller = caller;
  });
  return routes;
}

/**
 * An access token outlives nothing it was issued on: a removed account, a membership that ended or a disabled
 * business app ends it at once, not when it expires (guest tokens are re-checked at refresh). The same query
 * brings the ownership and role grants, so authorization costs no further round trip; the process keeps what it
 * found until the database announces a change (membership-cache.ts).
 */
async function membershipOf(memberships: MembershipCache, identity: TokenUser): Promise<Membership> {
  const row = await memberships.find(identity);
  if (!row)
    throw new AppError(
      'UNAUTHORIZED',
      'The account, its membership or the business app behind this token no longer exists or is disabled',
    );
  // Disabled by the operator: the same row says so (403 ACCOUNT_DISABLED / ORGANIZATION_DISABLED).
  assertAccountStanding(row);
  return { isOwner: row.isOwner, roleId: row.roleId, grants: toModuleGrants(row.rolePermissions) };
}

/**
 * Whether the header carries the operator's ADMIN_TOKEN, compared in constant time (over SHA-256 digests, so the
 * comparison takes as long whatever the length sent). No ADMIN_TOKEN configured: nothing matches.
 */
function isAdminToken(header: string | undefined, adminToken: string | undefined): boolean {
  if (!adminToken || !header) return false;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) return false;
  const digest = (value: string) => crypto.createHash('sha256').update(value, 'utf8').digest();
  return crypto.timingSafeEqual(digest(match[1]), digest(adminToken));
}

/** What a verified token says about its user, before the membership is looked up. */
type TokenUser = Omit<UserCaller, 'membership'>;

async function resolveCaller(request: FastifyRequest, tokens: TokenSigner): Promise<TokenUser | GuestCaller | null> {
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
  return {
    kind: 'user',
    userId,
    organizationId,
    ...(claims.type === 'CLIENT' ? { appId: claims.appId } : {}),
    sessionId,
  };
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
