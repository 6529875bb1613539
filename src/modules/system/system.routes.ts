import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import type { Database } from '../../platform/db/client.ts';
import type { BillingService } from '../billing/billing.service.ts';

export const PLATFORM_PRIMARY_COLOR = '#1A56DB';

const AppSettings = Type.Object({
  branding: Type.String({ description: 'JSON string of the APP_BRANDING object ({primaryColor, ...})' }),
  powerSurveyRecipientLimit: Type.Integer({ description: "The default plan's Power Survey recipient limit" }),
  sso: Type.Object({ enableIdpAuth: Type.Boolean() }),
  'sso.enableIdpAuth': Type.Boolean({ description: 'Same flag as sso.enableIdpAuth, for clients reading flat keys' }),
  locale: Type.String(),
  signupEnabled: Type.Boolean(),
});

export function systemRoutes(deps: {
  database: Database;
  billing: BillingService;
  signupEnabled: boolean;
  idpEnabled: boolean;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/admin/internal/health',
      {
        schema: {
          tags: ['System'],
          summary: 'Reachability probe: 200 once the database answers, 503 otherwise',
          response: { 200: Type.Object({ status: Type.String(), database: Type.String() }) },
        },
        config: { auth: 'public' },
      },
      async () => {
        try {
          await deps.database.ping();
        } catch {
          throw new AppError('SERVICE_UNAVAILABLE', 'Database is not reachable');
        }
        return { status: 'UP', database: deps.database.kind };
      },
    );

    app.get(
      '/auth/v1/app_settings',
      {
        schema: { tags: ['System'], summary: 'Public branding, flags and locale', response: { 200: AppSettings } },
        config: { auth: 'public' },
      },
      async () => {
        const plan = await deps.billing.defaultPackage();
        return {
          branding: JSON.stringify({ primaryColor: PLATFORM_PRIMARY_COLOR }),
          powerSurveyRecipientLimit: plan.powerSurveyRecipientLimit,
          sso: { enableIdpAuth: deps.idpEnabled },
          'sso.enableIdpAuth': deps.idpEnabled,
          locale: 'en',
          signupEnabled: deps.signupEnabled,
        };
      },
    );
  };
}
