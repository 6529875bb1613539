/**
 * The HTTP client of the web app. The guest token lives in memory and in sessionStorage (this tab only),
 * so a reload keeps the session without re-redeeming the link, and closing the tab forgets it.
 */

export class ApiError extends Error {
  readonly status: number;
  /** The service's error identifier (e.g. LINK_EXPIRED), or HTTP_<status> when the body was not the standard one. */
  readonly code: string;
  readonly responseBody: unknown;
  readonly requestId: string | undefined;
  constructor(status: number, code: string, description: string, responseBody?: unknown, requestId?: string) {
    super(description);
    this.status = status;
    this.code = code;
    this.responseBody = responseBody;
    this.requestId = requestId;
  }
}

export type GuestSession = { accessToken: string; workflowId: number; recipientId: number; expiresAt: number };

const SESSION_PREFIX = 'signing-session:';

export function loadSession(code: string): GuestSession | null {
  try {
    const raw = sessionStorage.getItem(SESSION_PREFIX + code);
    if (!raw) return null;
    const session = JSON.parse(raw) as GuestSession;
    // A minute of margin: a token that is about to expire is redeemed again instead.
    return session.expiresAt > Date.now() + 60_000 ? session : null;
  } catch {
    return null;
  }
}

function storeSession(code: string, session: GuestSession): void {
  try {
    sessionStorage.setItem(SESSION_PREFIX + code, JSON.stringify(session));
  } catch {
    // Storage can be unavailable (private mode, quota); the session then lives in memory only.
  }
}

async function failure(response: Response): Promise<ApiError> {
  let body: any = null;
  try {
    body = await response.json();
  } catch {
    // not JSON
  }
  if (body && typeof body.message === 'string') {
    return new ApiError(
      response.status,
      body.message,
      body.errorDescription ?? body.message,
      body.responseBody,
      body.requestId,
    );
  }
  return new ApiError(
    response.status,
    `HTTP_${response.status}`,
    response.statusText || 'Request failed',
    undefined,
    response.headers.get('x-request-id') ?? undefined,
  );
}

export class Api {
  token: string | null = null;
  /**
   * The SHA-256 of the electronic-signature disclosure this page shows, sent with every call
   * (X-Disclosure-SHA256) so the consent record holds the text the signer read, in the language it was shown in.
   */
  disclosureHash: string | null = null;

  /** Exchanges the mailed code for a guest session (records Opened on the first redemption). */
  async redeem(code: string): Promise<GuestSession> {
    const response = await fetch(`/auth/v1/getGuestToken/${encodeURIComponent(code)}`, {
      headers: { accept: 'application/json' },
      cache: 'no-store',
    });
    if (!response.ok) throw await failure(response);
    const body = (await response.json()) as {
      accessToken: string;
      workflowId: number;
      recipientId: number;
      expiry: number;
    };
    const session = {
      accessToken: body.accessToken,
      workflowId: body.workflowId,
      recipientId: body.recipientId,
      expiresAt: Date.now() + body.expiry * 1000,
    };
    storeSession(code, session);
    this.token = session.accessToken;
    return session;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', ...extra };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (this.disclosureHash) headers['x-disclosure-sha256'] = this.disclosureHash;
    return headers;
  }

  async get<T>(path: string): Promise<T> {
    const response = await fetch(path, { headers: this.headers(), cache: 'no-store' });
    if (!response.ok) throw await failure(response);
    return response.json() as Promise<T>;
  }

  async post<T>(path: string, body?: unknown): Promise<T> {
    const init: RequestInit = {
      method: 'POST',
      headers: this.headers(body === undefined ? {} : { 'content-type': 'application/json' }),
    };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await fetch(path, init);
    if (!response.ok) throw await failure(response);
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** A file the service answers as an attachment, fetched with the token (a plain link could not carry it). */
  async download(path: string): Promise<{ blob: Blob; filename: string }> {
    const response = await fetch(path, { headers: this.headers({ accept: '*/*' }), cache: 'no-store' });
    if (!response.ok) throw await failure(response);
    const disposition = response.headers.get('content-disposition') ?? '';
    const match = /filename\*=UTF-8''([^;]+)|filename="?([^";]+)"?/i.exec(disposition);
    const filename = match ? decodeURIComponent(match[1] ?? match[2] ?? 'document.pdf') : 'document.pdf';
    return { blob: await response.blob(), filename };
  }

  /** Fire and forget, surviving the page being closed: telemetry must never block or fail the signer. */
  beacon(path: string, body: unknown): void {
    try {
      void fetch(path, {
        method: 'POST',
        keepalive: true,
        headers: this.headers({ 'content-type': 'application/json' }),
        body: JSON.stringify(body),
      }).catch(() => {});
    } catch {
      // keepalive bodies are capped at 64 kB; a lost batch is acceptable
    }
  }
}

/** Starts the browser's download of a fetched file. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
