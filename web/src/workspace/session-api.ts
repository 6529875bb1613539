/**
 * The sender's workspace talks to the service with the web session (an HttpOnly cookie the script never sees).
 * Every request carries the session's CSRF token (from GET /bff/auth/me): state changes and the GETs that write
 * (branding reset, template use, a new TOTP secret) need it, and sending it always keeps that list out of the
 * pages; a 401 (no session, or SESSION_EXPIRED)
 * sends the browser to sign in and back to the page it was on. Errors are thrown as ApiError (shared/api.ts).
 */
import { useEffect, useState } from 'react';
import { ApiError } from '../shared/api.ts';

export { ApiError } from '../shared/api.ts';

/** GET /bff/auth/me. */
export type Me = {
  userId: number;
  email: string;
  name: string;
  organizationId: number | null;
  rememberMe: boolean;
  expiresAt: string;
  csrfToken: string;
};

/** The path (with query) of the page now open: where sign-in brings the user back. */
export function currentPath(): string {
  return window.location.pathname + window.location.search;
}

/** The web sign-in that comes back to `returnTo` (a path of this service). */
export function signInUrl(returnTo: string = currentPath()): string {
  // The service takes a returnTo of at most 512 characters: a longer query is dropped rather than refused.
  const target = returnTo.length <= 512 ? returnTo : returnTo.split('?')[0].slice(0, 512);
  return `/bff/auth/authorize?returnTo=${encodeURIComponent(target)}`;
}

/** Called just before the browser leaves for sign-in (pages save unsaved input there). */
const beforeSignIn = new Set<() => void>();
export function onBeforeSignIn(save: () => void): () => void {
  beforeSignIn.add(save);
  return () => beforeSignIn.delete(save);
}

let leaving = false;
/** Leaves for sign-in once (several failing calls at once must not race each other). */
export function goToSignIn(): void {
  if (leaving) return;
  leaving = true;
  for (const save of beforeSignIn) {
    try {
      save();
    } catch {
      // saving a draft must never keep the user from signing in
    }
  }
  window.location.assign(signInUrl());
}

/** The error a failed call is thrown as: the standard body {message, errorDescription}, or the session layer's {error, code}. */
async function failure(response: Response): Promise<ApiError> {
  let body: any = null;
  try {
    body = await response.json();
  } catch {
    // not JSON
  }
  const requestId = body?.requestId ?? response.headers.get('x-request-id') ?? undefined;
  if (body && typeof body.message === 'string') {
    return new ApiError(
      response.status,
      body.message,
      body.errorDescription ?? body.message,
      body.responseBody,
      requestId,
    );
  }
  if (body && typeof body.code === 'string')
    return new ApiError(response.status, body.code, body.error ?? body.code, undefined, requestId);
  return new ApiError(
    response.status,
    `HTTP_${response.status}`,
    response.statusText || 'Request failed',
    undefined,
    requestId,
  );
}

/** The 401s that mean "there is no session" (a wrong password on some form is a 401 too, and must not sign the user out). */
function sessionEnded(error: ApiError): boolean {
  return error.status === 401 && (error.code === 'SESSION_EXPIRED' || error.code === 'UNAUTHORIZED');
}

let mePromise: Promise<Me> | null = null;

/** The session (cached for the page's life; a state change needs its CSRF token). */
export function loadMe(): Promise<Me> {
  if (!mePromise) {
    mePromise = (async () => {
      const response = await fetch('/bff/auth/me', {
        headers: { accept: 'application/json' },
        cache: 'no-store',
        credentials: 'same-origin',
      });
      if (!response.ok) throw await failure(response);
      return response.json() as Promise<Me>;
    })();
    mePromise.catch((error: unknown) => {
      mePromise = null;
      if (error instanceof ApiError && sessionEnded(error)) goToSignIn();
    });
  }
  return mePromise;
}

async function send(
  method: string,
  path: string,
  body?: BodyInit,
  headers: Record<string, string> = {},
  retried = false,
): Promise<Response> {
  const all: Record<string, string> = {
    accept: 'application/json',
    ...headers,
    'x-csrf-token': (await loadMe()).csrfToken,
  };
  const response = await fetch(path, { method, headers: all, body, cache: 'no-store', credentials: 'same-origin' });
  if (!response.ok) {
    const error = await failure(response);
    if (sessionEnded(error)) goToSignIn();
    // Signed in again in another tab: the session (and so its token) changed under this page; read it once more.
    if (error.code === 'CSRF_TOKEN_INVALID' && !retried && !(body instanceof ReadableStream)) {
      mePromise = null;
      return send(method, path, body, headers, true);
    }
    throw error;
  }
  return response;
}

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

