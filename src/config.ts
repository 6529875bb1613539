import net from 'node:net';
import path from 'node:path';
import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';

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
  /** Connections the service keeps to PostgreSQL at most (requests and jobs share them). */
  databasePoolSize: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  signupEnabled: boolean;
  tsaUrl: string | undefined;
  /** Optional HMAC secret for access tokens; otherwise one is generated once into DATA_DIR. */
  jwtSecret: string | undefined;
  secretsKey: string | undefined;
  /** Where LibreOffice lives; `soffice` on PATH by default. */
  sofficePath: string;
  /** PATH as the service got it: the one variable LibreOffice inherits (it gets no secrets). */
  conversionSearchPath: string;
  logLevel: LogLevel;
  /** How often job workers poll when no notification wakes them (seconds). */
  jobPollSeconds: number;
  /** How long a download, certificate or evidence report of a COMPLETED workflow waits for its pending seal before 503. */
  sealWaitSeconds: number;
  /** Tests only (SEAL_TEST_DELAY_MS): each seal attempt waits this long first, a window to kill the process in. */
  sealTestDelayMs: number;
  /** Tests only (SURVEY_TEST_DELAY_MS): each Power Survey dispatch batch waits this long before committing, a window to kill the process in. */
  surveyTestDelayMs: number;
  /** SIGTERM/SIGINT: how long in-flight requests and running jobs get to finish before the rest is cut off (and the jobs requeued). */
  shutdownTimeoutMs: number;
  shutdownDrainMs: number;
  /**
   * Which peers may set X-Forwarded-For (the client address the audit trail records): false (no proxy, the
   * socket's address), a hop count, or addresses/CIDRs (and proxy-addr's names loopback, linklocal, uniquelocal).
   */
  trustProxy: TrustProxy;
  /** Uploads and replacements per account per rolling minute before 429 UPLOAD_RATE_LIMITED. */
  uploadsPerMinute: number;
  /** Hosts (`name`, `*.domain`, optionally `:port`) that GET /document/v1/cloud-import/box may fetch from. */
  cloudImportAllowedHosts: string[];
  /** Lets outbound requests (cloud import, webhooks, revocation checks) reach private and loopback addresses: tests only. */
  outboundAllowPrivate: boolean;
  /** Stored files in an S3-compatible bucket instead of DATA_DIR/blobs (S3_BUCKET set); credentials from the AWS SDK's usual chain. */
  s3: { bucket: string; endpoint: string | undefined; region: string } | undefined;
  /** Bearer token that GET /metrics requires; unset: the endpoint is off. */
  metricsToken: string | undefined;
  /** Bearer token of the operator's API under /admin/v1/ (ADMIN_TOKEN); unset: that API is off. */
  adminToken: string | undefined;
  /** Whether owners may choose and renew priced packages themselves (BILLING_SELF_SERVICE); false: only free ones. */
  billingSelfService: boolean;
  /** External OpenID provider for web sign-in and the SSO redirect (OIDC_ISSUER...); unset: the service's own sign-in page. */
  oidc: { issuer: string; clientId: string; clientSecret: string | undefined } | undefined;
  /** Social identity provider whose ID tokens IDP_AUTH accepts (IDP_ISSUER, IDP_CLIENT_ID); unset: IDP sign-in is off. */
  idp: { issuer: string; clientId: string } | undefined;
  /** Passkey relying-party id (WEBAUTHN_RP_ID); the expected origin is PUBLIC_URL's. */
  webauthnRpId: string;
  /** PEM bundle of the CAs whose card certificates may sign in (SMART_CARD_CA_FILE); unset: smart-card sign-in is off. */
  smartCardCaFile: string | undefined;
  /** What the profile reports for a plan that grants the provider; the Drive pair is both set or both unset. */
  cloudImportKeys: { boxAppKey: string | undefined; drive: { clientId: string; apiKey: string } | undefined };
  /** Where organizations' own mail providers are reached (MAIL_EMAIL_API_URL...): the real services unless tests point them elsewhere. */
  mailProviders: {
    emailApiUrl: string;
    cloudMailEndpoint: string | undefined;
    oauth2LoginUrl: string;
    oauth2ApiUrl: string;
  };
  /** A remote signing service speaking the CSC API v2 (connector CSC_2; CSC_BASE_URL...); unset: remote signing is off. */
  csc: { baseUrl: string; clientId: string; clientSecret: string; timeoutMs: number } | undefined;
};

