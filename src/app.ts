import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import { createPlatform, type Platform, type PlatformOverrides } from './platform/platform.ts';
import { frameworkErrors, registerErrorHandling } from './http/error-handler.ts';
import { registerValidation } from './http/validation.ts';
import { registerRequestId, requestId } from './http/request-id.ts';
import { registerRequestMetrics } from './http/request-metrics.ts';
import { metricsRoutes } from './modules/metrics/metrics.routes.ts';
import { registerAuthentication, type RouteAuth } from './http/authenticate.ts';
import { registerOpenApi } from './http/openapi.ts';
import { applySecurityHeaders, registerSecurityHeaders } from './http/security-headers.ts';
import { ErrorResponse } from './http/schemas.ts';
import { createBillingService } from './modules/billing/billing.service.ts';
import { billingRoutes } from './modules/billing/billing.routes.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createUsersService } from './modules/users/users.service.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { createHistoryService } from './modules/history/history.service.ts';
import { historyRoutes } from './modules/history/history.routes.ts';
import { createDownloadService } from './modules/downloads/downloads.service.ts';
import { downloadRoutes } from './modules/downloads/downloads.routes.ts';
import { createReminderService } from './modules/reminders/reminders.service.ts';
import { createWorkflowService } from './modules/workflows/workflows.service.ts';
import { workflowRoutes } from './modules/workflows/workflows.routes.ts';
import { createDocumentListService } from './modules/documents/document-list.service.ts';
import { documentListRoutes } from './modules/documents/document-list.routes.ts';
import { createDocumentService } from './modules/documents/documents.service.ts';
import { createWordConverter } from './platform/pdf/convert-word.ts';
import { createThumbnailRenderer } from './platform/pdf/render-thumbnail.ts';
import { documentRoutes } from './modules/documents/documents.routes.ts';
import { createCloudImportService } from './modules/cloud-import/cloud-import.service.ts';
import { createVerifyService } from './modules/verify/verify.service.ts';
import { verifyRoutes } from './modules/verify/verify.routes.ts';
import { cloudImportRoutes } from './modules/cloud-import/cloud-import.routes.ts';
import { createCommentService } from './modules/comments/comments.service.ts';
import { commentRoutes } from './modules/comments/comments.routes.ts';
import { createFolderService } from './modules/folders/folders.service.ts';
import { folderRoutes } from './modules/folders/folders.routes.ts';
import { createRecipientService } from './modules/recipients/recipients.service.ts';
import { recipientRoutes } from './modules/recipients/recipients.routes.ts';
import { createFieldService } from './modules/fields/fields.service.ts';
import { fieldRoutes } from './modules/fields/fields.routes.ts';
import { createSigningCodes, loadSigningCodeKey } from './modules/signing/signing-codes.ts';
import { createCommenceService } from './modules/signing/commence.service.ts';
import { commenceRoutes } from './modules/signing/commence.routes.ts';
import { createGuestAccessService } from './modules/signing/guest-access.service.ts';
import { guestAccessRoutes } from './modules/signing/guest-access.routes.ts';
import { createIdentityService } from './modules/signing/identity.service.ts';
import { identityRoutes } from './modules/signing/identity.routes.ts';
import { createDeclineService } from './modules/signing/decline.service.ts';
import { declineRoutes } from './modules/signing/decline.routes.ts';
import { createDelegateService } from './modules/signing/delegate.service.ts';
import { delegateRoutes } from './modules/signing/delegate.routes.ts';
import { createCeremonyService } from './modules/signing/ceremony.service.ts';
import { ceremonyRoutes } from './modules/signing/ceremony.routes.ts';
import type { SealJobDeps } from './modules/signing/seal-job.ts';
import { defineJobs } from './job-registry.ts';
import { createSealWaiter } from './modules/signing/seal-waiter.ts';
import { createSigningOverviewService } from './modules/signing/signing-overview.service.ts';
import { signingOverviewRoutes } from './modules/signing/signing-overview.routes.ts';
import { webAppRoutes } from './modules/webapp/webapp.routes.ts';

/** Uploads above this are refused (SPEC.md Limits). */
export const UPLOAD_LIMIT_BYTES = 25 * 1024 * 1024;

/** TRUST_PROXY as a hop count: the service is reachable only through that many proxies, the nearest first. */
function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

export type App = { app: FastifyInstance; platform: Platform; routes: RouteAuth[]; close(): Promise<void> };

/**
 * The table of contents: builds the platform adapters, the HTTP plugins in order, then every module by
 * explicit import. Nothing is registered by directory scanning.
 */
