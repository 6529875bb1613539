/**
 * The calls of the service's own sign-in page: POST /auth/v1/signin/authorize checks what the person typed and
 * answers where the browser continues (the web session's callback, with a one-minute code).
 */

export type SigninOutcome =
  | { kind: 'redirect'; redirectUrl: string }
  | { kind: 'totp-required' }
  | { kind: 'error'; code: string; retryAfterSeconds?: number };

export type Credentials =
  | { grant_type: 'PASSWORD'; username: string; password: string }
  | { grant_type: 'G_AUTHENTICATOR'; username: string; password: string; tOtp: string }
  /** A sign-in finished by another API (passkey, smart card) hands over its fresh refresh token. */
  | { grant_type: 'REFRESH_TOKEN'; refreshToken: string };

export async function authorize(state: string, credentials: Credentials, rememberMe: boolean): Promise<SigninOutcome> {
  let response: Response;
  try {
    response = await fetch('/auth/v1/signin/authorize', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ state, rememberMe, ...credentials }),
      credentials: 'same-origin',
    });
  } catch {
    return { kind: 'error', code: 'NETWORK' };
  }
  const body = (await response.json().catch(() => null)) as Record<string, any> | null;
  if (response.status === 202) return { kind: 'totp-required' };
  if (response.ok && typeof body?.redirectUrl === 'string') return { kind: 'redirect', redirectUrl: body.redirectUrl };
  const retryAfter = Number(response.headers.get('retry-after'));
  return {
    kind: 'error',
    code: typeof body?.message === 'string' ? body.message : `HTTP_${response.status}`,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  };
}

/** Where a browser starts a new sign-in (a fresh state). */
export const START_SIGNIN_URL = '/bff/auth/authorize';
