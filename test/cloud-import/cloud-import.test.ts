import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { startHttpsServer, type HttpsTestServer } from '../helpers/https-server.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { createOutbound } from '../../src/platform/outbound/outbound.ts';

/**
 * GET /document/v1/cloud-import/box against a real https server on loopback. Names resolve through a test
 * resolver (files.example.test and friends → 127.0.0.1); loopback is reachable only because the app under test
 * allows private targets, as OUTBOUND_ALLOW_PRIVATE does. The SSRF address rules themselves are tested with a
 * client that does not allow them (below), against the same server.
 */
const HOSTS = [
  'files.example.test',
  'hop.example.test',
  'other.example.test',
  'a.cdn.example.test',
  'cdn.example.test',
  'xn--fles-2we.example.test',
];
let t: TestApp;
let owner: TestUser;
let server: HttpsTestServer;
let pdf: Uint8Array;
const big = Buffer.alloc(25 * 1024 * 1024 + 1, 0x41);

beforeAll(async () => {
  pdf = await makePdf(2);
  server = await startHttpsServer(HOSTS, (req, res, port) => {
    const url = new URL(req.url ?? '/', 'https://x');
    const hops = Number(url.searchParams.get('hops') ?? 0);
    switch (url.pathname) {
      case '/doc.pdf':
        res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
        return;
      case '/hops':
        if (hops > 0) res.writeHead(302, { location: `https://hop.example.test:${port}/hops?hops=${hops - 1}` }).end();
        else res.writeHead(200).end(pdf);
        return;
      case '/to-other':
        res.writeHead(302, { location: `https://other.example.test:${port}/doc.pdf` }).end();
        return;
      case '/to-http':
        res.writeHead(301, { location: `http://files.example.test:${port}/doc.pdf` }).end();
        return;
      case '/to-loopback':
        res.writeHead(302, { location: `https://127.0.0.1:${port}/doc.pdf` }).end();
        return;
      case '/to-metadata':
        res.writeHead(302, { location: 'https://169.254.169.254/latest/meta-data/' }).end();
        return;
      case '/big-declared':
        res.writeHead(200, { 'content-length': String(big.length) }).end(big);
        return;
      case '/big-chunked':
        res.writeHead(200);
        res.write(big.subarray(0, 13 * 1024 * 1024));
        res.end(big.subarray(13 * 1024 * 1024));
        return;
      case '/missing':
        res.writeHead(404).end('no');
        return;
      default:
        res.writeHead(500).end();
    }
  });
  const resolve = async (hostname: string) =>
    HOSTS.includes(hostname) ? ['127.0.0.1'] : Promise.reject(new Error('ENOTFOUND'));
  t = await createTestApp(
    {
      cloudImportAllowedHosts: [
        `files.example.test:${server.port}`,
        `hop.example.test:${server.port}`,
        `*.cdn.example.test:${server.port}`,
      ],
      outboundAllowPrivate: true,
    },
    { outbound: createOutbound({ allowPrivate: true, ca: [server.certificate], resolve }) },
  );
  owner = await createUser(t);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await server?.close();
});

const link = (path: string, host = 'files.example.test', port?: number) =>
  `https://${host}:${port ?? server.port}${path}`;
const importLink = (value: string, token = owner.token) =>
  t.request('GET', `/document/v1/cloud-import/box?link=${encodeURIComponent(value)}`, { token });

