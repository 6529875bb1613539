import { Type, type Static } from 'typebox';
import { IdParam, NumberedPage, Nullable } from '../../http/schemas.ts';
import { EMAIL_MAX, NAME_LIMITS, PASSWORD_LIMITS } from '../auth/auth.schemas.ts';
import { PERSON_NAME_PATTERN, PERSON_NAME_RULE } from '../users/person-names.ts';
import type { MemberRow } from './organizations.repo.ts';

const MemberName = Type.String({
  minLength: NAME_LIMITS.min,
  maxLength: NAME_LIMITS.max,
  pattern: PERSON_NAME_PATTERN,
  description: `3-20 characters: ${PERSON_NAME_RULE} (400 BAD_REQUEST_BODY otherwise)`,
});
const RoleRef = Type.Union([IdParam, Type.Null()], {
  description:
    'a role id of the organization (404 otherwise; 400 ROLE_NOT_ASSIGNABLE when the role is not ACTIVE); null: no role',
});
export const QUALIFIERS = ['ELECTRONIC', 'ADVANCED', 'QUALIFIED'] as const;
export const MEMBER_STATUSES = ['INVITED', 'ACTIVE', 'DECLINED'] as const;

export const InviteBody = Type.Object(
  {
    name: MemberName,
    emailAddress: Type.String({
      format: 'email',
      maxLength: EMAIL_MAX,
      description: 'at most 255 characters; compared and stored lower-cased',
    }),
    role: Type.Optional(RoleRef),
  },
  { additionalProperties: false },
);
export type InviteBody = Static<typeof InviteBody>;

export const MemberUpdateBody = Type.Object(
  {
    name: Type.Optional(MemberName),
    role: Type.Optional(RoleRef),
  },
  { additionalProperties: false },
);
export type MemberUpdateBody = Static<typeof MemberUpdateBody>;

export const MemberRoleBody = Type.Object({ userId: IdParam, roleId: RoleRef }, { additionalProperties: false });
export const RenewBody = Type.Object(
  {
    userId: IdParam,
    qualifiers: Type.Optional(
      Type.Array(Type.Union(QUALIFIERS.map((q) => Type.Literal(q))), {
        minItems: 1,
        maxItems: 3,
        description: 'which counts to reset; all three when omitted',
      }),
    ),
  },
  { additionalProperties: false },
);
export type RenewBody = Static<typeof RenewBody>;

export const InviteResponseBody = Type.Object(
  {
    orgNames: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
      minItems: 1,
      maxItems: 50,
      description:
        'names of organizations that invited the caller (each must match a pending invitation: 404 otherwise)',
    }),
    organizationIds: Type.Optional(
      Type.Array(IdParam, {
        minItems: 1,
        maxItems: 50,
        description:
          'Organization names are not unique: when several pending invitations bear one of orgNames, these ids (organizationId of ' +
          'GET /organization/v1/invitations) pick the ones meant (else 400 INVITATION_NAME_AMBIGUOUS). Each must be a pending invitation of the caller ' +
          'whose organization bears one of orgNames (404 otherwise).',
      }),
    ),
    inviteStatus: Type.Union([Type.Literal('ACCEPTED'), Type.Literal('DECLINED')]),
  },
  { additionalProperties: false },
);
export type InviteResponseBody = Static<typeof InviteResponseBody>;

export const OwnershipBody = Type.Object(
  {
    orgName: Type.String({
      minLength: 1,
      maxLength: 255,
      description: "the name of the caller's organization (404 otherwise)",
    }),
    userEmail: Type.String({
      format: 'email',
      maxLength: EMAIL_MAX,
      description: 'an ACTIVE registered member of it (404 otherwise)',
    }),
  },
  { additionalProperties: false },
);
export type OwnershipBody = Static<typeof OwnershipBody>;

