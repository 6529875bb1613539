import { AppError } from '../errors.ts';

/** SPEC.md "Role": the organization modules a role grants rights on. */
export const ORGANIZATION_MODULES = [
  'BILLING_DETAILS',
  'BRANDING',
  'BUSINESS_APPS',
  'TEMPLATES',
  'ROLES',
  'ORGANIZATIONS',
  'USERS',
] as const;
export type OrganizationModule = (typeof ORGANIZATION_MODULES)[number];

/** SPEC.md "Role": the access rights of one module grant. */
export const ACCESS_RIGHTS = ['canView', 'canAdd', 'canEdit', 'canDelete'] as const;
export type AccessRight = (typeof ACCESS_RIGHTS)[number];

/**
 * Every route declares who may call it:
 * - `public`: anyone, no token needed;
 * - `user`: a registered user's or a business app's token;
 * - `person`: a registered user's own token, never a business app's (the person's invitations and sign-in methods);
 * - `participant`: a user, or a guest token of a signing link (the service then checks the workflow);
 * - `{ owner: true }`: a user who owns the token's organization (SPEC.md "Permission rules", owner only);
 * - `{ module, right }`: a user whose role grants `right` on `module` in the token's organization; the owner
 *   holds every right;
 * - `operator`: the operator of the installation, with `Authorization: Bearer $ADMIN_TOKEN` (the API under
 *   /admin/v1/); no user token is accepted there, and without ADMIN_TOKEN every such route answers 401.
 * A business app's token (CLIENT_CREDENTIALS, acting as a user) does that user's envelope work but never the
 * organization's administration (RUNTIME "Who may do what"): see isAdministration.
 * A record of another organization is the service's concern: it answers 404, never 403, so outsiders cannot
 * tell that it exists.
 */
export type AuthPolicy =
  | 'public'
  | 'user'
  | 'person'
  | 'participant'
  | 'operator'
  | { owner: true }
  | { module: OrganizationModule; right: AccessRight };

/** The caller's standing in the token's organization, loaded with the account check on every user request. */
export type Membership = { isOwner: boolean; roleId: number | null; grants: ModuleGrants };
export type ModuleGrants = Partial<Record<OrganizationModule, Record<AccessRight, boolean>>>;

/** Refuses at start-up a route whose policy is not one of the forms above (a typo would otherwise lock it or open it). */
export function assertValidPolicy(policy: unknown, route: string): asserts policy is AuthPolicy {
  if (
    policy === 'public' ||
    policy === 'user' ||
    policy === 'person' ||
    policy === 'participant' ||
    policy === 'operator'
  )
    return;
  if (typeof policy === 'object' && policy !== null) {
    const keys = Object.keys(policy).sort().join(',');
    if (keys === 'owner' && (policy as { owner: unknown }).owner === true) return;
    const { module, right } = policy as { module?: unknown; right?: unknown };
    if (
      keys === 'module,right' &&
      ORGANIZATION_MODULES.includes(module as OrganizationModule) &&
      ACCESS_RIGHTS.includes(right as AccessRight)
    )
      return;
  }
  throw new Error(`Route ${route} has an invalid config.auth: ${JSON.stringify(policy)}`);
}

/** Modules whose every right, reading included, is the organization's administration. */
const ADMINISTRATION_MODULES: readonly OrganizationModule[] = [
  'BILLING_DETAILS',
  'BUSINESS_APPS',
  'ROLES',
  'ORGANIZATIONS',
  'USERS',
];

/**
 * Whether a policy guards the organization's administration, which a business app never does: `person` routes,
 * every owner-only route (members, ownership, branding changes, business apps, webhooks, email settings,
 * template-folder access), the administration modules, and BRANDING beyond reading. TEMPLATES is envelope work.
 */
export function isAdministration(policy: Exclude<AuthPolicy, 'public' | 'operator'>): boolean {
  if (policy === 'person') return true;
  if (typeof policy !== 'object') return false;
  if ('owner' in policy) return true;
  if (policy.module === 'BRANDING') return policy.right !== 'canView';
  return ADMINISTRATION_MODULES.includes(policy.module);
}

/** The one place that decides whether an authenticated caller may use a route: 403 USER_NOT_HAVE_ACCESS when not. */
export function assertAuthorized(
  policy: Exclude<AuthPolicy, 'public' | 'operator'>,
  caller: { kind: 'user'; membership: Membership; appId?: number } | { kind: 'guest' },
): void {
  if (policy === 'participant') return;
  if (caller.kind !== 'user') throw new AppError('USER_NOT_HAVE_ACCESS', 'This endpoint needs a signed-in user');
  // Before the owner's pass: a partner backend acting as the owner administers nothing.
  if (caller.appId !== undefined && isAdministration(policy)) {
    throw new AppError(
      'USER_NOT_HAVE_ACCESS',
      'A business app token cannot administer the organization; its people do that with their own sign-in',
    );
  }
  if (policy === 'user' || policy === 'person') return;
  const { membership } = caller;
  if (membership.isOwner) return;
  if ('owner' in policy) throw new AppError('USER_NOT_HAVE_ACCESS', 'Only the organization owner may do this');
  if (membership.grants[policy.module]?.[policy.right] !== true) {
    throw new AppError('USER_NOT_HAVE_ACCESS', `Your role does not grant ${policy.right} on ${policy.module}`);
  }
}

/**
 * A role's `permissions` jsonb (SPEC.md: `[{moduleName, accessRights: {canView, canAdd, canEdit, canDelete}}]`,
 * each right true when omitted) as a lookup table. A module the list does not name is not granted; an entry
 * that is not of that shape grants nothing rather than failing every request of the role's members.
 */
export function toModuleGrants(permissions: unknown): ModuleGrants {
  const grants: ModuleGrants = {};
  if (!Array.isArray(permissions)) return grants;
  for (const entry of permissions) {
    const moduleName = (entry as { moduleName?: unknown } | null)?.moduleName;
    if (!ORGANIZATION_MODULES.includes(moduleName as OrganizationModule)) continue;
    const rights = (entry as { accessRights?: unknown }).accessRights;
    const given = typeof rights === 'object' && rights !== null ? (rights as Record<string, unknown>) : {};
    grants[moduleName as OrganizationModule] = Object.fromEntries(
      ACCESS_RIGHTS.map((right) => [right, given[right] !== false]),
    ) as Record<AccessRight, boolean>;
  }
  return grants;
}
