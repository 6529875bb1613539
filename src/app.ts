import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import { createPlatform, type Platform, type PlatformOverrides } from './platform/platform.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { registerValidation } from './http/validation.ts';
import { registerAuthentication, type RouteAuth } from './http/authenticate.ts';
import { registerOpenApi } from './http/openapi.ts';
import { ErrorResponse } from './http/schemas.ts';
import { createBillingService } from './modules/billing/billing.service.ts';
import { billingRoutes } from './modules/billing/billing.routes.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createUsersService } from './modules/users/users.service.ts';
import { usersRoutes } from './modules/users/users.routes.ts';

/** Uploads above this are refused (SPEC.md Limits). */
export const UPLOAD_LIMIT_BYTES = 25 * 1024 * 1024;

export type App = { app: FastifyInstance; platform: Platform; routes: RouteAuth[]; close(): Promise<void> };

/**
 * The table of contents: builds the platform adapters, the HTTP plugins in order, then every module by
 * explicit import. Nothing is registered by directory scanning.
 */
export async function buildApp(config: Config, overrides: PlatformOverrides = {}): Promise<App> {
  const platform = await createPlatform(config, overrides);

  const app = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    trustProxy: true,
    ajv: { customOptions: {} },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // 1. HTTP plumbing: errors, validation, who is calling, multipart, OpenAPI.
  registerErrorHandling(app);
  registerValidation(app, [ErrorResponse]);
  app.addSchema(ErrorResponse);
  const routes = registerAuthentication(app, platform.tokens);
  await app.register(multipart, { limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 10, fieldSize: 1024 } });
  await registerOpenApi(app);

  // 2. Services, each given only the adapters it uses.
  const billing = createBillingService({ db: platform.db });
  const auth = createAuthService({ db: platform.db, tokens: platform.tokens, billing, signupEnabled: config.signupEnabled, publicUrl: config.publicUrl });
  const users = createUsersService({ db: platform.db });

  // 3. Routes, module by module.
  await app.register(systemRoutes({ database: platform.database, billing, signupEnabled: config.signupEnabled, idpEnabled: false }));
  await app.register(billingRoutes(billing));
  await app.register(authRoutes(auth));
  await app.register(usersRoutes(users));

  // 4. Start-up work: seed data, then the job workers.
  await billing.ensurePresetPackages();
  await platform.jobs.start();
  await app.ready();

  return {
    app,
    platform,
    routes,
    async close() {
      await app.close();
      await platform.jobs.stop();
      platform.mailTransport.close();
      await platform.database.close();
    },
  };
}
