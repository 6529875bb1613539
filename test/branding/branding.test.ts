import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, guestToken, type TestUser } from '../helpers/factories.ts';
import { documents, organizationBranding } from '../../src/platform/db/schema/index.ts';
import { clientTokenOf, draftToSend, memberOf } from '../billing/organization-callers.ts';
import { blankPng, decodePng, jpegImage, logoPart, pngImage, putBranding, settings } from './branding-forms.ts';
import { LOGO_MAX_BYTES } from '../../src/modules/branding/branding.schemas.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function getBranding(token?: string) {
  return t.request('GET', '/organization/v1/branding', { token });
}

describe('GET and PUT /organization/v1/branding', () => {
  it('starts at the platform default', async () => {
    const owner = await createUser(t);
    const res = await getBranding(owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ primaryColor: null, senderName: null, logoUrl: null, isDefault: true, updatedAt: null });
    expect((await t.request('GET', '/organization/v1/logo', { token: owner.token })).status).toBe(404);
  });

  it('stores colour, sender name and a PNG logo, decoded and re-encoded at most 512 px; 204', async () => {
    const owner = await createUser(t);
    const original = pngImage(1000, 400, { colorType: 2 });
    const res = await putBranding(t, owner.token, [
      settings({ primaryColor: '#7A1F5C', senderName: '  Acme   Contracts ' }),
      logoPart(original),
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    const branding = (await getBranding(owner.token)).body;
    expect(branding).toMatchObject({
      primaryColor: '#7a1f5c',
      senderName: 'Acme Contracts',
      isDefault: false,
      logoUrl: expect.stringMatching(/^\/branding\/v1\/logos\/[0-9a-f]{64}$/),
    });
    const logo = await t.app.inject({
      method: 'GET',
      url: '/organization/v1/logo',
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.rawPayload.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(logo.rawPayload.equals(original)).toBe(false);
    const decoded = decodePng(logo.rawPayload);
    expect([decoded.width, decoded.height]).toEqual([512, 205]);
    // The public address serves the same bytes without a token, cacheable for good.
    const open = await t.app.inject({ method: 'GET', url: branding.logoUrl });
    expect(open.statusCode).toBe(200);
    expect(open.rawPayload.equals(logo.rawPayload)).toBe(true);
    expect(open.headers['cache-control']).toContain('immutable');
    expect(open.headers['x-content-type-options']).toBe('nosniff');
  });

  it('accepts a JPEG and stores it as PNG; a small image keeps its size', async () => {
    const owner = await createUser(t);
    expect(
      (await putBranding(t, owner.token, [settings({}), logoPart(jpegImage(300, 120), 'logo.jpg', 'image/jpeg')]))
        .status,
    ).toBe(204);
    const logo = await t.app.inject({
      method: 'GET',
      url: '/organization/v1/logo',
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const decoded = decodePng(logo.rawPayload);
    expect([decoded.width, decoded.height]).toEqual([300, 120]);
    // Colour survives the round trip (JPEG is lossy: close, not exact).
    expect(Math.abs(decoded.data[1] - 120)).toBeLessThan(8);
  });

  it('keeps the logo when a PUT has none, drops it with removeLogo, and an empty configuration is the default again', async () => {
    const owner = await createUser(t);
    await putBranding(t, owner.token, [settings({ primaryColor: '#112233' }), logoPart(pngImage(64, 64))]);
    const first = (await getBranding(owner.token)).body;
    expect((await putBranding(t, owner.token, [settings({ senderName: 'Beta Ltd' })])).status).toBe(204);
    expect((await getBranding(owner.token)).body).toMatchObject({
      primaryColor: null,
      senderName: 'Beta Ltd',
      logoUrl: first.logoUrl,
    });
    expect((await putBranding(t, owner.token, [settings({ senderName: 'Beta Ltd', removeLogo: true })])).status).toBe(
      204,
    );
    expect((await getBranding(owner.token)).body).toMatchObject({ senderName: 'Beta Ltd', logoUrl: null });
    // The old address is no longer served: no organization uses that image now.
    expect((await t.app.inject({ method: 'GET', url: first.logoUrl })).statusCode).toBe(404);
    expect((await putBranding(t, owner.token, [settings({ senderName: null })])).status).toBe(204);
    expect((await getBranding(owner.token)).body.isDefault).toBe(true);
  });

  it('branding-reset restores the platform default (owner only)', async () => {
    const owner = await createUser(t);
    await putBranding(t, owner.token, [
      settings({ primaryColor: '#334455', senderName: 'Gamma' }),
      logoPart(pngImage(32, 32)),
    ]);
    const member = await memberOf(t, owner, { BRANDING: { canView: true, canEdit: true, canDelete: true } });
    expect((await t.request('GET', '/organization/v1/branding-reset', { token: member.token })).status).toBe(403);
    expect((await getBranding(owner.token)).body.isDefault).toBe(false);
    const res = await t.request('GET', '/organization/v1/branding-reset', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ isDefault: true, primaryColor: null, logoUrl: null });
    expect((await t.request('GET', '/organization/v1/logo', { token: owner.token })).status).toBe(404);
    expect((await t.request('GET', '/organization/v1/branding-reset')).status).toBe(401);
  });
});

describe('who may read and change the branding', () => {
  let owner: TestUser;
  beforeAll(async () => {
    owner = await createUser(t);
    await putBranding(t, owner.token, [
      settings({ primaryColor: '#0a3d62', senderName: 'Delta Org' }),
      logoPart(pngImage(40, 40)),
    ]);
  });

  it("every member reads it (test/conformance/branding-read-by-members.test.ts); changing it is the owner's alone", async () => {
    const editor = await memberOf(t, owner, { BRANDING: { canView: true, canEdit: true } });
    expect((await putBranding(t, editor.token, [settings({ senderName: 'Hijack' })])).status).toBe(403);
    const other = await memberOf(t, owner, { BILLING_DETAILS: { canView: true } });
    expect((await putBranding(t, other.token, [settings({ senderName: 'Hijack' })])).status).toBe(403);
    expect((await getBranding(owner.token)).body.senderName).toBe('Delta Org');
  });

  it("401 without a token, 403 for a guest token and for a business app's write; another organization's owner sees and changes only its own", async () => {
    for (const res of [
      await getBranding(),
      await putBranding(t, undefined, [settings({})]),
      await t.request('GET', '/organization/v1/logo'),
    ])
      expect(res.status).toBe(401);
    const guest = await guestToken(t, { id: 1, userId: owner.userId, workflowId: 1 });
    expect((await getBranding(guest)).status).toBe(403);
    expect((await putBranding(t, guest, [settings({})])).status).toBe(403);
    const client = await clientTokenOf(t, owner);
    expect((await getBranding(client)).status).toBe(200);
    expect((await putBranding(t, client, [settings({ senderName: 'Partner' })])).status).toBe(403);
    expect((await t.request('GET', '/organization/v1/branding-reset', { token: client })).status).toBe(403);

    const other = await createUser(t);
    expect((await getBranding(other.token)).body.isDefault).toBe(true);
    expect((await putBranding(t, other.token, [settings({ senderName: 'Other Org' })])).status).toBe(204);
    expect((await t.request('GET', '/organization/v1/branding-reset', { token: other.token })).status).toBe(200);
    expect((await getBranding(owner.token)).body.senderName).toBe('Delta Org');
  });
});

describe('bad input', () => {
  let owner: TestUser;
  beforeAll(async () => {
    owner = await createUser(t);
  });

  async function expectRefused(parts: Parameters<typeof putBranding>[2], status: number, message: string) {
    const res = await putBranding(t, owner.token, parts);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.message).toBe(message);
    return res;
  }

  it('malformed settingsJson: 400 INVALID_BRANDING_SETTINGS (16102), nothing stored', async () => {
    for (const value of ['{"primaryColor":', '[]', '"#fff"', 'null', '42'])
      await expectRefused([settings(value)], 400, 'INVALID_BRANDING_SETTINGS');
    for (const value of [
      { primaryColor: 'red' },
      { primaryColor: '#fff' },
      { primaryColor: '#12345G' },
      { primaryColor: 'red;background:url(x)' },
      { primaryColor: 7 },
      { senderName: '' },
      { senderName: '   ' },
      { senderName: 'Line\nBreak' },
      { senderName: 'x'.repeat(61) },
      { unknown: true },
      { removeLogo: 'yes' },
    ]) {
      const res = await expectRefused([settings(value)], 400, 'INVALID_BRANDING_SETTINGS');
      expect(res.body.errorCode).toBe(16102);
    }
    await expectRefused([logoPart(pngImage(8, 8))], 400, 'INVALID_BRANDING_SETTINGS');
    await expectRefused([settings({ removeLogo: true }), logoPart(pngImage(8, 8))], 400, 'INVALID_BRANDING_SETTINGS');
    await expectRefused([settings(`{"senderName":"${'a'.repeat(17000)}"}`)], 400, 'INVALID_BRANDING_SETTINGS');
    expect((await getBranding(owner.token)).body.isDefault).toBe(true);
  });

  it('a body that is not multipart, or has unexpected parts: 400', async () => {
    const json = await t.request('PUT', '/organization/v1/branding', {
      token: owner.token,
      body: { settingsJson: '{}' },
    });
    expect(json.status).toBe(400);
    await expectRefused(
      [settings({}), { name: 'file', filename: 'x.png', contentType: 'image/png', data: pngImage(8, 8) }],
      400,
      'BAD_REQUEST_BODY',
    );
    await expectRefused([settings({}), { name: 'extra', value: 'x' }], 400, 'BAD_REQUEST_BODY');
    await expectRefused([settings({}), { name: 'logo', value: 'not a file' }], 400, 'INVALID_LOGO');
    const twoFiles = await expectRefused(
      [settings({}), logoPart(pngImage(8, 8)), logoPart(pngImage(8, 8))],
      400,
      'BAD_REQUEST_BODY',
    );
    expect(twoFiles.body.errorDescription).toMatch(/at most one file/);
    const truncated = await t.app.inject({
      method: 'PUT',
      url: '/organization/v1/branding',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: '--xyz\r\nContent-Disposition: form-data; name="settingsJson"\r\n\r\n{}',
    });
    expect(truncated.statusCode).toBe(400);
  });

  it('a logo that is not an image, an SVG, a damaged PNG or JPEG, an empty file: 400 INVALID_LOGO (16103)', async () => {
    const png = pngImage(120, 60);
    const jpg = jpegImage(120, 60);
    const cases: [string, Buffer][] = [
      ['text', Buffer.from('just some text, named logo.png')],
      [
        'svg',
        Buffer.from(
          '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
        ),
      ],
      ['bare svg', Buffer.from('  <svg xmlns="http://www.w3.org/2000/svg"/>')],
      [
        'gif',
        Buffer.from(
          'GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;',
          'latin1',
        ),
      ],
      ['truncated png', png.subarray(0, png.length - 30)],
      ['png with a damaged chunk', Buffer.concat([png.subarray(0, 40), Buffer.from([1, 2, 3, 4]), png.subarray(44)])],
      ['truncated jpeg', jpg.subarray(0, Math.floor(jpg.length / 2))],
      ['jpeg header then garbage', Buffer.concat([jpg.subarray(0, 600), Buffer.alloc(4000, 0xff)])],
      ['empty', Buffer.alloc(0)],
    ];
    for (const [name, data] of cases) {
      const res = await putBranding(t, owner.token, [
        settings({ senderName: 'Never stored' }),
        logoPart(data, 'logo.png', 'image/png'),
      ]);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body, name).toMatchObject({ message: 'INVALID_LOGO', errorCode: 16103 });
    }
    const svg = await putBranding(t, owner.token, [settings({}), logoPart(cases[1][1], 'logo.svg', 'image/svg+xml')]);
    expect(svg.body.errorDescription).toMatch(/SVG is not accepted/);
    expect((await getBranding(owner.token)).body.isDefault).toBe(true);
  });

  it('a PNG with more pixels than the decoder allows is refused before it is decoded', async () => {
    // 5000 x 5000 of one colour compresses to under 100 KB but would be 100 MB of pixels.
    const bomb = blankPng(5000, 5000);
    expect(bomb.length).toBeLessThan(LOGO_MAX_BYTES);
    const res = await putBranding(t, owner.token, [settings({}), logoPart(bomb)]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('INVALID_LOGO');
    expect(res.body.errorDescription).toMatch(/5000 x 5000 pixels/);
  });

  it('a logo over 1 MB, and a 50 MB upload, are refused with 400 LOGO_TOO_LARGE (16104); just under 1 MB is accepted', async () => {
    const noisy = pngImage(700, 350, { noise: true, colorType: 2 });
    expect(noisy.length).toBeGreaterThan(700_000);
    expect(noisy.length).toBeLessThan(1024 * 1024);
    expect((await putBranding(t, owner.token, [settings({}), logoPart(noisy)])).status).toBe(204);
    for (const size of [1024 * 1024 + 1, 50 * 1024 * 1024]) {
      const big = Buffer.concat([PNG_SIGNATURE, Buffer.alloc(size - 8, 7)]);
      const started = Date.now();
      const res = await putBranding(t, owner.token, [settings({ senderName: 'Too big' }), logoPart(big)]);
      expect(res.status, String(size)).toBe(400);
      expect(res.body).toMatchObject({ message: 'LOGO_TOO_LARGE', errorCode: 16104 });
      expect(res.headers.connection).toBe('close');
      expect(Date.now() - started).toBeLessThan(20_000);
    }
    expect((await getBranding(owner.token)).body.senderName).toBeNull();
  });
});

describe('the public logo address', () => {
  it("serves only blobs used as a logo: a document's key, an unknown key and a malformed key are 404/400", async () => {
    const owner = await createUser(t);
    const { document } = await draftToSend(t, owner);
    const [stored] = await t.platform.db.select().from(documents).where(eq(documents.id, document.id));
    expect(await t.platform.blobs.has(stored.blobKey)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: `/branding/v1/logos/${stored.blobKey}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/branding/v1/logos/${'0'.repeat(64)}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/branding/v1/logos/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(
      400,
    );
  });
});

describe('branding on mail and on the signing page', () => {
  it('every mail of the organization wears its colour, logo and sender name; other organizations keep the platform look', async () => {
    const owner = await createUser(t);
    await putBranding(t, owner.token, [
      settings({ primaryColor: '#8B0000', senderName: 'Epsilon Legal' }),
      logoPart(pngImage(80, 40)),
    ]);
    const logoUrl = (await getBranding(owner.token)).body.logoUrl;
    const { workflow, signer } = await draftToSend(t, owner);
    const sent = await t.request('POST', `/workflow/v1/${workflow.id}/commence`, {
      token: owner.token,
      body: { title: 'Branded envelope' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const [mail] = await t.mails({ to: signer.email, kind: 'COMMENCE' });
    expect(mail.subject).toBe('Branded envelope');
    expect(mail.textBody.endsWith('-- \nEpsilon Legal')).toBe(true);
    expect(mail.textBody).toContain(`${t.config.publicUrl}/sign/`);
    expect(mail.htmlBody).toContain('border-top:4px solid #8b0000');
    expect(mail.htmlBody).toContain(`<img src="${t.config.publicUrl}${logoUrl}" alt="Epsilon Legal"`);
    expect(mail.status).toBe('SENT');

    const plain = await createUser(t);
    const other = await draftToSend(t, plain);
    expect(
      (await t.request('POST', `/workflow/v1/${other.workflow.id}/commence`, { token: plain.token, body: {} })).status,
    ).toBe(200);
    const [plainMail] = await t.mails({ to: other.signer.email, kind: 'COMMENCE' });
    expect(plainMail.htmlBody).not.toContain('#8b0000');
    expect(plainMail.htmlBody).not.toContain('<img');
    expect(plainMail.textBody.endsWith('-- \nSignature Service')).toBe(true);
  });

  it("GET /workflow/v1/{id}/branding gives the recipient (guest token), the owner and a registered recipient the sender's look; others 404", async () => {
    const owner = await createUser(t);
    await putBranding(t, owner.token, [
      settings({ primaryColor: '#004d40', senderName: 'Zeta Bank' }),
      logoPart(pngImage(50, 50)),
    ]);
    const { workflow, recipient, signer } = await draftToSend(t, owner);
    expect(
      (await t.request('POST', `/workflow/v1/${workflow.id}/commence`, { token: owner.token, body: {} })).status,
    ).toBe(200);
    const expected = {
      primaryColor: '#004d40',
      senderName: 'Zeta Bank',
      logoUrl: (await getBranding(owner.token)).body.logoUrl,
    };
    const guest = await guestToken(t, recipient);
    expect((await t.request('GET', `/workflow/v1/${workflow.id}/branding`, { token: guest })).body).toEqual(expected);
    expect((await t.request('GET', `/workflow/v1/${workflow.id}/branding`, { token: owner.token })).body).toEqual(
      expected,
    );
    expect((await t.request('GET', `/workflow/v1/${workflow.id}/branding`, { token: signer.token })).body).toEqual(
      expected,
    );
    const outsider = await createUser(t);
    expect((await t.request('GET', `/workflow/v1/${workflow.id}/branding`, { token: outsider.token })).status).toBe(
      404,
    );
    const otherGuest = await guestToken(t, {
      id: recipient.id,
      userId: recipient.userId,
      workflowId: workflow.id + 1000,
    });
    expect((await t.request('GET', `/workflow/v1/${workflow.id}/branding`, { token: otherGuest })).status).toBe(404);
    expect((await t.request('GET', `/workflow/v1/${workflow.id}/branding`)).status).toBe(401);
    expect((await t.request('GET', '/workflow/v1/2147483647/branding', { token: owner.token })).status).toBe(404);
    // Without branding, every member is null: the page keeps the platform's look.
    const plain = await createUser(t);
    const draft = await draftToSend(t, plain);
    expect((await t.request('GET', `/workflow/v1/${draft.workflow.id}/branding`, { token: plain.token })).body).toEqual(
      { primaryColor: null, senderName: null, logoUrl: null },
    );
  });

  it("stores one row per organization (the owner's id is the key)", async () => {
    const owner = await createUser(t);
    for (const name of ['One', 'Two', 'Three']) await putBranding(t, owner.token, [settings({ senderName: name })]);
    const rows = await t.platform.db
      .select()
      .from(organizationBranding)
      .where(eq(organizationBranding.organizationId, owner.organizationId));
    expect(rows.map((r) => [r.senderName, r.updatedByUserId])).toEqual([['Three', owner.userId]]);
  });
});
