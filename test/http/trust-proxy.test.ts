import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parseTrustProxy, type Config } from '../../src/config.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';

/*
 * Over a real socket from 127.0.0.1: the audit trail's IP is the peer's unless TRUST_PROXY names that peer (or
 * counts it as a hop), and only then the X-Forwarded-For entry the trusted proxy appended.
 */
const FORGED = '203.0.113.77';
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Uploads over HTTP with an X-Forwarded-For header and answers the IP the history records for the upload. */
async function recordedUploadIp(overrides: Partial<Config>): Promise<string> {
  t = await createTestApp(overrides);
  const user: TestUser = await createUser(t);
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(await makePdf(1))], { type: 'application/pdf' }), 'contract.pdf');
  const headers = { authorization: `Bearer ${user.token}`, 'x-forwarded-for': FORGED };
  const upload = await fetch(`${address}/document/v1`, { method: 'POST', headers, body: form });
  expect(upload.status).toBe(201);
  const { workflowId } = (await upload.json()) as { workflowId: number };
  const history = await fetch(`${address}/workflow/v1/${workflowId}/history`, { headers });
  expect(history.status).toBe(200);
  const { activities } = (await history.json()) as { activities: { action: string; ipAddress: string }[] };
  const created = activities.find((a) => a.action === 'Created');
  expect(created).toBeDefined();
  return created!.ipAddress;
}

describe('X-Forwarded-For and the recorded client address', () => {
  it('is ignored by default: the history records the socket peer', async () => {
    expect(await recordedUploadIp({})).toBe('127.0.0.1');
  });

  it('is ignored when TRUST_PROXY names another address', async () => {
    expect(await recordedUploadIp({ trustProxy: parseTrustProxy('10.0.0.1, 192.168.0.0/16') })).toBe('127.0.0.1');
  });

  it('is honoured when TRUST_PROXY names the peer, by address, CIDR or hop count', async () => {
    expect(await recordedUploadIp({ trustProxy: parseTrustProxy('127.0.0.1') })).toBe(FORGED);
    await t?.close();
    expect(await recordedUploadIp({ trustProxy: parseTrustProxy('10.0.0.0/8,127.0.0.0/8') })).toBe(FORGED);
    await t?.close();
    expect(await recordedUploadIp({ trustProxy: parseTrustProxy('1') })).toBe(FORGED);
  });
});

describe('TRUST_PROXY parsing', () => {
  it('is off when unset or false, a hop count when a number, else a validated list', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy(' 10.0.0.1 , fd00::/8,loopback ')).toEqual(['10.0.0.1', 'fd00::/8', 'loopback']);
  });

  it('refuses "true" and anything that is not an address or CIDR', () => {
    expect(() => parseTrustProxy('true')).toThrow(/any client/);
    expect(() => parseTrustProxy('proxy.example.com')).toThrow(/not an IP address/);
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/not an IP address/);
  });
});

afterAll(async () => {
  await t?.close();
});
