import { Type, type Static } from 'typebox';
import { ORGANIZATION_MODULES, type AccessRight, type OrganizationModule } from '../../http/authorize.ts';
import { IdParam, NumberedPage } from '../../http/schemas.ts';
import type { RoleRow } from './roles.repo.ts';

export const ROLE_STATUSES = ['ACTIVE', 'INACTIVE', 'DISABLED'] as const;
const QUOTA = { minimum: 0, maximum: 1_000_000_000 };

export const SignatureSettings = Type.Object(
  {
    allowSignElectronic: Type.Boolean({
      description: 'may sign electronically (SES) as a member of this organization',
    }),
    allowSignAdvanced: Type.Boolean({ description: 'may sign with an advanced signature (AES)' }),
    allowSignQualified: Type.Boolean({ description: 'may sign with a qualified signature (QES)' }),
    allowDocSend: Type.Boolean({ description: 'may send (commence) workflows' }),
    allowDocUseTemplates: Type.Boolean({ description: "may use the organization's templates" }),
    quotaElectronic: Type.Integer({
      ...QUOTA,
      description: 'electronic signatures the member may make until the quota is renewed',
    }),
    quotaAdvanced: Type.Integer({ ...QUOTA, description: 'advanced signatures until renewed' }),
    quotaQualified: Type.Integer({ ...QUOTA, description: 'qualified signatures until renewed' }),
  },
  { additionalProperties: false, description: 'Every member is required (400 BAD_REQUEST_BODY otherwise)' },
);
export type SignatureSettings = Static<typeof SignatureSettings>;

const OptionalRight = () => Type.Optional(Type.Boolean({ description: 'true when omitted' }));
const AccessRightsIn = Type.Object(
  { canView: OptionalRight(), canAdd: OptionalRight(), canEdit: OptionalRight(), canDelete: OptionalRight() },
  { additionalProperties: false },
);
const AccessRightsOut = Type.Object({
  canView: Type.Boolean(),
  canAdd: Type.Boolean(),
  canEdit: Type.Boolean(),
  canDelete: Type.Boolean(),
});
const ModuleName = Type.Union(
  ORGANIZATION_MODULES.map((m) => Type.Literal(m)),
  { description: 'an unknown module is 400 BAD_REQUEST_BODY' },
);

export const PermissionIn = Type.Object(
  { moduleName: ModuleName, accessRights: Type.Optional(AccessRightsIn) },
  { additionalProperties: false },
);
export const PermissionsIn = Type.Array(PermissionIn, {
  maxItems: ORGANIZATION_MODULES.length,
  description:
    'One entry per module (a module twice is 400 INVALID_REQUEST_BODY); a module left out is not granted; each right is true when omitted',
});
export type PermissionsIn = Static<typeof PermissionsIn>;
export const PermissionOut = Type.Object({ moduleName: Type.String(), accessRights: AccessRightsOut });
export type StoredPermission = { moduleName: OrganizationModule; accessRights: Record<AccessRight, boolean> };

const RoleName = Type.String({
  minLength: 1,
  maxLength: 50,
  description:
    '1-50 characters, stored trimmed (whitespace-only: 400 INVALID_REQUEST_BODY); unique in the organization ignoring case (409 ROLE_NAME_TAKEN)',
});
const Description = Type.String({ maxLength: 500, description: 'at most 500 characters, stored trimmed' });
const Status = Type.Union(
  ROLE_STATUSES.map((s) => Type.Literal(s)),
  { description: 'only an ACTIVE role grants its module rights and can be given to members' },
);

export const RoleBody = Type.Object(
  {
    name: RoleName,
    description: Type.Optional(Description),
    status: Type.Optional(Status),
    signatureSettings: SignatureSettings,
    permissions: Type.Optional(PermissionsIn),
  },
  { additionalProperties: false },
);
export type RoleBody = Static<typeof RoleBody>;

export const RoleIdParams = Type.Object({ id: IdParam });
export const RoleDeleteQuery = Type.Object({
  roleId: Type.Array(IdParam, { minItems: 1, maxItems: 100, description: 'repeated: ?roleId=1&roleId=2' }),
});

export const RolesQuery = Type.Object({
  page: Type.Integer({ minimum: 0, maximum: 1000000, default: 0, description: 'zero-based page number' }),
  size: Type.Integer({ minimum: 1, maximum: 1000, default: 20, description: 'page size' }),
  name: Type.Optional(Type.String({ maxLength: 50, description: 'case-insensitive substring of the name' })),
  description: Type.Optional(
    Type.String({ maxLength: 500, description: 'case-insensitive substring of the description' }),
  ),
  status: Type.Optional(Status),
  searchValue: Type.Optional(
    Type.String({ maxLength: 500, description: 'case-insensitive substring of the name or the description' }),
  ),
});
export type RolesQuery = Static<typeof RolesQuery>;

export const RoleResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  status: Type.String(),
  signatureSettings: SignatureSettings,
  permissions: Type.Array(PermissionOut, { description: 'the granted modules, each with its four rights spelled out' }),
  membersCount: Type.Integer({ description: 'members holding the role, invited ones included' }),
  createdAt: Type.String({ format: 'date-time' }),
});

export const RolePage = NumberedPage(RoleResponse);

export const AvailableRoles = Type.Array(Type.Object({ roleId: Type.Integer(), roleName: Type.String() }), {
  description: "the organization's ACTIVE roles, by name",
});

export function toRoleResponse(row: RoleRow & { membersCount: number }): Static<typeof RoleResponse> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    signatureSettings: row.signatureSettings as SignatureSettings,
    permissions: row.permissions as StoredPermission[],
    membersCount: row.membersCount,
    createdAt: row.createdAt.toISOString(),
  };
}
