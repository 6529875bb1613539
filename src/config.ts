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
  logLevel: string;
  /** How often job workers poll when no notification wakes them (seconds). */
  jobPollSeconds: number;
};

function parseBoolean(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['false', '0', 'no', 'off'].includes(value.toLowerCase());
}

function parsePort(value: string | undefined): number {
  const port = Number(value ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${value}`);
  return port;
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
    logLevel: env.LOG_LEVEL || 'info',
    jobPollSeconds: Number(env.JOB_POLL_SECONDS || 0.5),
  };
}
