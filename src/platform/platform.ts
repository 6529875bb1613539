import path from 'node:path';
import type { Config } from '../config.ts';
import { openDatabase, type Database, type Db, type DbOrTx } from './db/client.ts';
import { createJobQueue, type JobQueue } from './jobs/queue.ts';
import { createOutbox, type MailPreference, type Outbox } from './mail/outbox.ts';
import { createMailBrandingLookup } from './mail/branding.ts';
import { createFileTransport, createSmtpTransport, type MailTransport } from './mail/transport.ts';
import { createFsBlobStore } from './storage/fs-blob-store.ts';
import { createS3BlobStore } from './storage/s3-blob-store.ts';
import { withBlobCache } from './storage/blob-cache.ts';
import type { BlobStore } from './storage/blob-store.ts';
import { createOutbound, type Outbound } from './outbound/outbound.ts';
import { createPlatformSeal, type PlatformSeal } from './signing/platform-seal.ts';
import { createSecretBox, loadSecretsKeys, type SecretBox } from './crypto/secrets.ts';
import { createMailRouting, type MailRouting } from './mail/transport-resolver.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { createTokenSigner, loadTokenSecret, type TokenSigner } from './auth/jwt.ts';
import { createLogger, logTo, type Log, type Logger } from './logger.ts';

/** The adapters to the outside world, built once at start and handed to each module's service. */
export type Platform = {
  config: Config;
  database: Database;
  db: Db;
  jobs: JobQueue;
  outbox: Outbox;
  blobs: BlobStore;
  tokens: TokenSigner;
  /** The platform's seal identity (renewed before expiry) and TSA client, for sealing, verifying and reports. */
  seal: PlatformSeal;
  /** The platform's own mail transport (SMTP_URL, or .eml files). */
  mailTransport: MailTransport;
  /** Picks each mail's transport: its organization's own provider (SMTP, EMAIL_API, CLOUD_MAIL, OAUTH2_MAIL), or mailTransport. */
  mailRouting: MailRouting;
  /** Encrypts stored credentials under SECRETS_KEY. */
  secrets: SecretBox;
  /** Requests to addresses users and partners supply (cloud import, webhooks, revocation checks), under the SSRF rules. */
  outbound: Outbound;
  /** Prometheus instruments, rendered by GET /metrics. */
  metrics: Metrics;
  /** The one logger (LOG_LEVEL): Fastify's, the job workers' and, through `log`, every module's. */
  logger: Logger;
  log: Log;
};

export type PlatformOverrides = {
  database?: Database;
  /** Replaces `log` (tests silence it); `logger` still follows LOG_LEVEL. */
  log?: Log;
  outbound?: Outbound;
  /** Tests: credentials for the local S3 server (production takes them from the AWS SDK's chain). */
  s3Credentials?: { accessKeyId: string; secretAccessKey: string };
};

/**
 * Plan decisions the platform's adapters must respect but may not import (platform/ never imports modules/):
 * app.ts passes the entitlements' functions in.
 */
export type PlatformPolicies = {
  /** Whether an organization's plan lets its mail go through its own provider (SPEC.md "Email settings"). */
  allowsCustomMail: (db: DbOrTx, organizationId: number) => Promise<boolean>;
  /** Whether the addressee wants an optional mail of this kind (their notification preferences); unset: every mail is queued. */
  wantsMail?: MailPreference;
};

export async function createPlatform(
  config: Config,
  overrides: PlatformOverrides = {},
  policies: PlatformPolicies,
): Promise<Platform> {
  const logger = createLogger(config.logLevel);
  const log = overrides.log ?? logTo(logger);
  const database =
    overrides.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      poolSize: config.databasePoolSize,
      pgliteDir: path.join(config.dataDir, 'pgdata'),
    }));
  const metrics = createMetrics();
  const jobs = createJobQueue(database, {
    pollSeconds: config.jobPollSeconds,
    logger,
    onAttempt: (queue, outcome, seconds) => metrics.jobSeconds.labels(queue, outcome).observe(seconds),
  });
  // Instances that share a bucket share their files; the scratch area for staging stays local either way.
  const blobs = withBlobCache(
    config.s3
      ? await createS3BlobStore(
          { ...config.s3, ...(overrides.s3Credentials ? { credentials: overrides.s3Credentials } : {}) },
          path.join(config.dataDir, 'blobs', 'tmp'),
        )
      : createFsBlobStore(path.join(config.dataDir, 'blobs')),
  );
  const mailTransport = config.smtpUrl
    ? createSmtpTransport(config.smtpUrl)
    : createFileTransport(path.join(config.dataDir, 'outbox'), (line) => log(line));
  const secrets = createSecretBox(loadSecretsKeys(config.dataDir, config.secretsKey));
  const mailRouting = createMailRouting({
    db: database.db,
    secrets,
    platform: { transport: mailTransport, from: config.mailFrom },
    environment: { endpoints: config.mailProviders, allowPrivate: config.outboundAllowPrivate },
    allowsCustomMail: policies.allowsCustomMail,
    log,
  });
  return {
    config,
    database,
    db: database.db,
    jobs,
    outbox: createOutbox(jobs, createMailBrandingLookup(config.publicUrl), policies.wantsMail),
    blobs,
    tokens: createTokenSigner(loadTokenSecret(config.dataDir, config.jwtSecret)),
    seal: createPlatformSeal({ dataDir: config.dataDir, tsaUrl: config.tsaUrl, publicUrl: config.publicUrl }),
    mailTransport,
    mailRouting,
    secrets,
    outbound: overrides.outbound ?? createOutbound({ allowPrivate: config.outboundAllowPrivate }),
    metrics,
    logger,
    log,
  };
}
