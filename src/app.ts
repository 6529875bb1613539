import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import { createPlatform, type Platform, type PlatformOverrides } from './platform/platform.ts';
import { frameworkErrors, registerErrorHandling } from './http/error-handler.ts';
import { registerValidation } from './http/validation.ts';
import { registerRequestId, requestId } from './http/request-id.ts';
import { registerRequestMetrics } from './http/request-metrics.ts';
import { registerGracefulClose } from './http/graceful-close.ts';
import { metricsRoutes } from './modules/metrics/metrics.routes.ts';
import { registerAuthentication, type RouteAuth } from './http/authenticate.ts';
import { createMembershipCache } from './modules/auth/membership-cache.ts';
import { createNotifiedCache } from './platform/db/notified-cache.ts';
import { registerOpenApi } from './http/openapi.ts';
import { applySecurityHeaders, registerSecurityHeaders } from './http/security-headers.ts';
import { ErrorResponse } from './http/schemas.ts';
import { createBillingService } from './modules/billing/billing.service.ts';
import { allowsCustomMail } from './modules/billing/entitlements.service.ts';
import { createMailSettingsService } from './modules/mail-settings/mail-settings.service.ts';
import { mailSettingsRoutes } from './modules/mail-settings/mail-settings.routes.ts';
import { billingRoutes } from './modules/billing/billing.routes.ts';
import { createAdminService } from './modules/admin/admin.service.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { createBrandingService } from './modules/branding/branding.service.ts';
import { brandingRoutes } from './modules/branding/branding.routes.ts';
import { createImageNormalizer } from './platform/images/normalize-image.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createSsoService } from './modules/auth/sso.service.ts';
import { ssoRoutes } from './modules/auth/sso.routes.ts';
import { createOidcRelyingParty } from './platform/auth/oidc.ts';
import { createIdTokenVerifier } from './platform/auth/id-token.ts';
import { registerSessionCookie } from './http/session-cookie.ts';
import { createWebSessionService } from './modules/web-session/web-session.service.ts';
import { cookieSessionActions, webSessionRoutes } from './modules/web-session/web-session.routes.ts';
import { addresseesWantMail, createUsersService } from './modules/users/users.service.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { createPasskeyService } from './modules/passkeys/passkeys.service.ts';
import { passkeyRoutes } from './modules/passkeys/passkeys.routes.ts';
import { createSmartCardService } from './modules/smart-card/smart-card.service.ts';
import { smartCardRoutes } from './modules/smart-card/smart-card.routes.ts';
import { createSignatureLibraryService } from './modules/signature-library/signature-library.service.ts';
import { createSignerKeyService } from './modules/signer-keys/signer-keys.service.ts';
import { signerKeyRoutes } from './modules/signer-keys/signer-keys.routes.ts';
import { signatureLibraryRoutes } from './modules/signature-library/signature-library.routes.ts';
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
import { createPdfInspector } from './platform/pdf/inspect-pdf.ts';
import { createPdfVerifier } from './platform/crypto/pdf-verifier.ts';
import { documentRoutes } from './modules/documents/documents.routes.ts';
import { createCloudImportService } from './modules/cloud-import/cloud-import.service.ts';
import { createVerifyService } from './modules/verify/verify.service.ts';
import { verifyRoutes } from './modules/verify/verify.routes.ts';
import { pkiRoutes } from './modules/pki/pki.routes.ts';
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
import { createSurveyService } from './modules/surveys/surveys.service.ts';
import { surveyRoutes } from './modules/surveys/surveys.routes.ts';
import { createGuestAccessService } from './modules/signing/guest-access.service.ts';
import { guestAccessRoutes } from './modules/signing/guest-access.routes.ts';
import { createIdentityService } from './modules/signing/identity.service.ts';
import { identityRoutes } from './modules/signing/identity.routes.ts';
import { createDeclineService } from './modules/signing/decline.service.ts';
import { declineRoutes } from './modules/signing/decline.routes.ts';
import { createVoidService } from './modules/signing/void.service.ts';
import { voidRoutes } from './modules/signing/void.routes.ts';
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
import { createBusinessAppService } from './modules/business-apps/business-apps.service.ts';
import { businessAppRoutes } from './modules/business-apps/business-apps.routes.ts';
import { resolveWithDns } from './modules/business-apps/callback-url.ts';
import { createWebhookService } from './modules/webhooks/webhooks.service.ts';
import { webhookRoutes } from './modules/webhooks/webhooks.routes.ts';
import { startWebhookDispatch } from './modules/webhooks/webhooks.jobs.ts';
import { createRoleService } from './modules/roles/roles.service.ts';
import { roleRoutes } from './modules/roles/roles.routes.ts';
import { createOrganizationService } from './modules/organizations/organizations.service.ts';
import { organizationRoutes } from './modules/organizations/organizations.routes.ts';
import { createTemplateService } from './modules/templates/templates.service.ts';
import { templateRoutes } from './modules/templates/templates.routes.ts';
import { createTemplateFolderService } from './modules/templates/template-folders.service.ts';
import { templateFolderRoutes } from './modules/templates/template-folders.routes.ts';
import { createTemplateAnalyticsService } from './modules/templates/template-analytics.service.ts';
import { createFieldEventService } from './modules/templates/field-events.service.ts';
import { templateAnalyticsRoutes } from './modules/templates/template-analytics.routes.ts';
import { createCscClient } from './platform/csc/csc-client.ts';
import { createRemoteSigningService } from './modules/remote-signing/remote-signing.service.ts';
import { remoteSigningRoutes } from './modules/remote-signing/remote-signing.routes.ts';