/** The box provider's shared-link and download hosts. */
export const DEFAULT_CLOUD_IMPORT_HOSTS = ['app.box.com', '*.app.box.com', 'dl.boxcloud.com', '*.boxcloud.com'];

export type TrustProxy = false | number | string[];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The only spellings a boolean variable accepts (any case); anything else is a start-up error, never a guess. */
const BOOLEAN_WORDS: Record<string, boolean> = {
  true: true,
  1: true,
  yes: true,
  on: true,
  false: false,
  0: false,
  no: false,
  off: false,
};

/**
 * Every variable the service reads, as the typed value it must parse to, with its default and meaning. An empty
 * variable counts as unset. `expected` words the error for values the type alone does not explain.
 */
export const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'HTTP port' }),
  HOST: Type.String({ default: '127.0.0.1', description: 'bind address' }),
  PUBLIC_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      expected: 'an http:// or https:// URL',
      description: 'base of every link the service emails; default http://localhost:$PORT',
    }),
  ),
  DATA_DIR: Type.String({
    default: './data',
    description: 'embedded database, stored files, generated keys and certificates',
  }),
  DATABASE_URL: Type.Optional(
    Type.String({ description: 'a PostgreSQL server to use instead of the embedded database' }),
  ),
  DATABASE_POOL_SIZE: Type.Integer({
    minimum: 4,
    maximum: 1000,
    default: 20,
    description:
      'with DATABASE_URL: connections to PostgreSQL at most, shared by requests and jobs (docs/operations.md "The database")',
  }),
  SMTP_URL: Type.Optional(
    Type.String({ description: 'outbound mail; unset: mails are written as .eml files under DATA_DIR/outbox' }),
  ),
  MAIL_FROM: Type.String({ default: 'no-reply@localhost', description: 'sender of platform mail' }),
  SIGNUP_ENABLED: Type.Boolean({ default: true, description: 'whether POST /auth/v1/signup is open' }),
  TSA_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      expected: 'an http:// or https:// URL',
      description: 'an RFC 3161 time-stamp authority for the seals',
    }),
  ),
  JWT_SECRET: Type.Optional(
    Type.String({
      minLength: 32,
      expected:
        'a secret of at least 32 characters (an HS256 key shorter than that can be guessed offline from one token)',
      description: 'HMAC secret for access tokens; unset: generated once into DATA_DIR',
    }),
  ),
  SECRETS_KEY: Type.Optional(
    Type.String({
      description:
        'base64 AES-256 keys, comma-separated, the first encrypting: encrypt stored credentials (organization mail settings, CSC tokens); unset: generated once into DATA_DIR/keys',
    }),
  ),
  SOFFICE_PATH: Type.String({ default: 'soffice', description: 'LibreOffice binary that converts Word files' }),
  PATH: Type.String({ default: '/usr/local/bin:/usr/bin:/bin', description: 'the search path LibreOffice inherits' }),
  LOG_LEVEL: Type.Union(
    LOG_LEVELS.map((level) => Type.Literal(level)),
    { default: 'info', description: 'pino log level' },
  ),
  JOB_POLL_SECONDS: Type.Number({
    exclusiveMinimum: 0,
    default: 0.5,
    description: 'how often job workers poll when nothing wakes them; below 0.5 counts as 0.5',
  }),
  SEAL_WAIT_SECONDS: Type.Integer({
    minimum: 1,
    default: 20,
    description: 'how long reads of a just-completed workflow wait for its seal before 503',
  }),
  SEAL_TEST_DELAY_MS: Type.Integer({
    minimum: 0,
    default: 0,
    description: 'tests only: each seal attempt first waits this long',
  }),
  SURVEY_TEST_DELAY_MS: Type.Integer({
    minimum: 0,
    default: 0,
    description: 'tests only: each Power Survey dispatch batch waits this long before committing',
  }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({
    minimum: 0,
    maximum: 600000,
    default: 20000,
    description: 'on SIGTERM/SIGINT, how long in-flight requests and running jobs get to finish',
  }),
  SHUTDOWN_DRAIN_MS: Type.Integer({
    minimum: 0,
    maximum: 60000,
    default: 0,
    description:
      'on SIGTERM/SIGINT, how long the instance keeps serving with /admin/internal/ready answering 503 (so a load ' +
      'balancer stops sending to it) before the port closes',
  }),
  TRUST_PROXY: Type.Optional(
    Type.String({ description: 'which peers may set X-Forwarded-For: a hop count or addresses/CIDRs; unset: none' }),
  ),
  UPLOADS_PER_MINUTE: Type.Integer({
    minimum: 1,
    default: 60,
    description: 'uploads and replacements per account per rolling minute',
  }),
  CLOUD_IMPORT_ALLOWED_HOSTS: Type.Optional(
    Type.String({ description: "comma-separated hosts cloud import may fetch from; default: the box provider's" }),
  ),
  OUTBOUND_ALLOW_PRIVATE: Type.Boolean({
    default: false,
    description: 'tests only: outbound requests may reach private and loopback addresses',
  }),
  METRICS_TOKEN: Type.Optional(
    Type.String({ description: 'bearer token GET /metrics requires; unset: the endpoint is off' }),
  ),
  ADMIN_TOKEN: Type.Optional(
    Type.String({
      minLength: 32,
      expected: 'a secret of at least 32 characters',
      description: "bearer token of the operator's API under /admin/v1/ (and npm run admin); unset: that API is off",
    }),
  ),
  BILLING_SELF_SERVICE: Type.Boolean({
    default: false,
    description:
      'true: owners may choose and renew any package themselves; false: only packages whose creditsPrice is 0',
  }),
  S3_BUCKET: Type.Optional(
    Type.String({ description: 'stored files in this S3-compatible bucket instead of DATA_DIR' }),
  ),
  S3_ENDPOINT: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      expected: 'an http:// or https:// URL',
      description: 'the S3 endpoint; unset: AWS',
    }),
  ),
  S3_REGION: Type.String({ default: 'us-east-1', description: 'the S3 region' }),
  OIDC_ISSUER: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      expected: 'an https:// URL (http:// only on a loopback host)',
      description: 'external OpenID provider for web sign-in and the SSO redirect; unset: the own sign-in page',
    }),
  ),
  OIDC_CLIENT_ID: Type.Optional(Type.String({ description: 'client id at OIDC_ISSUER (required with it)' })),
  OIDC_CLIENT_SECRET: Type.Optional(
    Type.String({ description: 'client secret at OIDC_ISSUER; unset: a public client (PKCE only)' }),
  ),
  IDP_ISSUER: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      expected: 'an https:// URL (http:// only on a loopback host)',
      description: 'social identity provider whose ID tokens IDP_AUTH accepts',
    }),
  ),
  IDP_CLIENT_ID: Type.Optional(
    Type.String({ description: 'the audience (aud) the social ID tokens must name (required with IDP_ISSUER)' }),
  ),
  WEBAUTHN_RP_ID: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9.-]+$',
      expected: 'a host name',
      description: 'passkey relying-party id; default: the host of PUBLIC_URL',
    }),
  ),
  SMART_CARD_CA_FILE: Type.Optional(
    Type.String({
      description: 'PEM bundle of the CAs whose card certificates may sign in; unset: smart-card sign-in is off',
    }),
  ),
  BOX_APP_KEY: Type.Optional(
    Type.String({ description: 'box import app key the profile reports when the plan grants BOX' }),
  ),
  DRIVE_CLIENT_ID: Type.Optional(
    Type.String({
      description: 'Drive import client id (with DRIVE_API_KEY) the profile reports when the plan grants DRIVE',
    }),
  ),
  DRIVE_API_KEY: Type.Optional(Type.String({ description: 'Drive import API key (with DRIVE_CLIENT_ID)' })),
  MAIL_EMAIL_API_URL: Type.String({
    pattern: '^https?://[^\\s]+$',
    expected: 'an http:// or https:// URL',
    default: 'https://api.sendgrid.com',
    description: "organizations' EMAIL_API provider (SendGrid v3 API)",
  }),
  MAIL_CLOUD_MAIL_ENDPOINT: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      expected: 'an http:// or https:// URL',
      description: "organizations' CLOUD_MAIL provider (Amazon SES v2); unset: https://email.<REGION>.amazonaws.com",
    }),
  ),
  MAIL_OAUTH2_LOGIN_URL: Type.String({
    pattern: '^https?://[^\\s]+$',
    expected: 'an http:// or https:// URL',
    default: 'https://login.microsoftonline.com',
    description: "token authority of organizations' OAUTH2_MAIL provider (Microsoft identity platform)",
  }),
  MAIL_OAUTH2_API_URL: Type.String({
    pattern: '^https?://[^\\s]+$',
    expected: 'an http:// or https:// URL',
    default: 'https://graph.microsoft.com',
    description: "API of organizations' OAUTH2_MAIL provider (Microsoft Graph)",
  }),
  CSC_BASE_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      expected: 'an https:// URL (http:// only on a loopback host)',
      description:
        'a remote signing service speaking the CSC API v2 (its API under <base>/csc/v2/); unset: remote signing is off',
    }),
  ),
  CSC_CLIENT_ID: Type.Optional(
    Type.String({ description: "this service's OAuth 2.0 client id at CSC_BASE_URL (required with it)" }),
  ),
  CSC_CLIENT_SECRET: Type.Optional(
    Type.String({ description: "this service's OAuth 2.0 client secret at CSC_BASE_URL (required with it)" }),
  ),
  CSC_TIMEOUT_SECONDS: Type.Number({
    exclusiveMinimum: 0,
    maximum: 120,
    default: 10,
    expected: 'a number of seconds above 0, at most 120',
    description: 'how long one request to the CSC provider may take before it counts as unreachable',
  }),
});
export type Env = Static<typeof EnvSchema>;

