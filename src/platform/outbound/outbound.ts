import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { Transform, type Readable } from 'node:stream';
import { canonicalAddress, checkAddress, hostAllowed } from './address-rules.ts';

/**
 * The one way the service makes requests to addresses that users or partners supply (cloud import, webhooks,
 * revocation checks, remote signing). Each hop of a redirect chain is checked again: scheme, host allow-list,
 * port, credentials in the URL, and every address the name resolves to. The connection is pinned to the address
 * that was checked, so a DNS answer that changes between the check and the connect (rebinding) cannot redirect it.
 */
export type OutboundPolicy = {
  /** Refuse http: (cloud import). */
  requireHttps: boolean;
  /** Host allow-list (see hostAllowed); undefined: any public host on the scheme's default port or any port. */
  allowedHosts?: readonly string[];
};

export type OutboundRequest = {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  policy: OutboundPolicy;
  /** Redirects followed at most (GET only); one more is an error. */
  maxRedirects?: number;
  /** The body is cut off with an error past this many bytes. */
  maxBytes: number;
  /** For the whole exchange up to the response head, and again for each idle gap while reading the body. */
  timeoutMs?: number;
};

export type OutboundResponse = { status: number; headers: http.IncomingHttpHeaders; url: string; body: Readable };

/**
 * POLICY: the URL or an address it leads to is not allowed (the caller's input is at fault). The others are
 * failures of the remote side: unreachable, too slow, too many redirects, too large.
 */
export type OutboundFailure = 'POLICY' | 'UNREACHABLE' | 'TIMEOUT' | 'TOO_MANY_REDIRECTS' | 'TOO_LARGE';

export class OutboundError extends Error {
  readonly failure: OutboundFailure;
  constructor(failure: OutboundFailure, message: string) {
    super(message);
    this.name = 'OutboundError';
    this.failure = failure;
  }
}

export type OutboundOptions = {
  allowPrivate: boolean;
  /** Extra trusted CA certificates (PEM), for tests that run their own https server. */
  ca?: string[];
  /** Name resolution; tests substitute it to map names onto chosen addresses. */
  resolve?: (hostname: string) => Promise<string[]>;
};

export type Outbound = { request(request: OutboundRequest): Promise<OutboundResponse> };

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export function createOutbound(options: OutboundOptions): Outbound {
  const resolve =
    options.resolve ??
    (async (hostname: string) =>
      (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address));

  async function checkedAddress(url: URL, policy: OutboundPolicy): Promise<string> {
    if (url.protocol !== 'https:' && (policy.requireHttps || url.protocol !== 'http:')) {
      throw new OutboundError('POLICY', `${url.protocol.replace(':', '')} links are not accepted; use https`);
    }
    if (url.username || url.password)
      throw new OutboundError('POLICY', 'links with a user name or password are not accepted');
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    if (policy.allowedHosts && !hostAllowed(url, policy.allowedHosts)) {
      throw new OutboundError('POLICY', `${url.host} is not an allowed host`);
    }
    const literal = canonicalAddress(hostname);
    let addresses: string[];
    if (literal) addresses = [literal];
    else {
      try {
        addresses = await resolve(hostname);
      } catch {
        throw new OutboundError('UNREACHABLE', `${hostname} could not be resolved`);
      }
    }
    if (addresses.length === 0) throw new OutboundError('UNREACHABLE', `${hostname} has no address`);
    // Every answer must pass, judged by the one normaliser whatever form the resolver wrote it in (an IPv4-mapped
    // IPv6 answer is its IPv4 address): a name that resolves to one public and one private address is refused.
    for (const address of addresses) {
      const verdict = checkAddress(address, options.allowPrivate);
      if (!verdict.allowed)
        throw new OutboundError('POLICY', `${url.host} leads to a refused address (${verdict.reason})`);
    }
    // The socket is given the canonical text of the address that was checked, so it cannot read it differently.
    return canonicalAddress(addresses[0])!;
  }

  function send(url: URL, address: string, request: OutboundRequest): Promise<http.IncomingMessage> {
    const timeoutMs = request.timeoutMs ?? 15_000;
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise((resolvePromise, reject) => {
      const req = transport.request(url, {
        method: request.method ?? 'GET',
        headers: { 'user-agent': 'signature-service', ...(request.headers ?? {}) },
        // Pinned: the socket goes to the address that was checked, whatever DNS says now; TLS still verifies the name.
        lookup: (_hostname, _opts, callback: any) => callback(null, [{ address, family: net.isIP(address) }]),
        ...(url.protocol === 'https:'
          ? {
              servername: canonicalAddress(url.hostname) ? undefined : url.hostname,
              ...(options.ca ? { ca: [...tls.rootCertificates, ...options.ca] } : {}),
            }
          : {}),
        agent: false,
        timeout: timeoutMs,
      });
      const deadline = setTimeout(
        () => req.destroy(new OutboundError('TIMEOUT', `${url.host} did not answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
      req.on('timeout', () =>
        req.destroy(new OutboundError('TIMEOUT', `${url.host} did not answer within ${timeoutMs} ms`)),
      );
      req.on('response', (response) => {
        clearTimeout(deadline);
        resolvePromise(response);
      });
      req.on('error', (error) => {
        clearTimeout(deadline);
        reject(
          error instanceof OutboundError
            ? error
            : new OutboundError('UNREACHABLE', `${url.host} could not be reached: ${(error as Error).message}`),
        );
      });
      req.end(request.body);
    });
  }

  return {
    async request(request) {
      const maxRedirects = request.maxRedirects ?? 5;
      let url = parseUrl(request.url);
      for (let hop = 0; ; hop += 1) {
        const address = await checkedAddress(url, request.policy);
        const response = await send(url, address, request);
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (REDIRECT_STATUSES.has(status) && location && (request.method ?? 'GET') === 'GET') {
          response.resume();
          if (hop >= maxRedirects) throw new OutboundError('TOO_MANY_REDIRECTS', `more than ${maxRedirects} redirects`);
          url = parseUrl(location, url);
          continue;
        }
        return {
          status,
          headers: response.headers,
          url: url.toString(),
          body: capped(response, request.maxBytes, request.timeoutMs ?? 15_000),
        };
      }
    },
  };
}

function parseUrl(value: string, base?: URL): URL {
  try {
    return new URL(value, base);
  } catch {
    throw new OutboundError('POLICY', 'not a valid URL');
  }
}

/** Passes the body through, failing with TOO_LARGE once it passes `maxBytes` (a lying Content-Length cannot get more in). */
function capped(response: http.IncomingMessage, maxBytes: number, idleMs: number): Readable {
  const declared = Number(response.headers['content-length']);
  let seen = 0;
  const limiter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > maxBytes) {
        response.destroy();
        callback(new OutboundError('TOO_LARGE', `the response is larger than ${maxBytes} bytes`));
        return;
      }
      callback(null, chunk);
    },
  });
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    process.nextTick(() =>
      limiter.destroy(new OutboundError('TOO_LARGE', `the response is larger than ${maxBytes} bytes`)),
    );
    return limiter;
  }
  response.setTimeout(idleMs, () =>
    response.destroy(new OutboundError('TIMEOUT', `the response stalled for ${idleMs} ms`)),
  );
  response.on('error', (error) =>
    limiter.destroy(
      error instanceof OutboundError ? error : new OutboundError('UNREACHABLE', (error as Error).message),
    ),
  );
  response.pipe(limiter);
  return limiter;
}
