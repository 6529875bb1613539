import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Logger } from '../../platform/logger.ts';
import {
  OrganizationBilling,
  PackagesPage,
  toOrganizationBilling,
  toPackageResponse,
} from '../billing/billing.schemas.ts';
import type { AdminService } from './admin.service.ts';
import {
  AdminOrganization,
  AwaitingSealPage,
  AwaitingSealQuery,
  GrantBody,
  OrganizationParams,
  OrganizationsPage,
  OrganizationsQuery,
  PackagesQuery,
  ResealResponse,
  toAdminOrganization,
  toAdminUser,
  toAwaitingSeal,
  UsersPage,
  UsersQuery,
  WorkflowParams,
} from './admin.schemas.ts';

const AUTH =
  "The operator's API: Authorization: Bearer $ADMIN_TOKEN (any other token, a user's included, or none: 401; without ADMIN_TOKEN set the API is off and answers 401). ";
const CYCLE =
  "A new cycle starts now: credits become the package's credits, the expiry now + its duration; recorded in package_changes with no user. " +
  'A service plan switched off stays off. 404: no such organization or package; 400 PACKAGE_NOT_AVAILABLE: a package that is not ACTIVE.';

/** Each route's operator action, for the one log line every call writes (also when refused). */
const ACTIONS: Record<string, string> = {
  'PUT /admin/v1/organizations/:orgId/package': 'grant-package',
  'PUT /admin/v1/organizations/:orgId/package/renew': 'renew-package',
  'GET /admin/v1/organizations': 'find-organizations',
  'GET /admin/v1/organizations/:orgId': 'show-organization',
  'GET /admin/v1/users': 'find-users',
  'GET /admin/v1/packages': 'list-packages',
  'GET /admin/v1/workflows/awaiting-seal': 'list-awaiting-seal',
  'POST /admin/v1/workflows/:workflowId/reseal': 'reseal',
};

export function adminRoutes(
  admin: AdminService,
  options: { selfService: boolean; logger: Pick<Logger, 'info' | 'warn'> },
): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Operator'];
    const config = { auth: 'operator' as const };
    const failures = { 400: Type.Ref('ErrorResponse'), 401: Type.Ref('ErrorResponse'), 404: Type.Ref('ErrorResponse') };

    // An operator's action changes any organization: each call, answered or refused, is one line of the service's log.
    app.addHook('onResponse', async (request, reply) => logOperatorCall(options.logger, request, reply));

    app.put(
      '/admin/v1/organizations/:orgId/package',
      {
        schema: {
          tags,
          summary: 'Put an organization on a package',
          description: `${AUTH}${CYCLE}`,
          params: OrganizationParams,
          body: GrantBody,
          response: { 200: OrganizationBilling, ...failures },
        },
        config,
      },
      async (request) =>
        toOrganizationBilling(await admin.grantPackage(request.params.orgId, request.body.pkgId), options.selfService),
    );

    app.put(
      '/admin/v1/organizations/:orgId/package/renew',
      {
        schema: {
          tags,
          summary: "Renew an organization's package for another cycle",
          description: `${AUTH}${CYCLE}`,
          params: OrganizationParams,
          response: { 200: OrganizationBilling, ...failures },
        },
        config,
      },
      async (request) => toOrganizationBilling(await admin.renewPackage(request.params.orgId), options.selfService),
    );

    app.get(
      '/admin/v1/organizations',
      {
        schema: {
          tags,
          summary: 'Find organizations',
          description: `${AUTH}By id, oldest first.`,
          querystring: OrganizationsQuery,
          response: { 200: OrganizationsPage, ...failures },
        },
        config,
      },
      async (request) => {
        const { rows, total } = await admin.listOrganizations(request.query);
        return { content: rows.map((row) => toAdminOrganization(row)), totalElements: total };
      },
    );

    app.get(
      '/admin/v1/organizations/:orgId',
      {
        schema: {
          tags,
          summary: 'One organization',
          description: AUTH,
          params: OrganizationParams,
          response: { 200: AdminOrganization, ...failures },
        },
        config,
      },
      async (request) => toAdminOrganization(await admin.organization(request.params.orgId)),
    );

    app.get(
      '/admin/v1/users',
      {
        schema: {
          tags,
          summary: 'Find users',
          description: `${AUTH}Registered users and guest addresses, by id, with their organizations.`,
          querystring: UsersQuery,
          response: { 200: UsersPage, ...failures },
        },
        config,
      },
      async (request) => {
        const { rows, total } = await admin.listUsers(request.query);
        return { content: rows.map(toAdminUser), totalElements: total };
      },
    );

    app.get(
      '/admin/v1/packages',
      {
        schema: {
          tags,
          summary: 'Every package',
          description: `${AUTH}Preset and custom, any status, by id: the ids a grant takes.`,
          querystring: PackagesQuery,
          response: { 200: PackagesPage, ...failures },
        },
        config,
      },
      async (request) => {
        const { rows, total } = await admin.listPackages(request.query);
        return { content: rows.map(toPackageResponse), totalElements: total };
      },
    );

    app.get(
      '/admin/v1/workflows/awaiting-seal',
      {
        schema: {
          tags,
          summary: 'Finished workflows waiting for their seal',
          description: `${AUTH}COMPLETED or APPROVED workflows whose seal is PENDING or FAILED, the longest waiting first.`,
          querystring: AwaitingSealQuery,
          response: { 200: AwaitingSealPage, ...failures },
        },
        config,
      },
      async (request) => {
        const { rows, total } = await admin.awaitingSeal(request.query);
        return { content: rows.map(toAwaitingSeal), totalElements: total };
      },
    );

    app.post(
      '/admin/v1/workflows/:workflowId/reseal',
      {
        schema: {
          tags,
          summary: 'Seal a workflow again',
          description:
            `${AUTH}A FAILED seal goes back to PENDING (a SEAL_REQUESTED audit row) and a seal job with all its retries is queued; a PENDING seal ` +
            'without a live job gets one. Sealed, it mails the completion as a first seal does. 202 once queued; 404: no such workflow; ' +
            '400 INVALID_WORKFLOW_STATUS: not finished, or its seal is NONE or SEALED.',
          params: WorkflowParams,
          response: { 202: ResealResponse, ...failures },
        },
        config,
      },
      async (request, reply) => {
        const result = await admin.reseal(request.params.workflowId);
        return reply.code(202).send(result);
      },
    );
  };
}

function logOperatorCall(logger: Pick<Logger, 'info' | 'warn'>, request: FastifyRequest, reply: FastifyReply): void {
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const action = ACTIONS[`${method} ${request.routeOptions.url}`] ?? 'unknown';
  const target = {
    ...(request.params as object | undefined),
    ...pick(request.body, 'pkgId'),
    ...pick(request.query, 'search', 'sealStatus', 'page', 'size'),
  };
  const line = { reqId: request.id, operator: { action, statusCode: reply.statusCode, ...target } };
  if (reply.statusCode === 401) logger.warn(line, `operator API: ${action} refused (no valid admin token)`);
  else logger.info(line, `operator API: ${action} → ${reply.statusCode}`);
}

function pick(value: unknown, ...keys: string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(
    keys
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => [key, (value as Record<string, unknown>)[key]]),
  );
}
