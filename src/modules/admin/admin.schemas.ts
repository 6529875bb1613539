import { Type, type Static } from 'typebox';
import { IdParam, Nullable, Page } from '../../http/schemas.ts';
import type { AwaitingSealRow, OrganizationRow, UserRow } from './admin.repo.ts';

/** Zero-based pages, as every list of the API; `search` a substring (ignoring case) or an exact id. */
const page = {
  page: Type.Integer({ minimum: 0, maximum: 1000000, default: 0, description: 'zero-based page number' }),
  size: Type.Integer({ minimum: 1, maximum: 1000, default: 20, description: 'page size' }),
};
const search = (what: string) =>
  Type.Optional(Type.String({ maxLength: 255, description: `case-insensitive substring of ${what}, or an exact id` }));

export const OrganizationsQuery = Type.Object({
  ...page,
  search: search("the organization's name or its owner's name or email"),
});
export type OrganizationsQuery = Static<typeof OrganizationsQuery>;
export const UsersQuery = Type.Object({ ...page, search: search('the name or email') });
export type UsersQuery = Static<typeof UsersQuery>;
export const PackagesQuery = Type.Object({ ...page, search: search('the name or description') });
export type PackagesQuery = Static<typeof PackagesQuery>;
export const SEAL_STATES = ['PENDING', 'FAILED'] as const;
export const AwaitingSealQuery = Type.Object({
  ...page,
  sealStatus: Type.Optional(
    Type.Union(
      SEAL_STATES.map((s) => Type.Literal(s)),
      { description: 'only this seal state; both when omitted' },
    ),
  ),
});
export type AwaitingSealQuery = Static<typeof AwaitingSealQuery>;

export const OrganizationParams = Type.Object({ orgId: IdParam });
export const UserParams = Type.Object({ userId: IdParam });
export const DisableBody = Type.Object(
  {
    by: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: "who disables it, as the operator names themself (default 'operator')",
      }),
    ),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'why, kept with the record' })),
  },
  { additionalProperties: false },
);
export type DisableBody = Static<typeof DisableBody>;

/** The operator's switch as every answer shows it. */
const Disabled = {
  disabled: Type.Boolean({ description: 'disabled by the operator (POST .../disable); nothing of it is deleted' }),
  disabledAt: Nullable(Type.String({ format: 'date-time' })),
  disabledBy: Nullable(Type.String()),
  disabledReason: Nullable(Type.String()),
};
type DisabledRow = { disabledAt: Date | null; disabledBy: string | null; disabledReason: string | null };
function toDisabled(row: DisabledRow) {
  return {
    disabled: row.disabledAt !== null,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    disabledBy: row.disabledBy,
    disabledReason: row.disabledReason,
  };
}
export const WorkflowParams = Type.Object({ workflowId: IdParam });
export const GrantBody = Type.Object(
  {
    pkgId: IdParam,
  },
  { additionalProperties: false, description: 'any ACTIVE package, preset or custom, priced or free' },
);

const PackageRef = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  creditsPrice: Type.Number(),
  preset: Type.Boolean(),
  status: Type.String(),
});

export const AdminOrganization = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  owner: Type.Object({ userId: Type.Integer(), name: Nullable(Type.String()), email: Nullable(Type.String()) }),
  package: PackageRef,
  credits: Type.Integer({ description: 'credits left in the current cycle' }),
  packageStartedAt: Type.String({ format: 'date-time' }),
  packageExpiresAt: Type.String({ format: 'date-time' }),
  expired: Type.Boolean(),
  servicePlanActive: Type.Boolean(),
  activeMembers: Type.Integer({ description: "ACTIVE memberships, the owner's included" }),
  ...Disabled,
});
export const OrganizationsPage = Page(AdminOrganization);

export const AdminUser = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  isGuest: Type.Boolean({ description: 'a recipient address without an account' }),
  emailVerified: Type.Boolean(),
  twoFactorEnabled: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  organizations: Type.Array(
    Type.Object({
      organizationId: Type.Integer(),
      name: Type.String(),
      isOwner: Type.Boolean(),
      status: Type.String({ description: 'INVITED, ACTIVE or DECLINED' }),
    }),
  ),
  ...Disabled,
});
export const UsersPage = Page(AdminUser);

export const AwaitingSeal = Type.Object({
  workflowId: Type.Integer(),
  organizationId: Type.Integer(),
  ownerUserId: Type.Integer(),
  name: Type.String(),
  status: Type.String({ description: 'COMPLETED or APPROVED' }),
  completedAt: Nullable(Type.String({ format: 'date-time' })),
  sealStatus: Type.String({
    description: 'PENDING (being sealed, or its job vanished) or FAILED (every attempt failed; the owner was mailed)',
  }),
  sealError: Nullable(Type.String({ description: "the last failure's reason (kept while a reseal runs)" })),
  failedRuns: Type.Integer({
    description: 'seal runs given up so far (SEAL_FAILED audit rows), each after up to 9 attempts with back-off',
  }),
  sealJobLive: Type.Boolean({
    description:
      'a seal job is queued, retrying or running now; false with PENDING: the watchdog, or a reseal, queues one',
  }),
});
export const AwaitingSealPage = Page(AwaitingSeal);

