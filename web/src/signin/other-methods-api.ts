/**
 * The calls of the passkey and smart-card sign-ins. Both answer the password-login shape; the page keeps only its
 * refresh token, which it hands straight to POST /auth/v1/signin/authorize (grant REFRESH_TOKEN).
 */

export type StepResult<T> =
  | { ok: true; value: T }
  | { ok: false; code: string; reason?: string; retryAfterSeconds?: number };

async function post<T>(url: string, body: unknown): Promise<StepResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    return { ok: false, code: 'NETWORK' };
  }
  const json = (await response.json().catch(() => null)) as Record<string, any> | null;
  if (response.ok && json) return { ok: true, value: json as T };
  const retryAfter = Number(response.headers.get('retry-after'));
  return {
    ok: false,
    code: typeof json?.message === 'string' ? json.message : `HTTP_${response.status}`,
    reason: typeof json?.responseBody?.reason === 'string' ? json.responseBody.reason : undefined,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  };
}

type Session = { refreshToken: string };

// ---- Passkeys -------------------------------------------------------------------------------------------------

type RequestOptionsJSON = {
  challenge: string;
  timeout: number;
  rpId: string;
  userVerification: string;
  allowCredentials: { id: string; type: 'public-key'; transports?: string[] }[];
};

export function fromBase64url(value: string): ArrayBuffer {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

export function toBase64url(buffer: ArrayBuffer | ArrayBufferView): string {
  return toBase64(buffer).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function toBase64(buffer: ArrayBuffer | ArrayBufferView): string {
  const bytes =
    buffer instanceof ArrayBuffer
      ? new Uint8Array(buffer)
      : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function passkeysSupported(): boolean {
  return typeof window.PublicKeyCredential === 'function' && typeof navigator.credentials?.get === 'function';
}

/** The JSON request options, as navigator.credentials.get() takes them (base64url members become bytes). */
function toPublicKeyRequest(options: RequestOptionsJSON): PublicKeyCredentialRequestOptions {
  return {
    challenge: fromBase64url(options.challenge),
    timeout: options.timeout,
    rpId: options.rpId,
    userVerification: options.userVerification as UserVerificationRequirement,
    allowCredentials: options.allowCredentials.map((c) => ({
      id: fromBase64url(c.id),
      type: c.type,
      ...(c.transports ? { transports: c.transports as AuthenticatorTransport[] } : {}),
    })),
  };
}

/** The assertion as AuthenticationResponseJSON (bytes become base64url), what /auth/webauthn/login/verify takes. */
function toAssertionJSON(credential: PublicKeyCredential) {
  const response = credential.response as AuthenticatorAssertionResponse;
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: 'public-key' as const,
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      authenticatorData: toBase64url(response.authenticatorData),
      signature: toBase64url(response.signature),
      ...(response.userHandle ? { userHandle: toBase64url(response.userHandle) } : {}),
    },
    clientExtensionResults: credential.getClientExtensionResults(),
    ...(credential.authenticatorAttachment ? { authenticatorAttachment: credential.authenticatorAttachment } : {}),
  };
}

/**
 * The whole passkey sign-in: options, the browser's passkey prompt, verification. A prompt the person cancels
 * (or that times out) is `CANCELLED`.
 */
export async function passkeySignIn(username: string, rememberMe: boolean): Promise<StepResult<Session>> {
  const query = new URLSearchParams({ username });
  const options = await post<RequestOptionsJSON>(`/auth/webauthn/login/options?${query}`, {});
  if (!options.ok) return options;
  let credential: Credential | null;
  try {
    credential = await navigator.credentials.get({ publicKey: toPublicKeyRequest(options.value) });
  } catch (error) {
    const name = (error as { name?: string })?.name;
    return {
      ok: false,
      code: name === 'NotAllowedError' || name === 'AbortError' ? 'CANCELLED' : 'PASSKEY_UNAVAILABLE',
    };
  }
  if (!credential) return { ok: false, code: 'CANCELLED' };
  query.set('rememberMe', String(rememberMe));
  return post<Session>(`/auth/webauthn/login/verify?${query}`, toAssertionJSON(credential as PublicKeyCredential));
}

// ---- Smart card -----------------------------------------------------------------------------------------------

export type CardChallenge = { challengeId: string; hash: string };

export function smartCardHash(certificate: string): Promise<StepResult<CardChallenge>> {
  return post<CardChallenge>('/auth/v1/smart_card/hash', { certificate });
}

export function smartCardVerify(
  challengeId: string,
  signature: string,
  rememberMe: boolean,
): Promise<StepResult<Session>> {
  return post<Session>('/auth/v1/smart_card/signature/verify', { challengeId, signature, rememberMe });
}

/**
 * A certificate file as the hash call takes it: PEM text as it is, a binary (DER) file as bare base64.
 */
export async function readCertificateFile(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  return text.includes('-----BEGIN') ? text.trim() : toBase64(bytes);
}