function jsonBody(body: unknown): [BodyInit | undefined, Record<string, string>] {
  return body === undefined ? [undefined, {}] : [JSON.stringify(body), { 'content-type': 'application/json' }];
}

/** The file name of an attachment answer. */
function filenameOf(response: Response, fallback: string): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  const match = /filename\*=UTF-8''([^;]+)|filename="?([^";]+)"?/i.exec(disposition);
  if (!match) return fallback;
  try {
    return decodeURIComponent(match[1] ?? match[2] ?? fallback);
  } catch {
    return match[2] ?? fallback;
  }
}

/** XMLHttpRequest, because fetch reports no upload progress. */
function uploadWithProgress<T>(
  path: string,
  form: FormData,
  csrfToken: string,
  onProgress: (fraction: number) => void,
  method = 'POST',
): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, path);
    request.setRequestHeader('accept', 'application/json');
    request.setRequestHeader('x-csrf-token', csrfToken);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onerror = () => reject(new ApiError(0, 'NETWORK_ERROR', 'The upload did not reach the service'));
    request.onload = () => {
      const response = new Response(request.responseText || null, {
        status: request.status,
        headers: {
          'content-type': request.getResponseHeader('content-type') ?? 'application/json',
          'x-request-id': request.getResponseHeader('x-request-id') ?? '',
        },
      });
      if (response.ok) {
        onProgress(1);
        resolve(json<T>(response));
        return;
      }
      void failure(response).then((error) => {
        if (sessionEnded(error)) goToSignIn();
        reject(error);
      });
    };
    request.send(form);
  });
}

export const api = {
  async get<T>(path: string): Promise<T> {
    return json<T>(await send('GET', path));
  },
  async post<T>(path: string, body?: unknown): Promise<T> {
    return json<T>(await send('POST', path, ...jsonBody(body)));
  },
  async put<T>(path: string, body?: unknown): Promise<T> {
    return json<T>(await send('PUT', path, ...jsonBody(body)));
  },
  async delete<T>(path: string, body?: unknown): Promise<T> {
    return json<T>(await send('DELETE', path, ...jsonBody(body)));
  },
  /**
   * multipart/form-data POST (the browser sets the boundary); onProgress gets 0..1 as the body is sent. `method`
   * PUT for the endpoints that replace a file (a document's PDF).
   */
  async upload<T>(
    path: string,
    form: FormData,
    onProgress?: (fraction: number) => void,
    method: 'POST' | 'PUT' = 'POST',
  ): Promise<T> {
    if (onProgress) return uploadWithProgress<T>(path, form, (await loadMe()).csrfToken, onProgress, method);
    return json<T>(await send(method, path, form));
  },
  /** A file the service answers as an attachment (save it with saveFile from shared/api.ts). */
  async download(path: string): Promise<{ blob: Blob; filename: string; headers: Headers }> {
    const response = await send('GET', path, undefined, { accept: '*/*' });
    return { blob: await response.blob(), filename: filenameOf(response, 'download'), headers: response.headers };
  },
};

/** The signed-in user; null while loading (a missing session sends the browser to sign in). */
export function useMe(): { me: Me | null; error: ApiError | null } {
  const [state, setState] = useState<{ me: Me | null; error: ApiError | null }>({ me: null, error: null });
  useEffect(() => {
    let live = true;
    loadMe().then(
      (me) => live && setState({ me, error: null }),
      (error: unknown) =>
        live &&
        setState({
          me: null,
          error: error instanceof ApiError ? error : new ApiError(0, 'NETWORK_ERROR', String(error)),
        }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}

/**
 * A call of a public page (sign-up, email confirmation): no CSRF token, no redirect to sign-in on 401; the answer
 * or the ApiError. `csrfToken` is given when a signed-in user acts from such a page.
 */
export async function publicRequest<T>(method: string, path: string, body?: unknown, csrfToken?: string): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
    credentials: 'same-origin',
  });
  if (!response.ok) throw await failure(response);
  return json<T>(response);
}

/** The session if there is one, without sending the browser anywhere (public pages). */
export async function peekMe(): Promise<Me | null> {
  try {
    return await publicRequest<Me>('GET', '/bff/auth/me');
  } catch {
    return null;
  }
}

/** Ends the web session (CSRF-checked) and opens the URL that completes logout. */
export async function signOut(): Promise<void> {
  const { logoutUrl } = await api.post<{ logoutUrl: string }>('/bff/auth/logout');
  mePromise = null;
  window.location.assign(logoutUrl);
}

export { navigate, Link } from './router.tsx';
