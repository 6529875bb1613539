import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser } from '../helpers/factories.ts';
import { pngDataUrl } from '../helpers/ceremony.ts';

/*
 * RUNTIME.md "Shapes SPEC.md does not give": a signature library entry is {kind, name, image (data-URL PNG), captureMode
 * (DRAW, TYPE, UPLOAD; UPLOAD only for STAMP)}; POST and PUT take the same members for every mode, so a typed entry may
 * bring its image (a client that rendered the typed name itself).
 */

const LIBRARY = '/user/v1/settings/signatures/library';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('a typed (captureMode TYPE) library entry', () => {
  it('takes an image like the other modes and stores it normalised, on POST and PUT', async () => {
    const user = await createUser(t);
    const image = pngDataUrl(120, 30, 7);
    const added = await t.request('POST', LIBRARY, {
      token: user.token,
      body: { kind: 'SIGNATURE', name: 'Alice Example', captureMode: 'TYPE', image },
    });
    expect(added.status, JSON.stringify(added.body).slice(0, 300)).toBe(200);
    expect(added.body).toMatchObject({
      kind: 'SIGNATURE',
      name: 'Alice Example',
      captureMode: 'TYPE',
      isDefault: true,
      image: expect.stringMatching(/^data:image\/png;base64,/),
    });

    // The image sent is the one kept (not one the service renders from the name): the same picture as a DRAW entry of it.
    const drawn = await t.request('POST', LIBRARY, {
      token: user.token,
      body: { kind: 'SIGNATURE', name: 'Alice Example', captureMode: 'DRAW', image },
    });
    expect(added.body.image).toBe(drawn.body.image);

    const replaced = await t.request('PUT', `${LIBRARY}/${added.body.id}`, {
      token: user.token,
      body: { kind: 'INITIALS', name: 'AE', captureMode: 'TYPE', image: pngDataUrl(40, 20, 8) },
    });
    expect(replaced.status, JSON.stringify(replaced.body).slice(0, 300)).toBe(200);
    expect(replaced.body).toMatchObject({ id: added.body.id, kind: 'INITIALS', name: 'AE', captureMode: 'TYPE' });
    expect(replaced.body.image).not.toBe(added.body.image);
  });

  it('a name longer than a typed text may be (50) is fine when the image comes with it; the entry name keeps its 100-character cap', async () => {
    const user = await createUser(t);
    const long = await t.request('POST', LIBRARY, {
      token: user.token,
      body: { kind: 'SIGNATURE', name: `Dr. ${'A'.repeat(70)}`, captureMode: 'TYPE', image: pngDataUrl() },
    });
    expect(long.status, JSON.stringify(long.body).slice(0, 300)).toBe(200);
    const tooLong = await t.request('POST', LIBRARY, {
      token: user.token,
      body: { kind: 'SIGNATURE', name: 'x'.repeat(101), captureMode: 'TYPE', image: pngDataUrl() },
    });
    expect(tooLong.status).toBe(400);
  });

  it('without an image is still written by the service from the name; a bad image is refused as for any mode', async () => {
    const user = await createUser(t);
    const rendered = await t.request('POST', LIBRARY, {
      token: user.token,
      body: { kind: 'SIGNATURE', name: 'Alice Example', captureMode: 'TYPE' },
    });
    expect(rendered.status).toBe(200);
    expect(rendered.body.image).toMatch(/^data:image\/png;base64,/);
    const bad = await t.request('POST', LIBRARY, {
      token: user.token,
      body: { kind: 'SIGNATURE', name: 'Alice', captureMode: 'TYPE', image: 'data:image/png;base64,@@@@' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('SIGNATURE_IMAGE_INVALID');
    // UPLOAD stays for stamps only.
    const upload = await t.request('POST', LIBRARY, {
      token: user.token,
      body: { kind: 'SIGNATURE', name: 'Alice', captureMode: 'UPLOAD', image: pngDataUrl() },
    });
    expect(upload.status).toBe(400);
    expect(upload.body.message).toBe('INVALID_REQUEST_BODY');
  });
});
