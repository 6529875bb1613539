import net from 'node:net';
import path from 'node:path';

/**
 * The service's configuration. This is the only module that reads process.env (RUNTIME.md's table);
 * everything else receives a Config.
 */
export type Config = {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  signupEnabled: boolean;
  tsaUrl: string | undefined;
  /** Optional HMAC secret for access tokens; otherwise one is generated once into DATA_DIR. */
  jwtSecret: string | undefined;
  /** Where LibreOffice lives; `soffice` on PATH by default. */
  sofficePath: string;
  /** PATH as the service got it: the one variable LibreOffice inherits (it gets no secrets). */
  conversionSearchPath: string;
  logLevel: string;
  /** How often job workers poll when no notification wakes them (seconds). */
  jobPollSeconds: number;
  /** How long a download, certificate or evidence report of a COMPLETED workflow waits for its pending seal before 503. */
  sealWaitSeconds: number;
  /** Tests only (SEAL_TEST_DELAY_MS): each seal attempt waits this long first, a window to kill the process in. */
  sealTestDelayMs: number;
  /**
   * Which peers may set X-Forwarded-For (the client address the audit trail records): false (no proxy, the
   * socket's address), a hop count, or addresses/CIDRs (and proxy-addr's names loopback, linklocal, uniquelocal).
   */
  trustProxy: TrustProxy;
  /** Uploads and replacements per account per rolling minute before 503 UPLOAD_RATE_LIMITED. */
  uploadsPerMinute: number;
  /** Hosts (`name`, `*.domain`, optionally `:port`) that GET /document/v1/cloud-import/box may fetch from. */
  cloudImportAllowedHosts: string[];
  /** Lets outbound requests (cloud import, webhooks, revocation checks) reach private and loopback addresses: tests only. */
  outboundAllowPrivate: boolean;
  /** Stored files in an S3-compatible bucket instead of DATA_DIR/blobs (S3_BUCKET set); credentials from the AWS SDK's usual chain. */
  s3: { bucket: string; endpoint: string | undefined; region: string } | undefined;
  /** Bearer token that GET /metrics requires; unset: the endpoint is off. */
  metricsToken: string | undefined;
};

/** The box provider's shared-link and download hosts. */
export const DEFAULT_CLOUD_IMPORT_HOSTS = ['app.box.com', '*.app.box.com', 'dl.boxcloud.com', '*.boxcloud.com'];

export type TrustProxy = false | number | string[];

function parseBoolean(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['false', '0', 'no', 'off'].includes(value.toLowerCase());
}

function parsePort(value: string | undefined): number {
  const port = Number(value ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${value}`);
  return port;
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: unset, `false`/`off`/`0`: no proxy is trusted; a whole number: that many hops in front of the
 * service; otherwise a comma-separated list of addresses or CIDRs. `true` (trust whoever connects) is refused,
 * since it lets any client write its own address into the evidence.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (text === '' || ['false', 'off', 'no', '0'].includes(text.toLowerCase())) return false;
  if (/^\d+$/.test(text)) return Number(text);
  if (['true', 'yes', 'on'].includes(text.toLowerCase())) {
    throw new Error('TRUST_PROXY=true would trust X-Forwarded-For from any client; give the number of proxies in front of the service or their addresses/CIDRs');
  }
  const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    if (PROXY_NAMES.includes(entry)) continue;
    const [address, bits, extra] = entry.split('/');
    const family = net.isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !bitsOk || extra !== undefined) throw new Error(`TRUST_PROXY: "${entry}" is not an IP address, a CIDR or one of ${PROXY_NAMES.join(', ')}`);
  }
  return entries;
}

function parsePositiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${name} must be a whole number of at least 1, got ${value}`);
  return number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = parsePort(env.PORT);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'no-reply@localhost',
    signupEnabled: parseBoolean(env.SIGNUP_ENABLED, true),
    tsaUrl: env.TSA_URL || undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    sofficePath: env.SOFFICE_PATH || 'soffice',
    conversionSearchPath: env.PATH || '/usr/local/bin:/usr/bin:/bin',
    logLevel: env.LOG_LEVEL || 'info',
    jobPollSeconds: Number(env.JOB_POLL_SECONDS || 0.5),
    sealWaitSeconds: parsePositiveInteger('SEAL_WAIT_SECONDS', env.SEAL_WAIT_SECONDS, 20),
    sealTestDelayMs: env.SEAL_TEST_DELAY_MS ? parsePositiveInteger('SEAL_TEST_DELAY_MS', env.SEAL_TEST_DELAY_MS, 0) : 0,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    uploadsPerMinute: parsePositiveInteger('UPLOADS_PER_MINUTE', env.UPLOADS_PER_MINUTE, 60),
    cloudImportAllowedHosts: env.CLOUD_IMPORT_ALLOWED_HOSTS
      ? env.CLOUD_IMPORT_ALLOWED_HOSTS.split(',').map((host) => host.trim()).filter(Boolean)
      : DEFAULT_CLOUD_IMPORT_HOSTS,
    outboundAllowPrivate: parseBoolean(env.OUTBOUND_ALLOW_PRIVATE, false),
    metricsToken: env.METRICS_TOKEN || undefined,
    s3: env.S3_BUCKET ? { bucket: env.S3_BUCKET, endpoint: env.S3_ENDPOINT || undefined, region: env.S3_REGION || 'us-east-1' } : undefined,
  };
}