/** Every problem with the environment at once, one line per variable, so one restart fixes them all. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`invalid configuration:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** A raw string as the type its schema wants; a string that does not parse stays a string, so validation names it. */
function typed(schema: TSchema, raw: string): unknown {
  const type = (schema as { type?: string }).type;
  if (type === 'boolean') return BOOLEAN_WORDS[raw.toLowerCase()] ?? raw;
  if (type === 'integer' || type === 'number') return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(raw) ? Number(raw) : raw;
  return raw;
}

function expectation(schema: TSchema & Record<string, any>): string {
  if (schema.expected) return schema.expected;
  if (schema.type === 'boolean') return 'true or false (also 1/0, yes/no, on/off)';
  if (schema.anyOf) return `one of ${schema.anyOf.map((option: { const: string }) => option.const).join(', ')}`;
  const bounds =
    schema.maximum !== undefined
      ? `from ${schema.minimum} to ${schema.maximum}`
      : schema.minimum !== undefined
        ? `of at least ${schema.minimum}`
        : schema.exclusiveMinimum !== undefined
          ? `above ${schema.exclusiveMinimum}`
          : '';
  return `${schema.type === 'integer' ? 'a whole number' : 'a number'}${bounds ? ` ${bounds}` : ''}`;
}

/** Parses and validates the environment against EnvSchema; throws a ConfigError listing every bad variable. */
export function parseEnv(env: NodeJS.ProcessEnv): Env {
  const raw: Record<string, string> = {};
  const input: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(EnvSchema.properties)) {
    const value = env[name]?.trim();
    if (value === undefined || value === '') continue;
    raw[name] = value;
    input[name] = typed(schema, value);
  }
  // Each set variable is checked on its own: one report names every bad variable, not just the first few.
  const problems = Object.entries(input)
    .filter(([name, value]) => !Value.Check(EnvSchema.properties[name as keyof Env], value))
    .map(
      ([name]) =>
        `${name}=${JSON.stringify(raw[name])}: expected ${expectation(EnvSchema.properties[name as keyof Env])}`,
    );
  const values = Value.Default(EnvSchema, input);
  if (problems.length > 0) throw new ConfigError(problems);
  return values as Env;
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
    throw new Error(
      'TRUST_PROXY=true would trust X-Forwarded-For from any client; give the number of proxies in front of the service or their addresses/CIDRs',
    );
  }
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (PROXY_NAMES.includes(entry)) continue;
    const [address, bits, extra] = entry.split('/');
    const family = net.isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !bitsOk || extra !== undefined)
      throw new Error(`TRUST_PROXY: "${entry}" is not an IP address, a CIDR or one of ${PROXY_NAMES.join(', ')}`);
  }
  return entries;
}

