import http from 'node:http';
import crypto from 'node:crypto';
import Provider from 'oidc-provider';
import { freePort } from './free-port.ts';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';

/** An account of the test provider: the claims it releases. */
export type ProviderAccount = { sub: string; email: string; email_verified: boolean; name: string };
export type ProviderClient = {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[];
};

export type TestOidcProvider = {
  issuer: string;
  /** Accounts by sub; add or change them at any time. */
  accounts: Map<string, ProviderAccount>;
  /** Who the next login interaction signs in (the provider's login page, answered by the helper). */
  loginAs(sub: string): void;
  /** The authorization-request parameters of every interaction so far (e.g. to see idp_hint arrive). */
  interactions: Record<string, any>[];
  /** An ID token signed with the provider's own key (as its JWKS publishes it), for social sign-in tests. */
  signIdToken(
    claims: JWTPayload,
    options?: { expiresInSeconds?: number; key?: 'provider' | 'other'; alg?: string },
  ): Promise<string>;
  close(): Promise<void>;
};

/**
 * A real OpenID provider (the `oidc-provider` package) on a loopback port: discovery, authorization with PKCE,
 * token endpoint, userinfo, JWKS, RP-initiated logout. Its login and consent pages are answered by the helper
 * (the account named by loginAs), so tests follow the redirects as a browser would without filling in forms.
 */
export async function startOidcProvider(options: { clients: ProviderClient[] }): Promise<TestOidcProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const other = await generateKeyPair('RS256', { extractable: true });
  const kid = 'test-provider-key';
  const jwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const accounts = new Map<string, ProviderAccount>();
  const interactions: Record<string, any>[] = [];
  let nextLogin: string | null = null;

  const provider = new Provider(issuer, {
    clients: options.clients.map((c) => ({
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: c.client_secret ? 'client_secret_basic' : 'none',
      ...c,
    })),
    jwks: { keys: [jwk] },
    cookies: { keys: [crypto.randomBytes(16).toString('hex')] },
    findAccount: async (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      return account ? { accountId: sub, claims: async () => ({ ...account }) } : undefined;
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    scopes: ['openid', 'email', 'profile'],
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
    extraParams: ['idp_hint'],
    // Explicit lifetimes: the provider's defaults work but print a NOTICE per artifact into the test output.
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: 86400,
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    // The provider's console warnings about its development defaults are not what these tests are about.
    renderError: async (ctx: any, out: any) => {
      ctx.type = 'json';
      ctx.body = out;
    },
  });

  const handle = provider.callback();
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && /^\/interaction\/[^/]+$/.test(req.url ?? '')) {
      void interact(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    handle(req, res);
  });

  async function interact(req: http.IncomingMessage, res: http.ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    interactions.push(details.params);
    if (details.prompt.name === 'login') {
      if (!nextLogin || !accounts.has(nextLogin)) {
        await provider.interactionFinished(
          req,
          res,
          { error: 'access_denied', error_description: 'no test account to sign in' },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: nextLogin } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id });
    grant.addOIDCScope(String(details.params.scope));
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  }

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  return {
    issuer,
    accounts,
    interactions,
    loginAs(sub) {
      nextLogin = sub;
    },
    async signIdToken(claims, signOptions = {}) {
      const key: CryptoKey = signOptions.key === 'other' ? other.privateKey : privateKey;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ ...claims })
        .setProtectedHeader({ alg: signOptions.alg ?? 'RS256', kid, typ: 'JWT' })
        .setIssuer(String(claims.iss ?? issuer))
        .setIssuedAt(now)
        .setExpirationTime(now + (signOptions.expiresInSeconds ?? 600))
        .sign(key);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
