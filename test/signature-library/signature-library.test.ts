import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadImage } from '@napi-rs/canvas';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, guestToken, type TestUser } from '../helpers/factories.ts';
import { pngBytes, pngDataUrl, pngChunk } from '../helpers/ceremony.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const LIBRARY = '/user/v1/settings/signatures/library';

async function add(user: TestUser, body: Record<string, unknown>, status = 200) {
  const res = await t.request('POST', LIBRARY, { token: user.token, body });
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(status);
  return res.body;
}

async function list(user: TestUser) {
  const res = await t.request('GET', LIBRARY, { token: user.token });
  expect(res.status).toBe(200);
  return res.body as {
    id: number;
    kind: string;
    isDefault: boolean;
    name: string;
    image: string;
    captureMode: string;
  }[];
}

/** How many pixels of a PNG data URL are not fully transparent. */
async function inkedPixels(dataUrl: string): Promise<{ width: number; height: number; inked: number }> {
  const image = await loadImage(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'));
  const { createCanvas } = await import('@napi-rs/canvas');
  const context = createCanvas(image.width, image.height).getContext('2d');
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, image.width, image.height).data;
  let inked = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] > 0) inked += 1;
  return { width: image.width, height: image.height, inked };
}

describe('signature library', () => {
  it('adds drawn entries: the first of a kind is its default, the image is stored normalised', async () => {
    const user = await createUser(t);
    const first = await add(user, {
      kind: 'SIGNATURE',
      name: 'Full signature',
      captureMode: 'DRAW',
      image: pngDataUrl(60, 20, 1),
    });
    expect(first).toEqual({
      id: expect.any(Number),
      kind: 'SIGNATURE',
      name: 'Full signature',
      image: expect.stringMatching(/^data:image\/png;base64,/),
      captureMode: 'DRAW',
      isDefault: true,
      createdAt: expect.any(String),
    });
    expect((await inkedPixels(first.image)).width).toBe(60);
    const second = await add(user, {
      kind: 'SIGNATURE',
      name: 'Short',
      captureMode: 'DRAW',
      image: pngDataUrl(30, 10, 2),
    });
    expect(second.isDefault).toBe(false);
    const initials = await add(user, {
      kind: 'INITIALS',
      name: 'AB',
      captureMode: 'DRAW',
      image: pngDataUrl(20, 10, 3),
    });
    expect(initials.isDefault).toBe(true);
    expect((await list(user)).map((e) => [e.kind, e.id, e.isDefault])).toEqual([
      ['INITIALS', initials.id, true],
      ['SIGNATURE', first.id, true],
      ['SIGNATURE', second.id, false],
    ]);
    // Nobody else sees them.
    expect(await list(await createUser(t))).toEqual([]);
  });

  it('renders typed entries server-side from the name in the chosen font', async () => {
    const user = await createUser(t);
    const script = await add(user, { kind: 'SIGNATURE', name: 'Alice Example', captureMode: 'TYPE' });
    const sans = await add(user, {
      kind: 'SIGNATURE',
      name: 'Alice Example',
      captureMode: 'TYPE',
      font: 'LIBERATION_SANS',
    });
    const other = await add(user, {
      kind: 'INITIALS',
      name: 'AE',
      captureMode: 'TYPE',
      font: 'LIBERATION_SANS_ITALIC',
    });
    expect(script.captureMode).toBe('TYPE');
    for (const entry of [script, sans, other]) {
      const pixels = await inkedPixels(entry.image);
      expect(pixels.inked, entry.name).toBeGreaterThan(200);
      expect(pixels.inked).toBeLessThan((pixels.width * pixels.height) / 2);
    }
    expect(script.image).not.toBe(sans.image);
    expect((await inkedPixels(other.image)).width).toBeLessThan((await inkedPixels(sans.image)).width);
    // Non-Latin text falls back to a font that has it.
    const cyrillic = await add(user, { kind: 'SIGNATURE', name: 'Алиса', captureMode: 'TYPE' });
    expect((await inkedPixels(cyrillic.image)).inked).toBeGreaterThan(200);
  });

  it('keeps upload for stamps and refuses mismatched capture modes', async () => {
    const user = await createUser(t);
    expect(
      (await add(user, { kind: 'STAMP', name: 'Company stamp', captureMode: 'UPLOAD', image: pngDataUrl(80, 80, 4) }))
        .isDefault,
    ).toBe(true);
    for (const kind of ['SIGNATURE', 'INITIALS']) {
      const res = await add(user, { kind, name: 'x', captureMode: 'UPLOAD', image: pngDataUrl() }, 400);
      expect(res.message).toBe('INVALID_REQUEST_BODY');
    }
    // TYPE takes an image too (test/conformance/typed-library-entry.test.ts).
    expect(
      (await add(user, { kind: 'SIGNATURE', name: 'Typed', captureMode: 'TYPE', image: pngDataUrl() })).captureMode,
    ).toBe('TYPE');
    expect((await add(user, { kind: 'SIGNATURE', name: 'Drawn', captureMode: 'DRAW' }, 400)).message).toBe(
      'INVALID_REQUEST_BODY',
    );
    expect((await add(user, { kind: 'SIGNATURE', name: 'x'.repeat(51), captureMode: 'TYPE' }, 400)).message).toBe(
      'INVALID_REQUEST_BODY',
    );
    expect((await add(user, { kind: 'SIGNATURE', name: '   ', captureMode: 'TYPE' }, 400)).message).toBe(
      'INVALID_REQUEST_BODY',
    );
  });

  it('refuses images that are not acceptable PNGs, or too large', async () => {
    const user = await createUser(t);
    const jpeg = `data:image/jpeg;base64,${Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]).toString('base64')}`;
    const truncated = `data:image/png;base64,${pngBytes(40, 12).subarray(0, 60).toString('base64')}`;
    const notPng = `data:image/png;base64,${Buffer.from('hello world, not a picture').toString('base64')}`;
    for (const image of [jpeg, truncated, notPng, 'data:image/png;base64,@@@@', 'hello']) {
      const res = await add(user, { kind: 'STAMP', name: 'Bad', captureMode: 'UPLOAD', image }, 400);
      expect(res.message, image.slice(0, 30)).toBe('SIGNATURE_IMAGE_INVALID');
    }
    // 1.2 MB of PNG: the size check answers, with the size.
    const big = `data:image/png;base64,${Buffer.concat([pngBytes(40, 12), Buffer.alloc(1_200_000)]).toString('base64')}`;
    const tooBig = await add(user, { kind: 'STAMP', name: 'Big', captureMode: 'UPLOAD', image: big }, 400);
    expect(tooBig.message).toBe('SIGNATURE_IMAGE_INVALID');
    expect(tooBig.errorDescription).toMatch(/at most 1 MB/);
    // Beyond the route's body limit.
    const huge = await t.request('POST', LIBRARY, {
      token: user.token,
      body: {
        kind: 'STAMP',
        name: 'Huge',
        captureMode: 'UPLOAD',
        image: `data:image/png;base64,${'A'.repeat(3_200_000)}`,
      },
    });
    expect(huge.status).toBe(400);
    expect(huge.body.message).toBe('PAYLOAD_TOO_LARGE');
    // Under 1 MB as sent, over it once written as 8-bit RGBA: random 16-colour noise.
    const noisy = noisePalettePng(1400, 1400);
    expect(noisy.length).toBeLessThan(1024 * 1024);
    const expanded = await add(
      user,
      {
        kind: 'STAMP',
        name: 'Noise',
        captureMode: 'UPLOAD',
        image: `data:image/png;base64,${noisy.toString('base64')}`,
      },
      400,
    );
    expect(expanded.errorDescription).toMatch(/normalised/);
    expect(await list(user)).toEqual([]);
  });

  it('makes an entry the default of its kind, and hands the default on when it is deleted', async () => {
    const user = await createUser(t);
    const a = await add(user, { kind: 'SIGNATURE', name: 'A', captureMode: 'DRAW', image: pngDataUrl(10, 10, 1) });
    const b = await add(user, { kind: 'SIGNATURE', name: 'B', captureMode: 'DRAW', image: pngDataUrl(10, 10, 2) });
    const c = await add(user, { kind: 'SIGNATURE', name: 'C', captureMode: 'DRAW', image: pngDataUrl(10, 10, 3) });
    const made = await t.request('PUT', `${LIBRARY}/${b.id}/default`, { token: user.token });
    expect(made.status).toBe(200);
    expect(made.body.isDefault).toBe(true);
    expect((await list(user)).filter((e) => e.isDefault).map((e) => e.id)).toEqual([b.id]);
    expect((await t.request('DELETE', `${LIBRARY}/${b.id}`, { token: user.token })).status).toBe(204);
    expect((await list(user)).filter((e) => e.isDefault).map((e) => e.id)).toEqual([c.id]);
    expect((await t.request('DELETE', `${LIBRARY}/${a.id}`, { token: user.token })).status).toBe(204);
    expect((await list(user)).map((e) => [e.id, e.isDefault])).toEqual([[c.id, true]]);
    expect((await t.request('DELETE', `${LIBRARY}/${c.id}`, { token: user.token })).status).toBe(204);
    expect(await list(user)).toEqual([]);
  });

  it('replaces an entry with PUT, moving it to another kind', async () => {
    const user = await createUser(t);
    const first = await add(user, {
      kind: 'SIGNATURE',
      name: 'First',
      captureMode: 'DRAW',
      image: pngDataUrl(10, 10, 1),
    });
    const second = await add(user, {
      kind: 'SIGNATURE',
      name: 'Second',
      captureMode: 'DRAW',
      image: pngDataUrl(10, 10, 2),
    });
    const renamed = await t.request('PUT', `${LIBRARY}/${first.id}`, {
      token: user.token,
      body: { kind: 'SIGNATURE', name: 'Renamed', captureMode: 'TYPE' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      id: first.id,
      name: 'Renamed',
      captureMode: 'TYPE',
      isDefault: true,
      createdAt: first.createdAt,
    });
    expect(renamed.body.image).not.toBe(first.image);
    // The default moves to INITIALS (which has none): SIGNATURE's default passes on to the newest one left.
    const moved = await t.request('PUT', `${LIBRARY}/${first.id}`, {
      token: user.token,
      body: { kind: 'INITIALS', name: 'R', captureMode: 'DRAW', image: pngDataUrl(8, 8, 5) },
    });
    expect(moved.body).toMatchObject({ kind: 'INITIALS', isDefault: true });
    expect((await list(user)).map((e) => [e.kind, e.id, e.isDefault])).toEqual([
      ['INITIALS', first.id, true],
      ['SIGNATURE', second.id, true],
    ]);
    // A stamp upload cannot become a signature upload.
    const stamp = await add(user, { kind: 'STAMP', name: 'S', captureMode: 'UPLOAD', image: pngDataUrl() });
    const refused = await t.request('PUT', `${LIBRARY}/${stamp.id}`, {
      token: user.token,
      body: { kind: 'SIGNATURE', name: 'S', captureMode: 'UPLOAD', image: pngDataUrl() },
    });
    expect(refused.status).toBe(400);
  });

  it("answers 404 for another user's entry and for unknown ids", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const entry = await add(owner, { kind: 'SIGNATURE', name: 'Mine', captureMode: 'DRAW', image: pngDataUrl() });
    const body = { kind: 'SIGNATURE', name: 'Theirs', captureMode: 'DRAW', image: pngDataUrl() };
    expect((await t.request('PUT', `${LIBRARY}/${entry.id}`, { token: other.token, body })).status).toBe(404);
    expect((await t.request('PUT', `${LIBRARY}/${entry.id}/default`, { token: other.token })).status).toBe(404);
    expect((await t.request('DELETE', `${LIBRARY}/${entry.id}`, { token: other.token })).status).toBe(404);
    expect((await t.request('DELETE', `${LIBRARY}/999999`, { token: owner.token })).status).toBe(404);
    expect((await list(owner)).map((e) => e.name)).toEqual(['Mine']);
  });

  it('keeps at most 10 entries per kind', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 10; i++)
      await add(user, { kind: 'INITIALS', name: `I${i}`, captureMode: 'DRAW', image: pngDataUrl(8, 8, i) });
    const full = await add(user, { kind: 'INITIALS', name: 'One more', captureMode: 'DRAW', image: pngDataUrl() }, 400);
    expect(full.message).toBe('SIGNATURE_LIBRARY_FULL');
    await add(user, { kind: 'SIGNATURE', name: 'Other kind', captureMode: 'DRAW', image: pngDataUrl() });
  });

  it('refuses malformed bodies and other callers', async () => {
    const user = await createUser(t);
    for (const body of [
      {},
      { kind: 'SEAL', name: 'x', captureMode: 'DRAW', image: pngDataUrl() },
      { kind: 'STAMP', name: 'x', captureMode: 'PAINT' },
      { kind: 'STAMP', name: 5, captureMode: 'TYPE' },
      { kind: 'STAMP', name: 'x', captureMode: 'TYPE', font: 'COMIC' },
    ]) {
      expect((await t.request('POST', LIBRARY, { token: user.token, body })).status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.request('PUT', `${LIBRARY}/abc/default`, { token: user.token })).status).toBe(400);
    const guest = await guestToken(t, { id: 1, userId: user.userId, workflowId: 1 });
    for (const [method, url] of [
      ['GET', LIBRARY],
      ['POST', LIBRARY],
      ['PUT', `${LIBRARY}/1`],
      ['DELETE', `${LIBRARY}/1`],
      ['PUT', `${LIBRARY}/1/default`],
      ['GET', '/user/v1/settings/signatures'],
      ['PUT', '/user/v1/settings/signatures'],
    ]) {
      expect((await t.request(method, url)).status, `${method} ${url}`).toBe(401);
      expect((await t.request(method, url, { token: guest })).status, `${method} ${url}`).toBe(403);
    }
  });
});