/**
 * An issuer needs its client id; its tokens must come over https, except from a provider on this machine (a
 * loopback host: development and the tests), where plain http cannot be intercepted on the network.
 */
function issuerProblems(prefix: 'OIDC' | 'IDP', issuer: string | undefined, clientId: string | undefined): string[] {
  if (!issuer) return [];
  const problems: string[] = [];
  if (!clientId) problems.push(`${prefix}_CLIENT_ID is unset: ${prefix}_ISSUER needs its client id`);
  const url = new URL(issuer);
  if (url.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
    problems.push(`${prefix}_ISSUER=${JSON.stringify(issuer)}: expected https:// (http:// only on a loopback host)`);
  }
  return problems;
}

/**
 * CSC_BASE_URL needs this service's client id and secret (a confidential client: it lists users' credentials with
 * them); the signer's authorization codes and tokens travel to it, so https, except on a loopback host.
 */
function cscProblems(values: Env): string[] {
  if (!values.CSC_BASE_URL) return [];
  const problems: string[] = [];
  if (!values.CSC_CLIENT_ID) problems.push('CSC_CLIENT_ID is unset: CSC_BASE_URL needs its client id');
  if (!values.CSC_CLIENT_SECRET) problems.push('CSC_CLIENT_SECRET is unset: CSC_BASE_URL needs its client secret');
  const url = new URL(values.CSC_BASE_URL);
  if (url.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
    problems.push(
      `CSC_BASE_URL=${JSON.stringify(values.CSC_BASE_URL)}: expected https:// (http:// only on a loopback host)`,
    );
  }
  return problems;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  let values: Env | undefined;
  try {
    values = parseEnv(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  let trustProxy: TrustProxy = false;
  try {
    trustProxy = parseTrustProxy(env.TRUST_PROXY);
  } catch (error) {
    problems.push((error as Error).message);
  }
  // The profile offers Drive import only with both keys, so one without the other is a mistake, not half a setting.
  if (values && (values.DRIVE_CLIENT_ID === undefined) !== (values.DRIVE_API_KEY === undefined)) {
    problems.push(
      `${values.DRIVE_CLIENT_ID === undefined ? 'DRIVE_CLIENT_ID' : 'DRIVE_API_KEY'} is unset: DRIVE_CLIENT_ID and DRIVE_API_KEY are set together or not at all`,
    );
  }
  if (values)
    problems.push(
      ...issuerProblems('OIDC', values.OIDC_ISSUER, values.OIDC_CLIENT_ID),
      ...issuerProblems('IDP', values.IDP_ISSUER, values.IDP_CLIENT_ID),
    );
  if (values) problems.push(...cscProblems(values));
  if (!values || problems.length > 0) throw new ConfigError(problems);
  const publicUrl = (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, '');
  return {
    port: values.PORT,
    host: values.HOST,
    publicUrl,
    dataDir: path.resolve(values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    databasePoolSize: values.DATABASE_POOL_SIZE,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    signupEnabled: values.SIGNUP_ENABLED,
    tsaUrl: values.TSA_URL,
    jwtSecret: values.JWT_SECRET,
    secretsKey: values.SECRETS_KEY,
    sofficePath: values.SOFFICE_PATH,
    conversionSearchPath: values.PATH,
    logLevel: values.LOG_LEVEL,
    jobPollSeconds: values.JOB_POLL_SECONDS,
    sealWaitSeconds: values.SEAL_WAIT_SECONDS,
    sealTestDelayMs: values.SEAL_TEST_DELAY_MS,
    surveyTestDelayMs: values.SURVEY_TEST_DELAY_MS,
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: values.SHUTDOWN_DRAIN_MS,
    trustProxy,
    uploadsPerMinute: values.UPLOADS_PER_MINUTE,
    cloudImportAllowedHosts: values.CLOUD_IMPORT_ALLOWED_HOSTS
      ? values.CLOUD_IMPORT_ALLOWED_HOSTS.split(',')
          .map((host) => host.trim())
          .filter(Boolean)
      : DEFAULT_CLOUD_IMPORT_HOSTS,
    outboundAllowPrivate: values.OUTBOUND_ALLOW_PRIVATE,
    metricsToken: values.METRICS_TOKEN,
    adminToken: values.ADMIN_TOKEN,
    billingSelfService: values.BILLING_SELF_SERVICE,
    oidc: values.OIDC_ISSUER
      ? { issuer: values.OIDC_ISSUER, clientId: values.OIDC_CLIENT_ID!, clientSecret: values.OIDC_CLIENT_SECRET }
      : undefined,
    idp: values.IDP_ISSUER ? { issuer: values.IDP_ISSUER, clientId: values.IDP_CLIENT_ID! } : undefined,
    webauthnRpId: values.WEBAUTHN_RP_ID ?? new URL(publicUrl).hostname,
    smartCardCaFile: values.SMART_CARD_CA_FILE,
    cloudImportKeys: {
      boxAppKey: values.BOX_APP_KEY,
      drive:
        values.DRIVE_CLIENT_ID && values.DRIVE_API_KEY
          ? { clientId: values.DRIVE_CLIENT_ID, apiKey: values.DRIVE_API_KEY }
          : undefined,
    },
    s3: values.S3_BUCKET
      ? { bucket: values.S3_BUCKET, endpoint: values.S3_ENDPOINT, region: values.S3_REGION }
      : undefined,
    mailProviders: {
      emailApiUrl: values.MAIL_EMAIL_API_URL,
      cloudMailEndpoint: values.MAIL_CLOUD_MAIL_ENDPOINT,
      oauth2LoginUrl: values.MAIL_OAUTH2_LOGIN_URL,
      oauth2ApiUrl: values.MAIL_OAUTH2_API_URL,
    },
    csc: values.CSC_BASE_URL
      ? {
          baseUrl: values.CSC_BASE_URL.replace(/\/+$/, ''),
          clientId: values.CSC_CLIENT_ID!,
          clientSecret: values.CSC_CLIENT_SECRET!,
          timeoutMs: Math.round(values.CSC_TIMEOUT_SECONDS * 1000),
        }
      : undefined,
  };
}
