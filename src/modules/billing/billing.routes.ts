import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { userOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { BillingService } from './billing.service.ts';
import {
  OrganizationBilling,
  PackageRenewQuery,
  PackagesPage,
  PackagesQuery,
  PackageUpdateBody,
  toOrganizationBilling,
  toPackageResponse,
} from './billing.schemas.ts';

const CYCLE =
  "A priced package (creditsPrice above 0) answers 403 PAYMENT_REQUIRED unless BILLING_SELF_SERVICE=true (billing's selfService): " +
  "the operator grants and renews those (PUT /admin/v1/organizations/{orgId}/package). Starts a new cycle now: credits become the package's credits and the expiry now + its duration; unused credits and days of the " +
  "replaced cycle lapse, so repeating the call gives no more than one cycle. The caller's own organization only (another orgId: 404), " +
  "owner or a role with BILLING_DETAILS canEdit (else 403), a person (a business app's token: 403). A plan the operator switched off " +
  "answers 500 SERVICE_PLAN_INACTIVE; a package that is not ACTIVE 400 PACKAGE_NOT_AVAILABLE. Answers the organization's billing state.";

export function billingRoutes(billing: BillingService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Billing'];
    const failures = { ...errorResponses, 500: Type.Ref('ErrorResponse') };

    app.get(
      '/auth/v1/packages',
      {
        schema: {
          tags,
          summary: 'Preset packages (public, paginated, optional search)',
          querystring: PackagesQuery,
          response: { 200: PackagesPage, 400: errorResponses[400] },
        },
        config: { auth: 'public' },
      },
      async (request) => {
        const { rows, total } = await billing.listPresetPackages(
          request.query.search,
          request.query.page,
          request.query.size,
        );
        return { content: rows.map(toPackageResponse), totalElements: total };
      },
    );

    app.get(
      '/organization/v1/billing',
      {
        schema: {
          tags,
          summary: "The organization's package, credits and expiry",
          description: 'Owner, or a role with BILLING_DETAILS canView.',
          response: { 200: OrganizationBilling, ...errorResponses },
        },
        config: { auth: { module: 'BILLING_DETAILS', right: 'canView' } },
      },
      async (request) => toOrganizationBilling(await billing.organizationBilling(userOf(request)), billing.selfService),
    );

    app.put(
      '/auth/v1/package/update',
      {
        schema: {
          tags,
          summary: 'Move the organization to another package',
          description: `A preset package (else 404). ${CYCLE}`,
          body: PackageUpdateBody,
          response: { 200: OrganizationBilling, ...failures },
        },
        config: { auth: { module: 'BILLING_DETAILS', right: 'canEdit' } },
      },
      async (request) =>
        toOrganizationBilling(
          await billing.changePackage(userOf(request), request.body.orgId, request.body.pkgId),
          billing.selfService,
        ),
    );

    app.put(
      '/auth/v1/package/renew',
      {
        schema: {
          tags,
          summary: "Renew the organization's current package for another cycle",
          description: CYCLE,
          querystring: PackageRenewQuery,
          response: { 200: OrganizationBilling, ...failures },
        },
        config: { auth: { module: 'BILLING_DETAILS', right: 'canEdit' } },
      },
      async (request) =>
        toOrganizationBilling(await billing.renewPackage(userOf(request), request.query.orgId), billing.selfService),
    );
  };
}