describe('GET /document/v1/cloud-import/box', () => {
  it("answers the linked file's bytes as application/octet-stream", async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/document/v1/cloud-import/box?link=${encodeURIComponent(link('/doc.pdf'))}`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(Buffer.compare(res.rawPayload, Buffer.from(pdf))).toBe(0);
  });

  it('allows the subdomains of a `*.` entry', async () => {
    expect((await importLink(link('/doc.pdf', 'a.cdn.example.test'))).status).toBe(200);
  });

  it('follows up to 5 redirects on allowed hosts; a sixth is 500', async () => {
    expect((await importLink(link('/hops?hops=5'))).status).toBe(200);
    const six = await importLink(link('/hops?hops=6'));
    expect(six.status).toBe(500);
    expect(six.body).toMatchObject({ message: 'CLOUD_IMPORT_FAILED' });
    expect(six.body.errorDescription).toMatch(/more than 5 redirects/);
  });

  it('refuses with 400 links that are not https, not on an allowed host, carry credentials, name an odd port or an IP', async () => {
    const before = server.requests.length;
    const cases = [
      `http://files.example.test:${server.port}/doc.pdf`,
      link('/doc.pdf', 'elsewhere.test'),
      `https://user:secret@files.example.test:${server.port}/doc.pdf`,
      link('/doc.pdf', 'files.example.test', server.port + 1),
      `https://files.example.test/doc.pdf`,
      link('/doc.pdf', '127.0.0.1'),
      link('/doc.pdf', '[::1]'),
      // A Cyrillic "і" in place of the Latin "i": the URL parser turns it into punycode, which no entry names.
      link('/doc.pdf', 'fіles.example.test'),
      // `*.cdn.example.test` allows its subdomains, not the apex.
      link('/doc.pdf', 'cdn.example.test'),
      'not a url',
      'ftp://files.example.test/doc.pdf',
    ];
    for (const value of cases) {
      const res = await importLink(value);
      expect(res.status, value).toBe(400);
      expect(res.body.message, value).toBe('CLOUD_IMPORT_LINK_REFUSED');
    }
    expect(server.requests.length).toBe(before);
  });

  it('checks every redirect again: to a host off the list, to http, to an IP literal, to the metadata address', async () => {
    for (const path of ['/to-other', '/to-http', '/to-loopback', '/to-metadata']) {
      const res = await importLink(link(path));
      expect(res.status, path).toBe(400);
      expect(res.body.message).toBe('CLOUD_IMPORT_LINK_REFUSED');
    }
  });

  it('answers 500 for a file over 25 MB, declared or not, and for unreadable links', async () => {
    for (const path of ['/big-declared', '/big-chunked', '/missing']) {
      const res = await importLink(link(path));
      expect(res.status, path).toBe(500);
      expect(res.body.message).toBe('CLOUD_IMPORT_FAILED');
    }
    expect((await importLink(link('/big-declared'))).body.errorDescription).toMatch(/25 MB/);
  });

  it('answers 500 when the host cannot be reached', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const app = await createTestApp(
      { cloudImportAllowedHosts: [`files.example.test:${port}`], outboundAllowPrivate: true },
      {
        outbound: createOutbound({ allowPrivate: true, resolve: async () => ['127.0.0.1'] }),
      },
    );
    try {
      const user = await createUser(app);
      const res = await app.request(
        'GET',
        `/document/v1/cloud-import/box?link=${encodeURIComponent(`https://files.example.test:${port}/x.pdf`)}`,
        { token: user.token },
      );
      expect(res.status).toBe(500);
      expect(res.body.message).toBe('CLOUD_IMPORT_FAILED');
    } finally {
      await app.close();
    }
  });

  it('needs a signed-in user', async () => {
    expect(
      (await t.request('GET', `/document/v1/cloud-import/box?link=${encodeURIComponent(link('/doc.pdf'))}`)).status,
    ).toBe(401);
  });
});

describe('outbound address rules (OUTBOUND_ALLOW_PRIVATE unset)', () => {
  const policy = { requireHttps: true };

  it('refuses names that resolve to loopback, private, link-local or mixed answers, before connecting', async () => {
    const answers: Record<string, string[]> = {
      'loop.test': ['127.0.0.1'],
      'ten.test': ['10.1.2.3'],
      'link.test': ['169.254.10.10'],
      'v6.test': ['::1'],
      'ula.test': ['fd12::1'],
      'mapped.test': ['::ffff:127.0.0.1'],
      'mixed.test': ['93.184.216.34', '192.168.1.1'],
      'cgnat.test': ['100.64.0.1'],
    };
    const outbound = createOutbound({
      allowPrivate: false,
      ca: [server.certificate],
      resolve: async (h) => answers[h] ?? [],
    });
    const before = server.requests.length;
    for (const host of Object.keys(answers)) {
      await expect(
        outbound.request({ url: `https://${host}:${server.port}/doc.pdf`, policy, maxBytes: 1000 }),
        host,
      ).rejects.toMatchObject({ failure: 'POLICY' });
    }
    await expect(
      outbound.request({ url: `https://127.0.0.1:${server.port}/doc.pdf`, policy, maxBytes: 1000 }),
    ).rejects.toMatchObject({ failure: 'POLICY' });
    expect(server.requests.length).toBe(before);
  });

  it('never reaches a metadata address, even where private targets are allowed', async () => {
    const outbound = createOutbound({ allowPrivate: true, resolve: async () => ['169.254.169.254'] });
    await expect(
      outbound.request({ url: 'https://metadata.test/latest', policy, maxBytes: 1000 }),
    ).rejects.toMatchObject({ failure: 'POLICY' });
  });

  it('connects to the address it checked, not to a later DNS answer (rebinding)', async () => {
    let lookups = 0;
    // First answer: 127.0.0.1, where the server listens. A second look-up would say 127.0.0.2, where nothing does.
    const outbound = createOutbound({
      allowPrivate: true,
      ca: [server.certificate],
      resolve: async () => [lookups++ === 0 ? '127.0.0.1' : '127.0.0.2'],
    });
    const res = await outbound.request({ url: link('/doc.pdf'), policy, maxBytes: 10_000_000 });
    expect(res.status).toBe(200);
    res.body.resume();
    expect(lookups).toBe(1);
  });
});
