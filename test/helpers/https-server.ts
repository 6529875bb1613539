import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

export type HttpsTestServer = {
  port: number;
  /** PEM of the server's self-signed certificate, to trust in the client under test. */
  certificate: string;
  /** Every request that arrived, as "METHOD host path". */
  requests: string[];
  close(): Promise<void>;
};

/**
 * A real https server on 127.0.0.1 with a self-signed certificate for the given names (made by openssl), for
 * tests of outbound requests. `handler` answers each request.
 */
export async function startHttpsServer(names: string[], handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, port: number) => void): Promise<HttpsTestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'https-test-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', keyFile, '-out', certFile,
    '-days', '1', '-subj', `/CN=${names[0]}`, '-addext', `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`,
  ], { stdio: 'ignore' });
  const certificate = fs.readFileSync(certFile, 'utf8');
  const requests: string[] = [];
  let port = 0;
  const server = https.createServer({ key: fs.readFileSync(keyFile), cert: certificate }, (req, res) => {
    requests.push(`${req.method} ${req.headers.host} ${req.url}`);
    handler(req, res, port);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    port,
    certificate,
    requests,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
      fs.rmSync(dir, { recursive: true, force: true });
    }),
  };
}
