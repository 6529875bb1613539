import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('CSC configuration (CSC_BASE_URL, CSC_CLIENT_ID, CSC_CLIENT_SECRET, CSC_TIMEOUT_SECONDS)', () => {
  it('unset: remote signing is off', () => {
    expect(loadConfig({}).csc).toBeUndefined();
  });

  it('reads the provider, its client and the timeout', () => {
    expect(
      loadConfig({ CSC_BASE_URL: 'https://csc.example.com/', CSC_CLIENT_ID: 'svc', CSC_CLIENT_SECRET: 's3cret' }).csc,
    ).toEqual({ baseUrl: 'https://csc.example.com', clientId: 'svc', clientSecret: 's3cret', timeoutMs: 10_000 });
    expect(
      loadConfig({
        CSC_BASE_URL: 'http://127.0.0.1:9443',
        CSC_CLIENT_ID: 'svc',
        CSC_CLIENT_SECRET: 's',
        CSC_TIMEOUT_SECONDS: '2.5',
      }).csc,
    ).toMatchObject({ baseUrl: 'http://127.0.0.1:9443', timeoutMs: 2500 });
  });

  it('refuses a provider without its client, plain http off loopback, and a bad timeout, naming each variable', () => {
    expect(problems({ CSC_BASE_URL: 'https://csc.example.com' })).toEqual([
      'CSC_CLIENT_ID is unset: CSC_BASE_URL needs its client id',
      'CSC_CLIENT_SECRET is unset: CSC_BASE_URL needs its client secret',
    ]);
    expect(problems({ CSC_BASE_URL: 'http://csc.example.com', CSC_CLIENT_ID: 'a', CSC_CLIENT_SECRET: 'b' })).toEqual([
      'CSC_BASE_URL="http://csc.example.com": expected https:// (http:// only on a loopback host)',
    ]);
    expect(problems({ CSC_BASE_URL: 'ftp://csc.example.com', CSC_CLIENT_ID: 'a', CSC_CLIENT_SECRET: 'b' })[0]).toMatch(
      /^CSC_BASE_URL=/,
    );
    expect(problems({ CSC_TIMEOUT_SECONDS: '0' })).toEqual([
      'CSC_TIMEOUT_SECONDS="0": expected a number of seconds above 0, at most 120',
    ]);
  });
});
