import 'reflect-metadata';
import crypto from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(crypto.webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

export type HttpsTestServer = {
  port: number;
  /** PEM of the server's self-signed certificate, to trust in the client under test. */
  certificate: string;
  /** Every request that arrived, as "METHOD host path". */
  requests: string[];
  close(): Promise<void>;
};

/**
 * A real https server on 127.0.0.1 with a self-signed certificate for the given names (made in the test, P-256, one
 * day), for tests of outbound requests. `handler` answers each request.
 */
export async function startHttpsServer(
  names: string[],
  handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, port: number) => void,
): Promise<HttpsTestServer> {
  const { certificate, key } = await selfSigned(names);
  const requests: string[] = [];
  let port = 0;
  const server = https.createServer({ key, cert: certificate }, (req, res) => {
    requests.push(`${req.method} ${req.headers.host} ${req.url}`);
    handler(req, res, port);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    port,
    certificate,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function selfSigned(names: string[]): Promise<{ certificate: string; key: string }> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await crypto.webcrypto.subtle.generateKey(algorithm, true, [
    'sign',
    'verify',
  ])) as crypto.webcrypto.CryptoKeyPair;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: crypto.randomBytes(8).toString('hex'),
    name: `CN=${names[0]}`,
    keys,
    signingAlgorithm: algorithm,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 24 * 3600 * 1000),
    extensions: [
      new x509.SubjectAlternativeNameExtension(names.map((name) => ({ type: 'dns' as const, value: name }))),
    ],
  });
  const pkcs8 = Buffer.from(await crypto.webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return {
    certificate: cert.toString('pem'),
    key: crypto
      .createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' })
      .export({ format: 'pem', type: 'pkcs8' }) as string,
  };
}