describe('legacy PUT /user/v1/settings/signatures', () => {
  it("maps the pair onto the library's defaults and stores the digital-signature settings", async () => {
    const user = await createUser(t);
    const empty = await t.request('GET', '/user/v1/settings/signatures', { token: user.token });
    expect(empty.body).toEqual({ image: null, initialImage: null, digitalSignatures: null });
    const saved = await t.request('PUT', '/user/v1/settings/signatures', {
      token: user.token,
      body: {
        image: pngDataUrl(50, 20, 1),
        initialImage: pngDataUrl(20, 20, 2),
        digitalSignatures: { source: 'CSC_2', csc: { userName: ' csc-user ' } },
      },
    });
    expect(saved.status, JSON.stringify(saved.body).slice(0, 300)).toBe(200);
    expect(saved.body.digitalSignatures).toEqual({ source: 'CSC_2', csc: { userName: 'csc-user' } });
    const entries = await list(user);
    expect(entries.map((e) => [e.kind, e.name, e.captureMode, e.isDefault])).toEqual([
      ['INITIALS', 'Initials', 'DRAW', true],
      ['SIGNATURE', 'Signature', 'DRAW', true],
    ]);
    expect(saved.body.image).toBe(entries[1].image);
    expect(saved.body.initialImage).toBe(entries[0].image);

    // Only the image: the default signature's image changes, nothing else.
    const again = await t.request('PUT', '/user/v1/settings/signatures', {
      token: user.token,
      body: { image: pngDataUrl(70, 20, 9) },
    });
    expect(again.body.initialImage).toBe(saved.body.initialImage);
    expect(again.body.image).not.toBe(saved.body.image);
    expect(again.body.digitalSignatures).toEqual(saved.body.digitalSignatures);
    expect(await list(user)).toHaveLength(2);

    // A library default made elsewhere is what the legacy pair reads.
    const typed = await add(user, { kind: 'SIGNATURE', name: 'Typed', captureMode: 'TYPE' });
    await t.request('PUT', `${LIBRARY}/${typed.id}/default`, { token: user.token });
    expect((await t.request('GET', '/user/v1/settings/signatures', { token: user.token })).body.image).toBe(
      typed.image,
    );

    const bad = await t.request('PUT', '/user/v1/settings/signatures', {
      token: user.token,
      body: { image: 'data:image/png;base64,AAAA' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('SIGNATURE_IMAGE_INVALID');
    expect(
      (
        await t.request('PUT', '/user/v1/settings/signatures', {
          token: user.token,
          body: { digitalSignatures: { source: 'REMOTE' } },
        })
      ).status,
    ).toBe(400);
  });
});

/** A 4-bit palette PNG of random pixels: small as sent, large once each pixel is 4 bytes. */
function noisePalettePng(width: number, height: number): Buffer {
  const chunk = pngChunk;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([4, 3, 0, 0, 0], 8);
  const palette = Buffer.alloc(16 * 3);
  for (let i = 0; i < 48; i++) palette[i] = (i * 53) & 255;
  const rowBytes = Math.ceil(width / 2);
  const raw = Buffer.alloc((rowBytes + 1) * height);
  let seed = 12345;
  for (let i = 0; i < raw.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    raw[i] = i % (rowBytes + 1) === 0 ? 0 : (seed >> 16) & 255;
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('PLTE', palette),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
