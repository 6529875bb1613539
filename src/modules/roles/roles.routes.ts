import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { userOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { RoleService } from './roles.service.ts';
import {
  AvailableRoles,
  PermissionsIn,
  RoleBody,
  RoleDeleteQuery,
  RoleIdParams,
  RolePage,
  RoleResponse,
  RolesQuery,
  toRoleResponse,
} from './roles.schemas.ts';

const SCOPE = "Roles of the caller's organization only: another organization's role id is 404.";
const RIGHTS =
  'The owner, or a member whose role grants this right on the ROLES module (else 403 USER_NOT_HAVE_ACCESS). Business-app tokens: 403.';
const WITHIN =
  'A member who is not the owner cannot change or delete the role they hold, and acts only on roles that grant no module right, signature ' +
  'permission or quota beyond their own role, before and after the change (else 403 USER_NOT_HAVE_ACCESS, responseBody.beyondOwnRole naming what is beyond it).';

export function roleRoutes(roles: RoleService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Organization: roles'];
    const conflict = { 409: Type.Ref('ErrorResponse') };

    app.get(
      '/user/v1/roles',
      {
        schema: {
          tags,
          summary: 'Roles, one page',
          description: `By name. Filters combine: name, description (substrings, ignoring case), status, searchValue (name or description). ${RIGHTS}`,
          querystring: RolesQuery,
          response: { 200: RolePage, ...errorResponses },
        },
        config: { auth: { module: 'ROLES', right: 'canView' } },
      },
      async (request) => roles.list(userOf(request), request.query),
    );

    app.get(
      '/user/v1/roles/available',
      {
        schema: {
          tags,
          summary: 'Roles a member can be given',
          description:
            "The ACTIVE roles of the caller's organization as {roleId, roleName}, by name. Any member of the organization may read it (names only); a business app's token may not (403).",
          response: { 200: AvailableRoles, ...errorResponses },
        },
        config: { auth: 'person' },
      },
      async (request) => roles.available(userOf(request)),
    );

    app.get(
      '/user/v1/roles/:id',
      {
        schema: {
          tags,
          summary: 'One role',
          description: `${SCOPE} ${RIGHTS}`,
          params: RoleIdParams,
          response: { 200: RoleResponse, ...errorResponses },
        },
        config: { auth: { module: 'ROLES', right: 'canView' } },
      },
      async (request) => toRoleResponse(await roles.get(userOf(request), request.params.id)),
    );

    app.post(
      '/user/v1/roles',
      {
        schema: {
          tags,
          summary: 'Create a role',
          description: `Answers 200 with the role. status defaults to ACTIVE, permissions to none. A name another role of the organization has (ignoring case) is 409 ROLE_NAME_TAKEN. ${RIGHTS} ${WITHIN}`,
          body: RoleBody,
          response: { 200: RoleResponse, ...errorResponses, ...conflict },
        },
        config: { auth: { module: 'ROLES', right: 'canAdd' } },
      },
      async (request) => toRoleResponse(await roles.create(userOf(request), request.body)),
    );

    app.put(
      '/user/v1/roles/:id',
      {
        schema: {
          tags,
          summary: 'Update a role',
          description: `${SCOPE} name and signatureSettings are replaced; description, status and permissions are replaced when given and kept when omitted. Members feel the change on their next request. ${RIGHTS} ${WITHIN}`,
          params: RoleIdParams,
          body: RoleBody,
          response: { 200: RoleResponse, ...errorResponses, ...conflict },
        },
        config: { auth: { module: 'ROLES', right: 'canEdit' } },
      },
      async (request) => toRoleResponse(await roles.update(userOf(request), request.params.id, request.body)),
    );

    app.put(
      '/user/v1/roles/:id/permissions',
      {
        schema: {
          tags,
          summary: "Replace a role's permissions",
          description: `${SCOPE} The body is the whole new list [{moduleName, accessRights}]; [] grants nothing. ${RIGHTS} ${WITHIN}`,
          params: RoleIdParams,
          body: PermissionsIn,
          response: { 200: RoleResponse, ...errorResponses },
        },
        config: { auth: { module: 'ROLES', right: 'canEdit' } },
      },
      async (request) =>
        toRoleResponse(await roles.replacePermissions(userOf(request), request.params.id, request.body)),
    );

    app.delete(
      '/user/v1/roles',
      {
        schema: {
          tags,
          summary: 'Delete roles',
          description: `Query roleId repeated. All or nothing: an id that is not a role of the organization is 404; a role some member holds (invited members included) is 409 ROLE_IN_USE with responseBody {roleId, membersCount, roles}; give those members another role first. Answers 204. ${RIGHTS} ${WITHIN}`,
          querystring: RoleDeleteQuery,
          response: { 204: Type.Null(), ...errorResponses, ...conflict },
        },
        config: { auth: { module: 'ROLES', right: 'canDelete' } },
      },
      async (request, reply) => {
        await roles.remove(userOf(request), request.query.roleId);
        return reply.status(204).send(null);
      },
    );
  };
}
