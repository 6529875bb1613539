import { Type, type Static } from 'typebox';
import { IdParam, Page } from '../../http/schemas.ts';
import type { OrganizationBillingRow, PackageRow } from './billing.repo.ts';

export const PackageResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  credits: Type.Number({ description: 'credits one cycle gives' }),
  creditsPrice: Type.Number(),
  discount: Type.Number(),
  preset: Type.Boolean(),
  duration: Type.Integer({ description: 'days per cycle' }),
  servicePlan: Type.String(),
  status: Type.String({
    description: 'ACTIVE, or INACTIVE for a retired package that can no longer be chosen or renewed',
  }),
  currencySymbol: Type.String(),
});

export const PackagesQuery = Type.Object({
  page: Type.Integer({ minimum: 0, default: 0 }),
  size: Type.Integer({ minimum: 1, maximum: 1000, default: 20 }),
  search: Type.Optional(
    Type.String({ maxLength: 255, description: 'substring of the name or description, ignoring case' }),
  ),
});

export const PackagesPage = Page(PackageResponse);

export const PackageUpdateBody = Type.Object(
  {
    orgId: IdParam,
    pkgId: IdParam,
  },
  { additionalProperties: false },
);
export type PackageUpdateBody = Static<typeof PackageUpdateBody>;

export const PackageRenewQuery = Type.Object({ orgId: IdParam });

export const OrganizationBilling = Type.Object({
  orgId: Type.Integer(),
  package: PackageResponse,
  credits: Type.Integer({ description: 'credits left in the current cycle' }),
  packageStartedAt: Type.String({ format: 'date-time' }),
  packageExpiresAt: Type.String({
    format: 'date-time',
    description: 'from then on sending and signing answer 400 PACKAGE_EXPIRED (16003) until a renewal',
  }),
  expired: Type.Boolean(),
  servicePlanActive: Type.Boolean({
    description: 'false: sending, signing and package changes answer 500 SERVICE_PLAN_INACTIVE',
  }),
  selfService: Type.Boolean({
    description:
      'true (BILLING_SELF_SERVICE): members with BILLING_DETAILS canEdit may choose and renew any package; false: only packages whose creditsPrice is 0, ' +
      'a priced one answering 403 PAYMENT_REQUIRED (the operator grants and renews those)',
  }),
});

export function toPackageResponse(row: PackageRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    credits: row.credits,
    creditsPrice: Number(row.creditsPrice),
    discount: Number(row.discount),
    preset: row.preset,
    duration: row.duration,
    servicePlan: row.servicePlan,
    status: row.status,
    currencySymbol: row.currencySymbol,
  };
}

export function toOrganizationBilling(
  row: OrganizationBillingRow,
  selfService: boolean,
  now = new Date(),
): Static<typeof OrganizationBilling> {
  return {
    orgId: row.organizationId,
    package: toPackageResponse(row.package),
    credits: row.credits,
    packageStartedAt: row.packageStartedAt.toISOString(),
    packageExpiresAt: row.packageExpiresAt.toISOString(),
    expired: row.packageExpiresAt.getTime() <= now.getTime(),
    servicePlanActive: row.servicePlanActive,
    selfService,
  };
}
