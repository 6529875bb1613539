// The local webhook receiver of bench/webhooks.ts, in its own process (a partner's server is not the service's
// CPU): https with the certificate in BENCH_WEBHOOK_CERT_DIR, answers 204, checks every X-Signature-256 against
// the secrets the parent sends, and reports each request to the parent.
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

const dir = process.env.BENCH_WEBHOOK_CERT_DIR!;
let secrets: Record<string, string> = {};
const server = https.createServer(
  { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) },
  (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const expected = `sha256=${crypto
        .createHmac('sha256', secrets[req.url ?? ''] ?? '')
        .update(body)
        .digest('hex')}`;
      res.writeHead(204).end();
      process.send!({ validSignature: req.headers['x-signature-256'] === expected });
    });
  },
);
process.on('message', (message: { secrets?: Record<string, string>; stop?: true }) => {
  if (message.secrets) secrets = message.secrets;
  if (message.stop) {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