export const ResealResponse = Type.Object({
  workflowId: Type.Integer(),
  queued: Type.Boolean({ description: 'false: a seal job was already live, nothing was added' }),
  sealStatus: Type.Literal('PENDING'),
});

/** What POST /admin/v1/backup/snapshot wrote under DATA_DIR/backups/<name>/ (platform/backup/layout.ts SnapshotRecord). */
export const BackupSnapshot = Type.Object({
  name: Type.String({ description: 'the directory DATA_DIR/backups/<name>/ the snapshot is in' }),
  takenAt: Type.String({ format: 'date-time', description: 'the point in time the backup is of' }),
  database: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]),
  storage: Type.Union([Type.Literal('filesystem'), Type.Literal('s3')]),
  bucket: Type.Union([Type.Object({ name: Type.String(), endpoint: Nullable(Type.String()) }), Type.Null()]),
  embeddedDatabase: Type.Union([
    Type.Object({
      file: Type.String(),
      size: Type.Integer({ description: 'bytes' }),
      sha256: Type.String(),
      milliseconds: Type.Integer({ description: 'how long the database was held for the dump' }),
    }),
    Type.Null(),
  ]),
  bucketObjects: Type.Union([Type.Object({ count: Type.Integer(), bytes: Type.Integer() }), Type.Null()]),
  keysFromEnvironment: Type.Array(Type.String(), {
    description:
      'JWT_SECRET, SECRETS_KEY when the service takes them from its environment: not in DATA_DIR, so not in the backup',
  }),
});

export function toAdminOrganization(row: OrganizationRow, now = new Date()): Static<typeof AdminOrganization> {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    owner: { userId: row.ownerUserId, name: row.ownerName, email: row.ownerEmail },
    package: {
      id: row.packageId,
      name: row.packageName,
      creditsPrice: Number(row.creditsPrice),
      preset: row.preset,
      status: row.packageStatus,
    },
    credits: row.credits,
    packageStartedAt: row.packageStartedAt.toISOString(),
    packageExpiresAt: row.packageExpiresAt.toISOString(),
    expired: row.packageExpiresAt.getTime() <= now.getTime(),
    servicePlanActive: row.servicePlanActive,
    activeMembers: row.activeMembers,
    ...toDisabled(row),
  };
}

export function toAdminUser(row: UserRow): Static<typeof AdminUser> {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    isGuest: row.isGuest,
    emailVerified: row.emailVerifiedAt !== null,
    twoFactorEnabled: row.twoFactorEnabled,
    createdAt: row.createdAt.toISOString(),
    organizations: row.organizations,
    ...toDisabled(row),
  };
}

export function toAwaitingSeal(row: AwaitingSealRow & { sealJobLive: boolean }): Static<typeof AwaitingSeal> {
  return {
    workflowId: row.id,
    organizationId: row.organizationId,
    ownerUserId: row.ownerUserId,
    name: row.name,
    status: row.status,
    completedAt: row.completedAt?.toISOString() ?? null,
    sealStatus: row.sealStatus,
    sealError: row.sealError,
    failedRuns: row.failedRuns,
    sealJobLive: row.sealJobLive,
  };
}

export const QueueStat = Type.Object({
  queue: Type.String({ description: 'the job name (src/job-registry.ts)' }),
  queued: Type.Integer({
    description: 'not yet running: waiting for a first run or for a retry (pg-boss getQueueStats)',
  }),
  deferred: Type.Integer({ description: 'of those, held until a later time (a retry back-off, a delayed job)' }),
  active: Type.Integer({ description: 'running now' }),
  created: Type.Integer({ description: 'waiting for a first run' }),
  retry: Type.Integer({ description: 'waiting for another attempt after a failure' }),
  failed: Type.Integer({ description: 'failed after every attempt, kept until pg-boss deletes them' }),
  total: Type.Integer({ description: 'every job pg-boss keeps for this queue, finished ones included' }),
  oldestWaitingCreatedAt: Nullable(
    Type.String({ format: 'date-time', description: 'the oldest waiting job (created or retry)' }),
  ),
  oldestWaitingAgeSeconds: Nullable(Type.Integer({ description: 'its age now, in seconds' })),
});
export const QueuesResponse = Type.Object({
  queues: Type.Array(QueueStat),
  countedAt: Type.String({ format: 'date-time' }),
});

export function toQueueStat(
  row: Omit<Static<typeof QueueStat>, 'oldestWaitingCreatedAt' | 'oldestWaitingAgeSeconds'> & {
    oldestWaitingCreatedAt: Date | null;
  },
  now: Date,
): Static<typeof QueueStat> {
  const oldest = row.oldestWaitingCreatedAt;
  return {
    ...row,
    oldestWaitingCreatedAt: oldest?.toISOString() ?? null,
    oldestWaitingAgeSeconds: oldest ? Math.max(0, Math.floor((now.getTime() - oldest.getTime()) / 1000)) : null,
  };
}

export const ExportFile = Type.String({
  description:
    'application/zip, streamed: envelopes/<id>-<name>/ with each document (sealed when sealed), audit-trail.json, and once finished ' +
    'certificate-of-completion.pdf and evidence-report.html; manifest.json last',
});
