import * as client from 'openid-client';

/** What the service needs from an ID token: who it is (a verified email) and the token itself (for logout). */
export type OidcIdentity = {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  idToken: string;
};

/** Thrown for anything the provider or the authorization response does not allow; the caller decides the answer. */
export class OidcRejected extends Error {
  readonly unreachable: boolean;
  constructor(message: string, unreachable = false) {
    super(message);
    this.unreachable = unreachable;
    this.name = 'OidcRejected';
  }
}

export type OidcRelyingParty = {
  /** The provider's authorization URL for an authorization-code request with PKCE (S256) and a nonce. */
  authorizationUrl(request: {
    redirectUri: string;
    state: string;
    nonce: string;
    codeVerifier: string;
    idpHint?: string;
  }): Promise<string>;
  /**
   * Exchanges the code of an authorization response at the token endpoint (client authentication, PKCE verifier)
   * and checks the ID token: signature by the provider's keys, issuer, audience, expiry, nonce.
   */
  exchangeCode(
    response: { redirectUri: string; params: Record<string, string | undefined> },
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<OidcIdentity>;
  /** The provider's end-session URL (RP-initiated logout) for this ID token, or null when it offers none. */
  endSessionUrl(idToken: string | null, postLogoutRedirectUri: string): Promise<string | null>;
};

/**
 * The relying party for OIDC_ISSUER (openid-client): discovery from $issuer/.well-known/openid-configuration,
 * authorization code with PKCE. Discovery runs at first use and is retried on the next request after a failure,
 * so a provider that is down at start-up does not stop the service. Plain http only for a loopback issuer (the
 * configuration refuses anything else).
 */
export function createOidcRelyingParty(settings: {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
}): OidcRelyingParty {
  let discovered: Promise<client.Configuration> | null = null;

  function configuration(): Promise<client.Configuration> {
    discovered ??= discover().catch((error: unknown) => {
      discovered = null;
      throw new OidcRejected(`The identity provider cannot be reached: ${(error as Error).message}`, true);
    });
    return discovered;
  }

  async function discover(): Promise<client.Configuration> {
    const issuer = new URL(settings.issuer);
    const insecure = issuer.protocol === 'http:';
    const auth = settings.clientSecret ? client.ClientSecretBasic(settings.clientSecret) : client.None();
    return client.discovery(issuer, settings.clientId, undefined, auth, {
      ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
      timeout: 10,
    });
  }

  return {
    async authorizationUrl({ redirectUri, state, nonce, codeVerifier, idpHint }) {
      const config = await configuration();
      const parameters: Record<string, string> = {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      };
      if (idpHint) parameters.idp_hint = idpHint;
      return client.buildAuthorizationUrl(config, parameters).href;
    },

    async exchangeCode({ redirectUri, params }, checks) {
      const config = await configuration();
      const url = new URL(redirectUri);
      for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
      // With one provider there is no mix-up to detect; a client that relays only code and state still passes RFC 9207's check.
      if (!url.searchParams.has('iss') && config.serverMetadata().authorization_response_iss_parameter_supported) {
        url.searchParams.set('iss', config.serverMetadata().issuer);
      }
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(config, url, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        throw new OidcRejected(describe(error));
      }
      const claims = tokens.claims();
      if (!claims || !tokens.id_token) throw new OidcRejected('The provider returned no ID token');
      // Providers that keep the ID token minimal (OpenID Connect's default for the code flow) give the email at userinfo.
      const profile: Record<string, unknown> =
        typeof claims.email === 'string'
          ? claims
          : await client.fetchUserInfo(config, tokens.access_token, claims.sub).catch((error: unknown) => {
              throw new OidcRejected(describe(error));
            });
      return {
        subject: claims.sub,
        email: typeof profile.email === 'string' ? profile.email : null,
        emailVerified: profile.email_verified === true,
        name: typeof profile.name === 'string' ? profile.name : null,
        idToken: tokens.id_token,
      };
    },

    async endSessionUrl(idToken, postLogoutRedirectUri) {
      const config = await configuration().catch(() => null);
      if (!config?.serverMetadata().end_session_endpoint) return null;
      const parameters: Record<string, string> = {
        post_logout_redirect_uri: postLogoutRedirectUri,
        client_id: settings.clientId,
      };
      if (idToken) parameters.id_token_hint = idToken;
      return client.buildEndSessionUrl(config, parameters).href;
    },
  };
}

/** The provider's error (error, error_description) or the check that failed, without anything secret. */
function describe(error: unknown): string {
  const failure = error as {
    error?: string;
    error_description?: string;
    message?: string;
    cause?: { error?: string; error_description?: string; message?: string };
  };
  const code = failure.error ?? failure.cause?.error;
  const description = failure.error_description ?? failure.cause?.error_description;
  if (code) return description ? `${code}: ${description}` : code;
  // openid-client words a failed check generically; the check that failed (e.g. the ID token's nonce) is its cause's.
  return failure.cause?.message ?? failure.message ?? 'The authorization response was refused';
}
