import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * Local peers that speak the wire protocols of the four mail providers, each checking what the real service checks
 * (credentials, signature, body shape) and refusing as it would. Addresses ending in @rejected.example are refused
 * as a bad recipient by every peer.
 */

export const REJECTED_DOMAIN = 'rejected.example';

type HttpPeer = {
  url: string;
  /** While down, open connections are dropped and every new one is reset before a byte is read: the provider cannot be reached. */
  setDown(down: boolean): void;
  close(): Promise<void>;
};

async function listen(
  handler: (request: http.IncomingMessage, body: Buffer, response: http.ServerResponse) => void,
): Promise<HttpPeer> {
  const sockets = new Set<Socket>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handler(request, Buffer.concat(chunks), response));
  });
  let down = false;
  const peer: HttpPeer = {
    url: '',
    setDown(value) {
      down = value;
      if (down) for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  server.on('connection', (socket) => {
    if (down) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return peer;
}

function json(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

// ---------------------------------------------------------------- SMTP

export type SmtpReceived = { from: string; to: string[]; user: string | null; raw: string };

/** A real SMTP server on loopback accepting one login; RCPT to the rejected domain gets 550. */
export async function startSmtpPeer(login: { user: string; password: string }) {
  const received: SmtpReceived[] = [];
  const server = new SMTPServer({
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username !== login.user || auth.password !== login.password)
        return callback(new Error('Invalid username or password'));
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith(`@${REJECTED_DOMAIN}`)) {
        const error = new Error('5.1.1 Recipient address rejected: User unknown') as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: (session.user as string | undefined) ?? null,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

// ---------------------------------------------------------------- EMAIL_API: SendGrid Web API v3

export type SendGridReceived = {
  personalizations: { to: { email: string }[] }[];
  from: { email: string };
  subject: string;
  content: { type: string; value: string }[];
  attachments?: unknown[];
};

/** `POST /v3/mail/send`, Bearer API key, SendGrid's JSON body and error shapes; 202 on success. */
export async function startSendGridPeer(apiKey: string) {
  const received: SendGridReceived[] = [];
  const errors = (status: number, response: http.ServerResponse, message: string, field: string | null = null) =>
    json(response, status, { errors: [{ message, field, help: null }] });
  const peer = await listen((request, body, response) => {
    if (request.method !== 'POST' || request.url !== '/v3/mail/send') return errors(404, response, 'Not found');
    if (request.headers.authorization !== `Bearer ${apiKey}`)
      return errors(401, response, 'The provided authorization grant is invalid, expired, or revoked');
    if (!String(request.headers['content-type']).startsWith('application/json'))
      return errors(415, response, 'Content-Type should be application/json.');
    let mail: SendGridReceived;
    try {
      mail = JSON.parse(body.toString('utf8'));
    } catch {
      return errors(400, response, 'Bad Request', null);
    }
    const to = mail.personalizations?.[0]?.to?.[0]?.email;
    if (!to || !mail.from?.email)
      return errors(
        400,
        response,
        'The personalizations field is required and must have at least one personalization.',
        'personalizations',
      );
    if (typeof mail.subject !== 'string' || mail.subject === '')
      return errors(400, response, 'The subject is required.', 'subject');
    if (!Array.isArray(mail.content) || mail.content[0]?.type !== 'text/plain')
      return errors(400, response, 'If present, text/plain content must be first.', 'content.0.type');
    if (to.endsWith(`@${REJECTED_DOMAIN}`))
      return errors(400, response, 'Does not contain a valid address.', 'personalizations.0.to.0.email');
    received.push(mail);
    response.writeHead(202, { 'x-message-id': crypto.randomBytes(11).toString('base64url') });
    response.end();
  });
  return Object.assign(peer, { received });
}

// ---------------------------------------------------------------- CLOUD_MAIL: Amazon SES API v2, Signature Version 4

export type SesReceived = { from: string; to: string[]; raw: string; accessKeyId: string };

const hmac = (key: Buffer | string, data: string) => crypto.createHmac('sha256', key).update(data, 'utf8').digest();
const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex');

/** RFC 3986 encoding as SigV4 wants it (everything but unreserved characters). */
const encode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Recomputes the request's Signature Version 4 from what arrived on the wire, independently of the client that
 * signed it (AWS General Reference, "Create a signed AWS API request"): canonical request, string to sign, key
 * derived from the secret, date, region and service.
 */
function verifySigV4(
  request: http.IncomingMessage,
  body: Buffer,
  keys: Record<string, string>,
  region: string,
): { accessKeyId: string } | { error: string; message: string } {
  const authorization = String(request.headers.authorization ?? '');
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match) return { error: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' };
  const [, accessKeyId, date, scopeRegion, service, signedHeaders, signature] = match;
  const secret = keys[accessKeyId];
  if (!secret)
    return { error: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  const names = signedHeaders.split(';');
  if (
    scopeRegion !== region ||
    service !== 'ses' ||
    !names.includes('host') ||
    !names.includes('x-amz-date') ||
    !amzDate.startsWith(date)
  ) {
    return {
      error: 'IncompleteSignatureException',
      message: 'Credential should be scoped to a valid region and service, and sign host and x-amz-date.',
    };
  }
  const signedAt = Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  if (!Number.isFinite(signedAt) || Math.abs(Date.now() - signedAt) > 5 * 60_000)
    return { error: 'InvalidSignatureException', message: 'Signature expired.' };
  const url = new URL(request.url ?? '/', 'http://peer');
  const canonicalPath = url.pathname
    .split('/')
    .map((segment) => encode(encode(decodeURIComponent(segment))))
    .join('/');
  const canonicalQuery = [...url.searchParams]
    .map(([k, v]) => `${encode(k)}=${encode(v)}`)
    .sort()
    .join('&');
  const canonicalHeaders = names
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const payloadHash = String(request.headers['x-amz-content-sha256'] ?? sha256(body));
  if (payloadHash !== sha256(body))
    return {
      error: 'InvalidSignatureException',
      message: 'The provided x-amz-content-sha256 header does not match what was computed.',
    };
  const canonicalRequest = [
    request.method,
    canonicalPath,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${date}/${region}/ses/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), 'ses'), 'aws4_request');
  const expected = hmac(signingKey, stringToSign).toString('hex');
  if (!crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) {
    return {
      error: 'SignatureDoesNotMatch',
      message:
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
    };
  }
  return { accessKeyId };
}

/** `POST /v2/email/outbound-emails` (SendEmail) in REST-JSON with SigV4; errors carry x-amzn-ErrorType as SES's do. */
export async function startSesPeer(keys: Record<string, string>, region: string) {
  const received: SesReceived[] = [];
  const fail = (response: http.ServerResponse, status: number, type: string, message: string) =>
    json(
      response,
      status,
      { __type: type, message },
      { 'x-amzn-errortype': type, 'x-amzn-requestid': crypto.randomUUID() },
    );
  const peer = await listen((request, body, response) => {
    const verdict = verifySigV4(request, body, keys, region);
    if ('error' in verdict) return fail(response, 403, verdict.error, verdict.message);
    if (request.method !== 'POST' || request.url !== '/v2/email/outbound-emails')
      return fail(response, 404, 'NotFoundException', 'Unknown operation');
    let input: {
      FromEmailAddress?: string;
      Destination?: { ToAddresses?: string[] };
      Content?: { Raw?: { Data?: string } };
    };
    try {
      input = JSON.parse(body.toString('utf8'));
    } catch {
      return fail(response, 400, 'BadRequestException', 'The request body is not valid JSON');
    }
    const raw = input.Content?.Raw?.Data;
    const to = input.Destination?.ToAddresses ?? [];
    if (!raw || !input.FromEmailAddress || to.length === 0)
      return fail(response, 400, 'BadRequestException', 'Content, FromEmailAddress and Destination are required');
    const rejected = to.find((address) => address.endsWith(`@${REJECTED_DOMAIN}`));
    if (rejected)
      return fail(
        response,
        400,
        'MessageRejected',
        `Email address is not verified. The following identities failed the check in region ${region.toUpperCase()}: ${rejected}`,
      );
    received.push({
      from: input.FromEmailAddress,
      to,
      raw: Buffer.from(raw, 'base64').toString('utf8'),
      accessKeyId: verdict.accessKeyId,
    });
    json(
      response,
      200,
      { MessageId: `0100${crypto.randomBytes(16).toString('hex')}-000000` },
      { 'x-amzn-requestid': crypto.randomUUID() },
    );
  });
  return Object.assign(peer, { received });
}

// ---------------------------------------------------------------- OAUTH2_MAIL: Microsoft identity platform + Graph

export type GraphReceived = {
  mailbox: string;
  message: {
    subject: string;
    body: { contentType: string; content: string };
    toRecipients: { emailAddress: { address: string } }[];
  };
  saveToSentItems: boolean;
};

/**
 * The client-credentials token endpoint `/<tenant>/oauth2/v2.0/token` (form body, AADSTS errors) and Graph's
 * `/v1.0/users/<mailbox>/sendMail` (Bearer token, 202), which sends only as the mailboxes the app may use.
 */
export async function startGraphPeer(app: {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  mailboxes: string[];
}) {
  const received: GraphReceived[] = [];
  const tokens = new Map<string, number>();
  let tokenRequests = 0;
  const graphError = (response: http.ServerResponse, status: number, code: string, message: string) =>
    json(response, status, { error: { code, message } });
  const peer = await listen((request, body, response) => {
    const url = new URL(request.url ?? '/', 'http://peer');
    const tokenPath = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(url.pathname);
    if (request.method === 'POST' && tokenPath) {
      tokenRequests += 1;
      const form = new URLSearchParams(body.toString('utf8'));
      if (!String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
        return json(response, 400, {
          error: 'invalid_request',
          error_description: 'AADSTS900144: The request body must contain the following parameter: grant_type.',
        });
      if (decodeURIComponent(tokenPath[1]) !== app.tenantId)
        return json(response, 400, {
          error: 'invalid_tenant',
          error_description: `AADSTS90002: Tenant '${tokenPath[1]}' not found.`,
        });
      if (form.get('grant_type') !== 'client_credentials')
        return json(response, 400, {
          error: 'unsupported_grant_type',
          error_description: 'AADSTS70003: The app requested an unsupported grant type.',
        });
      if (form.get('client_id') !== app.clientId)
        return json(response, 400, {
          error: 'unauthorized_client',
          error_description: `AADSTS700016: Application with identifier '${form.get('client_id')}' was not found in the directory.`,
        });
      if (form.get('client_secret') !== app.clientSecret)
        return json(response, 401, {
          error: 'invalid_client',
          error_description: 'AADSTS7000215: Invalid client secret provided.',
        });
      if (form.get('scope') !== 'https://graph.microsoft.com/.default')
        return json(response, 400, {
          error: 'invalid_scope',
          error_description:
            'AADSTS1002012: The provided value for scope is not valid. Client credential flows must have a scope value with /.default suffixed.',
        });
      const token = crypto.randomBytes(24).toString('base64url');
      tokens.set(token, Date.now() + 3600_000);
      return json(response, 200, { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token });
    }
    const sendPath = /^\/v1\.0\/users\/([^/]+)\/sendMail$/.exec(url.pathname);
    if (request.method !== 'POST' || !sendPath)
      return graphError(response, 404, 'Request_ResourceNotFound', 'Resource not found');
    const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
    if (!bearer || !((tokens.get(bearer) ?? 0) > Date.now()))
      return graphError(
        response,
        401,
        'InvalidAuthenticationToken',
        'Access token validation failure. Invalid audience.',
      );
    const mailbox = decodeURIComponent(sendPath[1]);
    if (!app.mailboxes.includes(mailbox))
      return graphError(response, 403, 'ErrorAccessDenied', 'Access is denied. Check credentials and try again.');
    let input: GraphReceived;
    try {
      input = { ...JSON.parse(body.toString('utf8')), mailbox };
    } catch {
      return graphError(response, 400, 'BadRequest', 'Unable to read JSON request payload.');
    }
    const to = input.message?.toRecipients?.[0]?.emailAddress?.address;
    if (!to || typeof input.message.subject !== 'string' || !input.message.body?.content)
      return graphError(response, 400, 'ErrorInvalidRecipients', 'At least one recipient is not valid.');
    if (to.endsWith(`@${REJECTED_DOMAIN}`))
      return graphError(
        response,
        400,
        'ErrorInvalidRecipients',
        `At least one recipient is not valid., Recipient '${to}' is not resolved.`,
      );
    received.push(input);
    response.writeHead(202);
    response.end();
  });
  return Object.assign(peer, { received, tokenRequests: () => tokenRequests });
}
