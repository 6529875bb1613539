/**
 * The verified-token cache of src/platform/auth/jwt.ts: a token whose signature was checked once is answered from
 * memory, but never past its `exp`, and a token that differs by one character is checked (and refused) again.
 */
import crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenSigner } from '../../src/platform/auth/jwt.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('verified access tokens', () => {
  const signer = createTokenSigner(crypto.randomBytes(48));

  it('answers a token verified before from the cache until it expires, then refuses it', async () => {
    const token = await signer.sign({ sub: '7', type: 'USER', organizationId: 3 }, 60);
    const first = await signer.verify(token);
    expect(first).toMatchObject({ sub: '7', type: 'USER', organizationId: 3 });
    expect(await signer.verify(token)).toBe(first);
    // The claims handed out are shared: nobody may change them for the next request.
    expect(Object.isFrozen(first)).toBe(true);
    vi.useFakeTimers({ now: (first!.exp + 1) * 1000, toFake: ['Date'] });
    expect(await signer.verify(token)).toBeNull();
    expect(await signer.verify(token)).toBeNull();
  });

  it('checks a tampered copy of a cached token again and refuses it', async () => {
    const token = await signer.sign({ sub: '8', type: 'USER', organizationId: 3 }, 60);
    expect(await signer.verify(token)).not.toBeNull();
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: '1' })).toString('base64url')}.${signature}`;
    expect(await signer.verify(forged)).toBeNull();
    const flipped = `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.at(-1)}`;
    expect(await signer.verify(flipped)).toBeNull();
  });

  it('refuses a token signed with another secret even when the same claims were cached', async () => {
    const other = createTokenSigner(crypto.randomBytes(48));
    const token = await other.sign({ sub: '9', type: 'USER', organizationId: 3 }, 60);
    expect(await signer.verify(token)).toBeNull();
    expect(await other.verify(token)).not.toBeNull();
    expect(await signer.verify(token)).toBeNull();
  });
});