export async function buildApp(config: Config, overrides: PlatformOverrides = {}): Promise<App> {
  const platform = await createPlatform(config, overrides);
  const securityHeaders = { https: config.publicUrl.startsWith('https:') };

  // The platform's logger, seen as Fastify's base type so the plugins' default FastifyInstance types accept the app.
  const loggerInstance: FastifyBaseLogger = platform.logger;
  const app = Fastify({
    loggerInstance,
    genReqId: requestId,
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    // X-Forwarded-For is believed only from the proxies TRUST_PROXY names; otherwise the audit trail records the socket's peer.
    // Fastify refuses a bare hop count (it cannot vouch for the peer), so a count becomes "trust the first n hops".
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // Signing codes travel as path parameters; the default 100-character cap would answer 414 before any handler.
    routerOptions: { maxParamLength: 2048 },
    // Router errors skip the onSend hooks, so they get the security headers here.
    frameworkErrors: (error, request, reply) => {
      applySecurityHeaders(reply, securityHeaders);
      frameworkErrors(error, request, reply);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // 1. HTTP plumbing: errors, validation, who is calling, multipart, OpenAPI.
  registerRequestId(app);
  registerRequestMetrics(app, platform.metrics);
  registerErrorHandling(app);
  registerSecurityHeaders(app, securityHeaders);
  registerValidation(app, [ErrorResponse]);
  app.addSchema(ErrorResponse);
  const routes = registerAuthentication(app, platform.tokens, platform.db);
  await app.register(multipart, { limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 10, fieldSize: 1024 } });
  await registerOpenApi(app);

  // 2. Services, each given only the adapters it uses.
  const billing = createBillingService({ db: platform.db });
  const auth = createAuthService({ db: platform.db, tokens: platform.tokens, billing, outbox: platform.outbox, signupEnabled: config.signupEnabled, publicUrl: config.publicUrl });
  const users = createUsersService({ db: platform.db, outbox: platform.outbox });
  const workflowSettings = createWorkflowService({ db: platform.db });
  const documentList = createDocumentListService({ db: platform.db });
  // Heavy document work, bounded and kept off the event loop: sandboxed LibreOffice, thumbnails in worker threads.
  const wordConverter = createWordConverter({ sofficePath: config.sofficePath, searchPath: config.conversionSearchPath, log: (message) => app.log.info(message) });
  void wordConverter.isolation();
  const thumbnails = createThumbnailRenderer({ log: (message) => app.log.warn(message) });
  const documents = createDocumentService({
    db: platform.db, blobs: platform.blobs, uploadLimitBytes: UPLOAD_LIMIT_BYTES, converter: wordConverter, thumbnails, uploadsPerMinute: config.uploadsPerMinute,
  });
  const verifier = createVerifyService({ db: platform.db, blobs: platform.blobs, seal: platform.seal });
  const cloudImport = createCloudImportService({ outbound: platform.outbound, blobs: platform.blobs, allowedHosts: config.cloudImportAllowedHosts });
  const comments = createCommentService({ db: platform.db, log: platform.log });
  const folders = createFolderService({ db: platform.db });
  const recipients = createRecipientService({ db: platform.db });
  const fields = createFieldService({ db: platform.db });
  // Readers of a COMPLETED workflow wait here for its seal; the seal job wakes them.
  const seals = createSealWaiter({ db: platform.db, waitSeconds: config.sealWaitSeconds });
  const history = createHistoryService({ db: platform.db, blobs: platform.blobs, seal: platform.seal, seals });
  // Signing links: one key in DATA_DIR, shared by commence, guest access, the ceremony and the completion mails.
  const signingCodes = createSigningCodes(loadSigningCodeKey(config.dataDir));
  const routing = { outbox: platform.outbox, publicUrl: config.publicUrl, codes: signingCodes };
  const commence = createCommenceService({ db: platform.db, routing });
  const guestAccess = createGuestAccessService({ db: platform.db, tokens: platform.tokens, codes: signingCodes });
  const identity = createIdentityService({ db: platform.db, outbox: platform.outbox });
  const declines = createDeclineService({ db: platform.db, outbox: platform.outbox });
  const delegations = createDelegateService({ db: platform.db, routing });
  const ceremony = createCeremonyService({ db: platform.db, jobs: platform.jobs, outbox: platform.outbox, publicUrl: config.publicUrl, codes: signingCodes });
  const sealing: SealJobDeps = { db: platform.db, jobs: platform.jobs, blobs: platform.blobs, outbox: platform.outbox, codes: signingCodes, publicUrl: config.publicUrl, seal: platform.seal, log: platform.log, seals, testDelayMs: config.sealTestDelayMs, onOutcome: (outcome) => platform.metrics.seals.labels(outcome).inc() };
  const downloads = createDownloadService({ db: platform.db, blobs: platform.blobs, seal: platform.seal, seals });
  const reminders = createReminderService({ db: platform.db, outbox: platform.outbox, codes: signingCodes, publicUrl: config.publicUrl, log: platform.log });
  // Every job (job-registry.ts), defined before platform.jobs.start() below.
  defineJobs(platform, { sealing, reminders });

  // 3. Routes, module by module.
  await app.register(systemRoutes({ database: platform.database, billing, signupEnabled: config.signupEnabled, idpEnabled: false }));
  await app.register(billingRoutes(billing));
  await app.register(authRoutes(auth));
  await app.register(usersRoutes(users));
  await app.register(workflowRoutes(workflowSettings));
  await app.register(documentListRoutes(documentList));
  await app.register(documentRoutes(documents, documentList));
  await app.register(cloudImportRoutes(cloudImport));
  await app.register(verifyRoutes(verifier));
  await app.register(metricsRoutes({
    metrics: platform.metrics,
    token: config.metricsToken,
    refreshQueueDepth: async () => {
      platform.metrics.queueDepth.reset();
      for (const { queue, state, count } of await platform.jobs.depths()) platform.metrics.queueDepth.labels(queue, state).set(count);
    },
  }));
  await app.register(commentRoutes(comments));
  await app.register(folderRoutes(folders));
  await app.register(recipientRoutes(recipients));
  await app.register(fieldRoutes(fields));
  await app.register(historyRoutes(history));
  await app.register(downloadRoutes(downloads));
  await app.register(ceremonyRoutes(ceremony));
  await app.register(commenceRoutes(commence));
  await app.register(guestAccessRoutes(guestAccess));
  await app.register(identityRoutes(identity));
  await app.register(declineRoutes(declines));
  await app.register(delegateRoutes(delegations));
  await app.register(signingOverviewRoutes(createSigningOverviewService({ db: platform.db })));
  await app.register(webAppRoutes());

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
      await thumbnails.close();
      await platform.jobs.stop();
      platform.mailRouting.close();
      platform.mailTransport.close();
      await platform.database.close();
    },
  };
}