/** Uploads above this are refused (SPEC.md Limits). */
export const UPLOAD_LIMIT_BYTES = 25 * 1024 * 1024;

/** TRUST_PROXY as a hop count: the service is reachable only through that many proxies, the nearest first. */
function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

export type App = {
  app: FastifyInstance;
  platform: Platform;
  routes: RouteAuth[];
  /**
   * The graceful shutdown: stops accepting requests and fetching jobs, lets the requests in flight and the jobs
   * running finish within `timeoutMs` (default SHUTDOWN_TIMEOUT_MS; jobs still running then go back to the queue),
   * then stops the workers and closes the database, last, when nothing uses it any more. Before all that, for
   * `drainMs` (default SHUTDOWN_DRAIN_MS) the instance keeps serving while its readiness probe answers 503.
   */
  close(options?: { timeoutMs?: number; drainMs?: number }): Promise<void>;
};

/**
 * The table of contents: builds the platform adapters, the HTTP plugins in order, then every module by
 * explicit import. Nothing is registered by directory scanning.
 */
export async function buildApp(config: Config, overrides: PlatformOverrides = {}): Promise<App> {
  // The mail routing asks the plan (entitlements) whether an organization's own mail provider may be used; the
  // outbox asks the addressee's notification preferences (users) whether an optional mail is wanted.
  const platform = await createPlatform(config, overrides, { allowsCustomMail, wantsMail: addresseesWantMail });
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
  const http = registerGracefulClose(app);
  registerErrorHandling(app);
  registerSecurityHeaders(app, securityHeaders);
  registerValidation(app, [ErrorResponse]);
  app.addSchema(ErrorResponse);
  // Before authentication: a web session's cookie becomes the bearer token that authentication then checks.
  // The service is created below; requests only arrive after ready().
  registerSessionCookie(app, {
    secure: securityHeaders.https,
    publicUrl: config.publicUrl,
    sessions: () => webSessions,
  });
  const routes = registerAuthentication(app, platform.tokens, createMembershipCache(platform.database), {
    adminToken: config.adminToken,
  });
  await app.register(multipart, { limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 10, fieldSize: 1024 } });
  await registerOpenApi(app);

  // 2. Services, each given only the adapters it uses.
  const billing = createBillingService({ db: platform.db, selfService: config.billingSelfService });
  // Logos are decoded by pure-JS decoders in a worker thread (docs/organizations.md "Branding").
  const branding = createBrandingService({ db: platform.db, blobs: platform.blobs, images: createImageNormalizer() });
  const auth = createAuthService({
    db: platform.db,
    tokens: platform.tokens,
    billing,
    outbox: platform.outbox,
    signupEnabled: config.signupEnabled,
    publicUrl: config.publicUrl,
  });
  const sso = createSsoService({
    db: platform.db,
    tokens: platform.tokens,
    auth,
    billing,
    signupEnabled: config.signupEnabled,
    publicUrl: config.publicUrl,
    oidc: config.oidc ? createOidcRelyingParty(config.oidc) : undefined,
    idTokens: config.idp ? createIdTokenVerifier(config.idp) : undefined,
  });
  const webSessions = createWebSessionService({
    db: platform.db,
    secrets: platform.secrets,
    auth,
    sso,
    publicUrl: config.publicUrl,
  });
  const webSessionOptions = { secure: securityHeaders.https, publicUrl: config.publicUrl };
  const users = createUsersService({
    db: platform.db,
    outbox: platform.outbox,
    cloudImportKeys: config.cloudImportKeys,
  });
  const passkeys = createPasskeyService({
    db: platform.db,
    tokens: platform.tokens,
    outbox: platform.outbox,
    rpId: config.webauthnRpId,
    origin: new URL(config.publicUrl).origin,
    rpName: 'Signature Service',
  });
  const smartCards = createSmartCardService({
    db: platform.db,
    tokens: platform.tokens,
    outbox: platform.outbox,
    outbound: platform.outbound,
    caFile: config.smartCardCaFile,
  });
  const workflowSettings = createWorkflowService({ db: platform.db });
  const documentList = createDocumentListService({
    db: platform.db,
    lists: createNotifiedCache(platform.database, 'document_lists_changed'),
  });
  // Heavy document work, bounded and kept off the event loop: sandboxed LibreOffice, thumbnails in worker threads.
  const wordConverter = createWordConverter({
    sofficePath: config.sofficePath,
    searchPath: config.conversionSearchPath,
    log: (message) => app.log.info(message),
    warn: (message) => app.log.warn(message),
  });
  void wordConverter.isolation();
  const thumbnails = createThumbnailRenderer({ log: (message) => app.log.warn(message) });
  // Every uploaded or converted PDF is parsed and checked in worker threads under structure limits.
  const pdfInspector = createPdfInspector();
  const documents = createDocumentService({
    db: platform.db,
    blobs: platform.blobs,
    uploadLimitBytes: UPLOAD_LIMIT_BYTES,
    converter: wordConverter,
    thumbnails,
    inspector: pdfInspector,
    uploadsPerMinute: config.uploadsPerMinute,
  });
  // Uploaded PDFs' signatures are read and checked in worker threads under a time limit (POST /verify/v1).
  const signatureChecks = createPdfVerifier({ log: (message) => app.log.warn(message) });
  const verifier = createVerifyService({ db: platform.db, seal: platform.seal, checker: signatureChecks });
  const cloudImport = createCloudImportService({
    outbound: platform.outbound,
    blobs: platform.blobs,
    allowedHosts: config.cloudImportAllowedHosts,
  });
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
  const surveys = createSurveyService({ db: platform.db, jobs: platform.jobs, routing });
  const commence = createCommenceService({ db: platform.db, routing, surveys });
  const guestAccess = createGuestAccessService({ db: platform.db, tokens: platform.tokens, codes: signingCodes });
  const identity = createIdentityService({ db: platform.db, outbox: platform.outbox });
  const declines = createDeclineService({ db: platform.db, outbox: platform.outbox, surveys });
  const voids = createVoidService({ db: platform.db, outbox: platform.outbox, surveys });
  const delegations = createDelegateService({ db: platform.db, routing });
  // Personal signing keys of useDigitalCert signers, certified by the platform CA.
  const signerKeys = createSignerKeyService({ db: platform.db, outbox: platform.outbox, ca: platform.seal.ca });
  const ceremony = createCeremonyService({
    db: platform.db,
    jobs: platform.jobs,
    outbox: platform.outbox,
    publicUrl: config.publicUrl,
    codes: signingCodes,
    blobs: platform.blobs,
    signerKeys,
  });
  const sealing: SealJobDeps = {
    db: platform.db,
    jobs: platform.jobs,
    blobs: platform.blobs,
    outbox: platform.outbox,
    codes: signingCodes,
    publicUrl: config.publicUrl,
    seal: platform.seal,
    log: platform.log,
    seals,
    testDelayMs: config.sealTestDelayMs,
    onOutcome: (outcome) => platform.metrics.seals.labels(outcome).inc(),
  };
  const downloads = createDownloadService({
    db: platform.db,
    blobs: platform.blobs,
    seal: platform.seal,
    seals,
    renderer: thumbnails,
  });
  const reminders = createReminderService({
    db: platform.db,
    outbox: platform.outbox,
    codes: signingCodes,
    publicUrl: config.publicUrl,
    log: platform.log,
  });
  // Every job (job-registry.ts), defined before platform.jobs.start() below.
  defineJobs(platform, {
    sealing,
    reminders,
    surveys: { db: platform.db, jobs: platform.jobs, routing, testDelayMs: config.surveyTestDelayMs },
  });

  // 3. Routes, module by module.
  // Set when the shutdown begins: the readiness probe answers 503 from then on.
  let shuttingDown = false;
  await app.register(
    systemRoutes({
      shuttingDown: () => shuttingDown,
      database: platform.database,
      blobs: platform.blobs,
      storage: config.s3 ? 's3' : 'filesystem',
      billing,
      signupEnabled: config.signupEnabled,
      idpEnabled: sso.idpEnabled,
    }),
  );
  await app.register(billingRoutes(billing));
  // The operator's API under /admin/v1/ (ADMIN_TOKEN; off without it): packages granted through billing, reseals through signing.
  await app.register(
    adminRoutes(
      createAdminService({
        db: platform.db,
        jobs: platform.jobs,
        billing,
        downloads,
        history,
        logger: platform.logger,
        backup: {
          database: platform.database,
          dataDir: config.dataDir,
          bucket: config.s3 && {
            ...config.s3,
            ...(overrides.s3Credentials ? { credentials: overrides.s3Credentials } : {}),
          },
          keysFromEnvironment: [
            ...(config.jwtSecret ? ['JWT_SECRET'] : []),
            ...(config.secretsKey ? ['SECRETS_KEY'] : []),
          ],
        },
      }),
      {
        selfService: config.billingSelfService,
        logger: platform.logger,
      },
    ),
  );
  await app.register(brandingRoutes(branding));
  await app.register(authRoutes(auth, sso, cookieSessionActions(webSessions, webSessionOptions)));
  await app.register(ssoRoutes(sso, webSessionOptions));
  await app.register(webSessionRoutes(webSessions, webSessionOptions));
  await app.register(usersRoutes(users));
  await app.register(passkeyRoutes(passkeys));
  await app.register(smartCardRoutes(smartCards));
  await app.register(signatureLibraryRoutes(createSignatureLibraryService({ db: platform.db })));
  await app.register(workflowRoutes(workflowSettings));
  await app.register(documentListRoutes(documentList));
  await app.register(documentRoutes(documents, documentList));
  await app.register(cloudImportRoutes(cloudImport));
  await app.register(verifyRoutes(verifier));
  await app.register(pkiRoutes(platform.seal.ca));
  await app.register(signerKeyRoutes(signerKeys));
  await app.register(
    metricsRoutes({
      metrics: platform.metrics,
      token: config.metricsToken,
      refreshQueueDepth: async () => {
        platform.metrics.queueDepth.reset();
        for (const { queue, state, count } of await platform.jobs.depths())
          platform.metrics.queueDepth.labels(queue, state).set(count);
      },
    }),
  );
  await app.register(commentRoutes(comments));
  await app.register(folderRoutes(folders));
  await app.register(recipientRoutes(recipients));
  await app.register(fieldRoutes(fields));
  await app.register(historyRoutes(history));
  await app.register(downloadRoutes(downloads));
  await app.register(ceremonyRoutes(ceremony));
  // Remote (CSC) signing: the provider is reached under the outbound rules and sends signers back to the web app's /csc/callback.
  await app.register(
    remoteSigningRoutes(
      createRemoteSigningService({
        db: platform.db,
        blobs: platform.blobs,
        secrets: platform.secrets,
        ceremony,
        csc: config.csc
          ? createCscClient({ ...config.csc, redirectUri: `${config.publicUrl}/csc/callback` }, platform.outbound)
          : null,
      }),
    ),
  );
  await app.register(commenceRoutes(commence));
  await app.register(guestAccessRoutes(guestAccess));
  await app.register(identityRoutes(identity));
  await app.register(declineRoutes(declines));
  await app.register(voidRoutes(voids));
  await app.register(delegateRoutes(delegations));
  await app.register(signingOverviewRoutes(createSigningOverviewService({ db: platform.db })));
  await app.register(surveyRoutes(surveys));
  const roleLists = createNotifiedCache(platform.database, 'members_roles_changed');
  await app.register(roleRoutes(createRoleService({ db: platform.db, lists: roleLists })));
  const memberLists = createNotifiedCache(platform.database, 'members_roles_changed');
  await app.register(
    organizationRoutes(
      createOrganizationService({
        db: platform.db,
        outbox: platform.outbox,
        billing,
        publicUrl: config.publicUrl,
        lists: memberLists,
      }),
      config.publicUrl,
    ),
  );
  await app.register(
    businessAppRoutes(
      createBusinessAppService({
        db: platform.db,
        secrets: platform.secrets,
        allowPrivateCallbacks: config.outboundAllowPrivate,
        resolve: resolveWithDns,
      }),
    ),
  );
  await app.register(webhookRoutes(createWebhookService({ db: platform.db, jobs: platform.jobs })));
  await app.register(
    mailSettingsRoutes(
      createMailSettingsService({
        db: platform.db,
        secrets: platform.secrets,
        mailRouting: platform.mailRouting,
        allowPrivate: config.outboundAllowPrivate,
        log: platform.log,
      }),
    ),
  );
  const templateLists = createNotifiedCache(platform.database, 'templates_changed');
  await app.register(
    templateRoutes(createTemplateService({ db: platform.db, blobs: platform.blobs, routing, lists: templateLists })),
  );
  await app.register(templateFolderRoutes(createTemplateFolderService({ db: platform.db })));
  await app.register(
    templateAnalyticsRoutes(
      createTemplateAnalyticsService({
        db: platform.db,
        lists: templateLists,
        answers: createNotifiedCache(platform.database, 'template_analytics_changed'),
      }),
      createFieldEventService({ db: platform.db }),
    ),
  );
  await app.register(webAppRoutes({ secure: webSessionOptions.secure }));

  // 4. Start-up work: the job workers (the preset packages are seeded by migration 0008).
  await platform.jobs.start();
  // Webhook deliveries written by recordActivity become jobs in the dispatcher's ticks (modules/webhooks/webhooks.jobs.ts).
  await startWebhookDispatch(platform.jobs);
  await app.ready();

  return {
    app,
    platform,
    routes,
    async close(options = {}) {
      shuttingDown = true;
      const drainMs = options.drainMs ?? config.shutdownDrainMs;
      if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
      const timeoutMs = options.timeoutMs ?? config.shutdownTimeoutMs;
      const deadline = Date.now() + timeoutMs;
      // Requests and jobs drain together: a request may wait for a job of this process (a download for its seal).
      const [answered] = await Promise.all([http.close(deadline), platform.jobs.stop({ graceMs: timeoutMs })]);
      if (answered.cut > 0)
        platform.logger.warn(`shutdown: ${answered.cut} request(s) still in flight after ${timeoutMs} ms were cut`);
      await thumbnails.close();
      await pdfInspector.close();
      await signatureChecks.close();
      platform.mailRouting.close();
      platform.mailTransport.close();
      await platform.database.close();
    },
  };
}
