import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import type { Database } from '../../platform/db/client.ts';
import type { BlobStore } from '../../platform/storage/blob-store.ts';
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

/** How long the readiness probe waits for the database or the bucket before calling it unready. */
export const READY_CHECK_TIMEOUT_MS = 2000;

/** Resolves when `check` does; rejects when it fails or takes longer than READY_CHECK_TIMEOUT_MS. */
async function within(check: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), READY_CHECK_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function systemRoutes(deps: {
  /** True once the instance began to shut down (SHUTDOWN_DRAIN_MS, then the port closes). */
  shuttingDown: () => boolean;
  database: Database;
  blobs: BlobStore;
  storage: 'filesystem' | 's3';
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

    // Probes arrive every few seconds from every load balancer and orchestrator: concurrent ones share one check.
    let checking: Promise<void> | undefined;
    const checkStorage = () => {
      checking ??= within(() => deps.blobs.ping()).finally(() => {
        checking = undefined;
      });
      return checking;
    };

    app.get(
      '/admin/internal/ready',
      {
        schema: {
          tags: ['System'],
          summary: 'Readiness probe: 200 while this instance can serve requests, 503 otherwise',
          description:
            'Answers 200 once migrations ran, the job workers started and the database and the file storage (the ' +
            'bucket, when S3 is configured) answer within 2 s each; 503 SERVICE_UNAVAILABLE naming what did not answer, ' +
            'and from the start of a shutdown (the instance keeps serving for SHUTDOWN_DRAIN_MS, then its port closes). ' +
            'Before migrations ran the port is not open yet. Use it to route traffic; /admin/internal/health only ' +
            'says the process and its database are up.',
          response: {
            200: Type.Object({
              status: Type.Literal('READY'),
              database: Type.String({ description: 'pglite (embedded) or postgres' }),
              storage: Type.String({ description: 'filesystem (DATA_DIR/blobs) or s3' }),
            }),
          },
        },
        config: { auth: 'public' },
      },
      async () => {
        if (deps.shuttingDown()) throw new AppError('SERVICE_UNAVAILABLE', 'Not ready: the instance is shutting down');
        const [database, storage] = await Promise.allSettled([within(() => deps.database.ping()), checkStorage()]);
        const failing = [
          ...(database.status === 'rejected' ? ['the database'] : []),
          ...(storage.status === 'rejected' ? [deps.storage === 's3' ? 'the S3 bucket' : 'the file storage'] : []),
        ];
        if (failing.length > 0)
          throw new AppError('SERVICE_UNAVAILABLE', `Not ready: ${failing.join(' and ')} did not answer`);
        return { status: 'READY' as const, database: deps.database.kind, storage: deps.storage };
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
