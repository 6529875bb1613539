import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../http/schemas.ts';
import type { BillingService } from './billing.service.ts';
import { PackagesPage, PackagesQuery, toPackageResponse } from './billing.schemas.ts';

export function billingRoutes(billing: BillingService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/auth/v1/packages', {
      schema: { tags: ['Billing'], summary: 'Preset packages (public, paginated, optional search)', querystring: PackagesQuery, response: { 200: PackagesPage, 400: errorResponses[400] } },
      config: { auth: 'public' },
    }, async (request) => {
      const { rows, total } = await billing.listPresetPackages(request.query.search, request.query.page, request.query.size);
      return { content: rows.map(toPackageResponse), totalElements: total };
    });
  };
}
