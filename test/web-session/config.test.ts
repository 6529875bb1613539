import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('OIDC_ISSUER and IDP_ISSUER', () => {
  it("are off by default and read as given (the issuer is compared exactly with the tokens' iss)", () => {
    expect(loadConfig({}).oidc).toBeUndefined();
    expect(loadConfig({}).idp).toBeUndefined();
    const config = loadConfig({
      OIDC_ISSUER: 'https://login.example/',
      OIDC_CLIENT_ID: 'web',
      OIDC_CLIENT_SECRET: 's',
      IDP_ISSUER: 'https://accounts.example',
      IDP_CLIENT_ID: 'app',
    });
    expect(config.oidc).toEqual({ issuer: 'https://login.example/', clientId: 'web', clientSecret: 's' });
    expect(config.idp).toEqual({ issuer: 'https://accounts.example', clientId: 'app' });
  });

  it('need their client id, and https unless the issuer is on a loopback host', () => {
    expect(problems({ OIDC_ISSUER: 'https://login.example' }).join()).toContain('OIDC_CLIENT_ID is unset');
    expect(problems({ IDP_ISSUER: 'https://accounts.example' }).join()).toContain('IDP_CLIENT_ID is unset');
    expect(problems({ OIDC_ISSUER: 'http://login.example', OIDC_CLIENT_ID: 'web' }).join()).toContain(
      'expected https://',
    );
    expect(problems({ OIDC_ISSUER: 'http://127.0.0.1:9000', OIDC_CLIENT_ID: 'web' })).toEqual([]);
    expect(problems({ IDP_ISSUER: 'ftp://x', IDP_CLIENT_ID: 'a' }).join()).toContain('IDP_ISSUER');
  });
});
