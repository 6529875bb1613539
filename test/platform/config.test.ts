import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_CLOUD_IMPORT_HOSTS, loadConfig } from '../../src/config.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** The ConfigError's lines for `env`; fails the test when the environment is accepted. */
function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('configuration', () => {
  it('defaults as the README lists them', () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:8080',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      databasePoolSize: 20,
      smtpUrl: undefined,
      mailFrom: 'no-reply@localhost',
      signupEnabled: true,
      tsaUrl: undefined,
      jwtSecret: undefined,
      sofficePath: 'soffice',
      conversionSearchPath: '/usr/local/bin:/usr/bin:/bin',
      logLevel: 'info',
      jobPollSeconds: 0.5,
      sealWaitSeconds: 20,
      sealTestDelayMs: 0,
      surveyTestDelayMs: 0,
      shutdownTimeoutMs: 20000,
      shutdownDrainMs: 0,
      trustProxy: false,
      uploadsPerMinute: 60,
      cloudImportAllowedHosts: DEFAULT_CLOUD_IMPORT_HOSTS,
      outboundAllowPrivate: false,
      s3: undefined,
      metricsToken: undefined,
      adminToken: undefined,
      billingSelfService: false,
      webauthnRpId: 'localhost',
      smartCardCaFile: undefined,
      cloudImportKeys: { boxAppKey: undefined, drive: undefined },
      mailProviders: {
        emailApiUrl: 'https://api.sendgrid.com',
        cloudMailEndpoint: undefined,
        oauth2LoginUrl: 'https://login.microsoftonline.com',
        oauth2ApiUrl: 'https://graph.microsoft.com',
      },
    });
    // An empty variable counts as unset.
    expect(loadConfig({ PORT: '', SIGNUP_ENABLED: '', LOG_LEVEL: '' })).toMatchObject({
      port: 8080,
      signupEnabled: true,
      logLevel: 'info',
    });
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
  });

  it('secrets that sign or open something are long enough to resist guessing: JWT_SECRET and ADMIN_TOKEN of 32 characters or more', () => {
    expect(problems({ JWT_SECRET: 'short-secret', ADMIN_TOKEN: 'also-short' }).join('\n')).toMatch(
      /JWT_SECRET[\s\S]*ADMIN_TOKEN|ADMIN_TOKEN[\s\S]*JWT_SECRET/,
    );
    const long = 'x'.repeat(32);
    expect(loadConfig({ JWT_SECRET: long, ADMIN_TOKEN: long })).toMatchObject({ jwtSecret: long, adminToken: long });
  });

  it('reads set variables as their types', () => {
    const config = loadConfig({
      PORT: '3000',
      PUBLIC_URL: 'https://sign.example.com/',
      JOB_POLL_SECONDS: '2.5',
      SEAL_WAIT_SECONDS: '5',
      UPLOADS_PER_MINUTE: '10',
      DATABASE_POOL_SIZE: '6',
      LOG_LEVEL: 'debug',
      TRUST_PROXY: '2',
      CLOUD_IMPORT_ALLOWED_HOSTS: 'a.example, *.b.example',
      S3_BUCKET: 'files',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
    });
    expect(config).toMatchObject({
      port: 3000,
      publicUrl: 'https://sign.example.com',
      jobPollSeconds: 2.5,
      sealWaitSeconds: 5,
      uploadsPerMinute: 10,
      databasePoolSize: 6,
      logLevel: 'debug',
      trustProxy: 2,
      cloudImportAllowedHosts: ['a.example', '*.b.example'],
      s3: { bucket: 'files', endpoint: 'http://127.0.0.1:9000', region: 'us-east-1' },
    });
  });

  it('booleans: exactly true/false, 1/0, yes/no, on/off in any case', () => {
    for (const word of ['true', 'TRUE', '1', 'yes', 'Yes', 'on', 'ON'])
      expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: word }).outboundAllowPrivate).toBe(true);
    for (const word of ['false', 'False', '0', 'no', 'NO', 'off', 'Off'])
      expect(loadConfig({ SIGNUP_ENABLED: word }).signupEnabled).toBe(false);
    // A misspelling used to count as true.
    expect(problems({ SIGNUP_ENABLED: 'flase' })).toEqual([
      'SIGNUP_ENABLED="flase": expected true or false (also 1/0, yes/no, on/off)',
    ]);
    expect(problems({ OUTBOUND_ALLOW_PRIVATE: 'enabled' })).toEqual([
      'OUTBOUND_ALLOW_PRIVATE="enabled": expected true or false (also 1/0, yes/no, on/off)',
    ]);
  });

  it('numbers and ports: a non-number or one out of range names the variable, never NaN or a default', () => {
    expect(problems({ JOB_POLL_SECONDS: 'abc' })).toEqual(['JOB_POLL_SECONDS="abc": expected a number above 0']);
    expect(problems({ JOB_POLL_SECONDS: '0' })).toEqual(['JOB_POLL_SECONDS="0": expected a number above 0']);
    expect(problems({ PORT: '8o80' })).toEqual(['PORT="8o80": expected a whole number from 0 to 65535']);
    expect(problems({ PORT: '70000' })).toEqual(['PORT="70000": expected a whole number from 0 to 65535']);
    expect(problems({ SEAL_WAIT_SECONDS: '1.5' })).toEqual([
      'SEAL_WAIT_SECONDS="1.5": expected a whole number of at least 1',
    ]);
    // Fewer than 4: one job queue's transactions (seal, survey: 4 at a time) could hold every connection.
    expect(problems({ DATABASE_POOL_SIZE: '3' })).toEqual([
      'DATABASE_POOL_SIZE="3": expected a whole number from 4 to 1000',
    ]);
    expect(problems({ UPLOADS_PER_MINUTE: '0' })).toEqual([
      'UPLOADS_PER_MINUTE="0": expected a whole number of at least 1',
    ]);
    expect(problems({ SEAL_TEST_DELAY_MS: '-5' })).toEqual([
      'SEAL_TEST_DELAY_MS="-5": expected a whole number of at least 0',
    ]);
  });

  it('words and URLs: a log level pino does not know, a URL without its scheme', () => {
    expect(problems({ LOG_LEVEL: 'verbose' })).toEqual([
      'LOG_LEVEL="verbose": expected one of fatal, error, warn, info, debug, trace, silent',
    ]);
    expect(problems({ PUBLIC_URL: 'sign.example.com' })).toEqual([
      'PUBLIC_URL="sign.example.com": expected an http:// or https:// URL',
    ]);
    expect(problems({ TRUST_PROXY: '10.0.0.0/33' })).toEqual([
      'TRUST_PROXY: "10.0.0.0/33" is not an IP address, a CIDR or one of loopback, linklocal, uniquelocal',
    ]);
  });

  it('reports every bad variable together', () => {
    const lines = problems({
      PORT: 'http',
      SIGNUP_ENABLED: 'maybe',
      LOG_LEVEL: 'loud',
      JOB_POLL_SECONDS: 'x',
      TRUST_PROXY: 'true',
    });
    expect(lines.map((line) => line.split(/[=:]/)[0])).toEqual([
      'PORT',
      'SIGNUP_ENABLED',
      'LOG_LEVEL',
      'JOB_POLL_SECONDS',
      'TRUST_PROXY',
    ]);
  });

  it('the service refuses to start on a bad variable, saying which and why', () => {
    const run = spawnSync(process.execPath, ['src/main.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        SIGNUP_ENABLED: 'ture',
        JOB_POLL_SECONDS: 'soon',
        DATA_DIR: path.join(root, 'never-created'),
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('invalid configuration');
    expect(run.stderr).toContain('SIGNUP_ENABLED="ture": expected true or false');
    expect(run.stderr).toContain('JOB_POLL_SECONDS="soon": expected a number above 0');
  });
});
