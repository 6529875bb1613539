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
import { contentDisposition } from '../downloads/downloads.schemas.ts';
import { safeBaseName } from '../downloads/downloads.service.ts';
import {
  AdminOrganization,
  AdminUser,
  AwaitingSealPage,
  BackupSnapshot,
  DisableBody,
  ExportFile,
  QueuesResponse,
  toQueueStat,
  UserParams,
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
  'POST /admin/v1/users/:userId/disable': 'disable-user',
  'POST /admin/v1/users/:userId/enable': 'enable-user',
  'POST /admin/v1/organizations/:orgId/disable': 'disable-organization',
  'POST /admin/v1/organizations/:orgId/enable': 'enable-organization',
  'GET /admin/v1/queues': 'show-queues',
  'GET /admin/v1/organizations/:orgId/export': 'export-organization',
  'POST /admin/v1/backup/snapshot': 'backup-snapshot',
};

const USER_SWITCH =
  'Nothing of the account is deleted or changed but the switch, recorded on the row (disabledAt, disabledBy, disabledReason; ' +
  'disabling again keeps the first record). While disabled: every sign-in (password, two-factor, SSO/OIDC, social ID token, passkey, ' +
  'smart card, a business app acting as the user) and refresh answers 403 ACCOUNT_DISABLED after the credentials were checked; its access tokens and web ' +
  'sessions answer 403 ACCOUNT_DISABLED on every call; the signing links of the envelopes it sent, and its own links, answer 403 ACCOUNT_DISABLED. ' +
  'Sessions are not revoked: enabling restores every one still within its lifetime. 404: no such user.';
const ORGANIZATION_SWITCH =
  'Nothing of the organization is deleted or changed but the switch, recorded on the row (disabledAt, disabledBy, disabledReason; disabling again keeps the first record). ' +
  "While disabled: its members cannot act in it (tokens and web sessions for it answer 403 ORGANIZATION_DISABLED; sign-in into it too), its business apps' tokens " +
  'and client-credentials sign-in answer 403 ORGANIZATION_DISABLED, and so do the signing links of its envelopes. Members act in their other organizations as before. ' +
  'Enabling restores everything. 404: no such organization.';

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

    for (const enabled of [false, true]) {
      const verb = enabled ? 'enable' : 'disable';
      app.post(
        `/admin/v1/users/:userId/${verb}`,
        {
          schema: {
            tags,
            summary: enabled ? 'Enable a user again' : 'Disable a user',
            description: `${AUTH}${enabled ? 'Clears the switch; ' : ''}${USER_SWITCH}`,
            params: UserParams,
            ...(enabled ? {} : { body: DisableBody }),
            response: { 200: AdminUser, ...failures },
          },
          config,
        },
        async (request) =>
          toAdminUser(
            await admin.setUserEnabled(request.params.userId, enabled, (request.body ?? undefined) as DisableBody),
          ),
      );
      app.post(
        `/admin/v1/organizations/:orgId/${verb}`,
        {
          schema: {
            tags,
            summary: enabled ? 'Enable an organization again' : 'Disable an organization',
            description: `${AUTH}${enabled ? 'Clears the switch; ' : ''}${ORGANIZATION_SWITCH}`,
            params: OrganizationParams,
            ...(enabled ? {} : { body: DisableBody }),
            response: { 200: AdminOrganization, ...failures },
          },
          config,
        },
        async (request) =>
          toAdminOrganization(
            await admin.setOrganizationEnabled(
              request.params.orgId,
              enabled,
              (request.body ?? undefined) as DisableBody,
            ),
          ),
      );
    }

    app.get(
      '/admin/v1/queues',
      {
        schema: {
          tags,
          summary: 'The job queues',
          description:
            `${AUTH}Every queue of src/job-registry.ts, by name, counted now: waiting (created, retry; of those deferred), active, failed, ` +
            "every job kept, and the oldest waiting job's creation time and age. From pg-boss's getQueueStats, and one count by state for what it does not split.",
          response: { 200: QueuesResponse, ...failures },
        },
        config,
      },
      async () => {
        const now = new Date();
        const queues = await admin.queues();
        return { queues: queues.map((q) => toQueueStat(q, now)), countedAt: now.toISOString() };
      },
    );

    app.get(
      '/admin/v1/organizations/:orgId/export',
      {
        schema: {
          tags,
          summary: "Export an organization's envelopes with their evidence",
          description:
            `${AUTH}A zip, streamed as it is written (stored entries, no size known in advance): for each envelope not deleted, ` +
            'envelopes/<id>-<name>/documents/<documentId>-<name>.pdf (the sealed file once sealed, else the current one), audit-trail.json ' +
            '(the history as GET /workflow/v1/{id}/history answers its owner) and, once COMPLETED or APPROVED, certificate-of-completion.pdf and ' +
            'evidence-report.html; then manifest.json: every envelope, its files with their size and SHA-256, and what could not be included ' +
            '(a seal still pending or failed). Disabled organizations and accounts are exported as any other. 404: no such organization.',
          params: OrganizationParams,
          produces: ['application/zip'],
          response: { 200: ExportFile, ...failures },
        },
        config,
      },
      async (request, reply) => {
        const day = new Date().toISOString().slice(0, 10);
        // HEAD: the organization is looked up, nothing is exported (Fastify would read the whole zip to discard it).
        const { name, stream } =
          request.method === 'HEAD'
            ? { name: (await admin.organization(request.params.orgId)).name, stream: undefined }
            : await admin.exportFor(request.params.orgId);
        return reply
          .type('application/zip')
          .header(
            'content-disposition',
            contentDisposition(`organization-${request.params.orgId}-${safeBaseName(name, 'export')}-${day}.zip`),
          )
          .header('cache-control', 'no-store')
          .header('x-content-type-options', 'nosniff')
          .send(stream);
      },
    );

    app.post(
      '/admin/v1/backup/snapshot',
      {
        schema: {
          tags,
          summary: 'Take the database snapshot of a backup',
          description:
            `${AUTH}The part of a backup only the running service can take, for \`npm run admin -- backup <dir>\` on the service's host ` +
            "to claim: written under the service's DATA_DIR/backups/<name>/ (directory 0700, files 0600), never sent in the answer, which only " +
            'describes it. The embedded database: a dump of its data directory taken inside a transaction of its one session after a CHECKPOINT, ' +
            'so every commit before that point is in it and none half; requests wait for the dump (milliseconds says how long). PostgreSQL: ' +
            "nothing of the database (the command line runs pg_dump). A bucket: the list of its objects, taken after the database's snapshot. " +
            `One snapshot at a time; a snapshot not claimed within an hour is removed by the next; at most 3 wait: 429 BACKUP_SNAPSHOTS_WAITING with Retry-After. ` +
            'docs/operations.md "Backups".',
          response: { 200: BackupSnapshot, 401: Type.Ref('ErrorResponse'), 429: Type.Ref('ErrorResponse') },
        },
        config,
      },
      async () => admin.snapshot(),
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
    ...pick(request.body, 'pkgId', 'by', 'reason'),
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