export const MemberParams = Type.Object({ userId: IdParam });
export const RemoveQuery = Type.Object({
  ids: Type.Array(IdParam, { minItems: 1, maxItems: 100, description: 'user ids, repeated: ?ids=4&ids=5' }),
  isJoinedUser: Type.Boolean({
    default: true,
    description:
      'true: remove ACTIVE members; false: withdraw invitations (INVITED or DECLINED). An id of the other kind is 404.',
  }),
});
export const MembersQuery = Type.Object({
  page: Type.Integer({ minimum: 0, maximum: 1000000, default: 0, description: 'zero-based page number' }),
  size: Type.Integer({ minimum: 1, maximum: 1000, default: 20, description: 'page size' }),
  searchValue: Type.Optional(
    Type.String({ maxLength: 255, description: 'case-insensitive substring of the name or email' }),
  ),
  status: Type.Optional(Type.Union(MEMBER_STATUSES.map((s) => Type.Literal(s)))),
});
export type MembersQuery = Static<typeof MembersQuery>;

export const MemberResponse = Type.Object({
  userId: Type.Integer(),
  name: Type.String({ description: "the name the organization gave the member, else the account's" }),
  emailAddress: Type.String(),
  roleId: Nullable(Type.Integer()),
  roleName: Nullable(Type.String()),
  status: Type.String({ description: 'INVITED, ACTIVE or DECLINED' }),
  isOwner: Type.Boolean(),
  isJoinedUser: Type.Boolean({ description: 'true once the member accepted (status ACTIVE)' }),
  hasAccount: Type.Boolean({
    description:
      'true for a member who has joined (ACTIVE); an invitation (INVITED, DECLINED) says false whether or not the address holds an account: ' +
      'the organization learns that when the person joins, so inviting cannot probe which addresses are registered',
  }),
  usedElectronic: Type.Integer(),
  usedAdvanced: Type.Integer(),
  usedQualified: Type.Integer(),
  invitedAt: Nullable(Type.String({ format: 'date-time' })),
  joinedAt: Nullable(Type.String({ format: 'date-time' })),
});

export const MemberPage = NumberedPage(MemberResponse);

export const InvitationResponse = Type.Object({
  organizationId: Type.Integer(),
  orgName: Type.String(),
  status: Type.String({ description: 'INVITED, or ACTIVE / DECLINED after the answer' }),
  roleName: Nullable(Type.String()),
  invitedBy: Type.Union([Type.String(), Type.Null()]),
  invitedByEmail: Type.Union([Type.String(), Type.Null()], {
    description:
      "the inviter's (verified) address: names are not unique, this tells two organizations of one name apart",
  }),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const OwnershipResponse = Type.Object({
  organizationId: Type.Integer(),
  orgName: Type.String(),
  ownerUserId: Type.Integer(),
  ownerEmail: Type.String(),
});

export const InviteCodeParams = Type.Object({ code: Type.String({ maxLength: 100 }) });
export const InviteDetails = Type.Object({
  orgName: Type.String(),
  name: Type.String(),
  emailAddress: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
});
export const InviteSignupBody = Type.Object(
  {
    name: Type.Optional(MemberName),
    password: Type.String({
      minLength: PASSWORD_LIMITS.min,
      maxLength: PASSWORD_LIMITS.max,
      description: '8-128 characters',
    }),
  },
  { additionalProperties: false },
);
export type InviteSignupBody = Static<typeof InviteSignupBody>;
export const InviteSignupResponse = Type.Object({
  userId: Type.Integer(),
  organizationId: Type.Integer({ description: 'the inviting organization, which the account acts in' }),
});

export function toMemberResponse(row: MemberRow): Static<typeof MemberResponse> {
  const m = row.membership;
  return {
    userId: m.userId,
    name: m.name ?? row.accountName,
    emailAddress: row.email,
    roleId: m.roleId,
    roleName: row.roleName,
    status: m.status,
    isOwner: m.isOwner,
    isJoinedUser: m.status === 'ACTIVE',
    hasAccount: m.status === 'ACTIVE' && !row.isGuest,
    usedElectronic: m.usedElectronic,
    usedAdvanced: m.usedAdvanced,
    usedQualified: m.usedQualified,
    invitedAt: m.invitedAt?.toISOString() ?? null,
    joinedAt: m.joinedAt?.toISOString() ?? null,
  };
}
