import zlib from 'node:zlib';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, insertField } from '../helpers/factories.ts';
import { documentRows, fieldRow, pngBytes, sentEnvelope, waitForSeal } from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';

/**
 * Issue 7 item 7: an image value is decoded in full when it is saved and stored re-encoded as a plain PNG, so
 * that whatever is accepted seals. A PNG whose header is fine but whose data is not is refused.
 */

// ------------------------------------------------------------------------------------------------------
// PNG files built byte by byte, for the cases a drawing library would never produce

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

function chunk(type: string, data: Buffer, options: { badCrc?: boolean } = {}): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE((zlib.crc32(body) + (options.badCrc ? 1 : 0)) >>> 0);
  return Buffer.concat([length, body, crc]);
}

type PngSpec = {
  width: number;
  height: number;
  colourType: 0 | 2 | 3 | 4 | 6;
  bitDepth: number;
  interlaced?: boolean;
  /** Samples of one pixel (one per channel; a palette index for colour type 3). */
  pixel: (x: number, y: number) => number[];
  palette?: number[][];
  transparency?: number[];
  extraChunks?: Buffer[];
};

/** Packs one scanline's samples at the bit depth (MSB first below 8 bits, big-endian at 16). */
function scanline(samples: number[], bitDepth: number): Buffer {
  if (bitDepth === 16) {
    const out = Buffer.alloc(samples.length * 2);
    samples.forEach((s, i) => out.writeUInt16BE(s, i * 2));
    return out;
  }
  if (bitDepth === 8) return Buffer.from(samples);
  const out = Buffer.alloc(Math.ceil((samples.length * bitDepth) / 8));
  samples.forEach((s, i) => {
    const bit = i * bitDepth;
    out[bit >> 3] |= s << (8 - bitDepth - (bit & 7));
  });
  return out;
}

function scanlines(spec: PngSpec): Buffer {
  const passes = spec.interlaced ? ADAM7 : [[0, 0, 1, 1]];
  const rows: Buffer[] = [];
  for (const [x0, y0, dx, dy] of passes) {
    if (x0 >= spec.width) continue;
    for (let y = y0; y < spec.height; y += dy) {
      const samples: number[] = [];
      for (let x = x0; x < spec.width; x += dx) samples.push(...spec.pixel(x, y));
      rows.push(Buffer.concat([Buffer.from([0]), scanline(samples, spec.bitDepth)]));
    }
  }
  return Buffer.concat(rows);
}

function buildPng(spec: PngSpec, options: { imageData?: Buffer } = {}): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(spec.width, 0);
  header.writeUInt32BE(spec.height, 4);
  header.set([spec.bitDepth, spec.colourType, 0, 0, spec.interlaced ? 1 : 0], 8);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    ...(spec.extraChunks ?? []),
    ...(spec.palette ? [chunk('PLTE', Buffer.from(spec.palette.flat()))] : []),
    ...(spec.transparency ? [chunk('tRNS', Buffer.from(spec.transparency))] : []),
    chunk('IDAT', options.imageData ?? zlib.deflateSync(scanlines(spec))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

/** An opaque RGBA gradient: every pixel differs, so a blank or shifted decode shows. */
const rgba = (x: number, y: number) => [(x * 5) & 255, (y * 9) & 255, (x + y) & 255, 255];
const interlacedRgba: PngSpec = { width: 37, height: 23, colourType: 6, bitDepth: 8, interlaced: true, pixel: rgba };

/** Header facts and RGBA pixels of a stored data-URL PNG. */
async function storedImage(value: string) {
  const bytes = Buffer.from(value.replace(/^data:image\/png;base64,/, ''), 'base64');
  const chunkTypes: string[] = [];
  for (let offset = 8; offset < bytes.length; offset += 12 + bytes.readUInt32BE(offset))
    chunkTypes.push(bytes.toString('latin1', offset + 4, offset + 8));
  const image = await loadImage(bytes);
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return {
    width: bytes.readUInt32BE(16),
    height: bytes.readUInt32BE(20),
    bitDepth: bytes[24],
    colourType: bytes[25],
    interlace: bytes[28],
    chunkTypes,
    pixel: (x: number, y: number) => [...canvas.getContext('2d').getImageData(x, y, 1, 1).data],
  };
}

const save = (t: TestApp, token: string, documentId: number, body: unknown) =>
  t.request('POST', `/workflow/v1/${documentId}/fields/save`, { token, body });

describe('image values are decoded in full and stored as plain PNG', () => {
  test('refuses PNGs whose header is fine but whose image data is not, on fields/save and on sign', async ({
    app: t,
    owner,
  }) => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }, { fieldType: 'IMAGE' }]);
    const [signature, image] = env.fields;
    const spec: PngSpec = { width: 40, height: 12, colourType: 6, bitDepth: 8, pixel: rgba };
    const full = scanlines(spec);
    const badFilter = Buffer.from(full);
    badFilter[0] = 9;
    const cases: [string, Buffer, RegExp][] = [
      [
        'garbage instead of compressed data',
        buildPng(spec, { imageData: Buffer.from('this is not compressed image data at all; it is garbage'.repeat(4)) }),
        /does not decompress/,
      ],
      [
        'data shorter than the header promises',
        buildPng(spec, { imageData: zlib.deflateSync(full.subarray(0, full.length - 50)) }),
        /damaged/,
      ],
      [
        'data longer than the header promises',
        buildPng(spec, { imageData: zlib.deflateSync(Buffer.concat([full, Buffer.alloc(200)])) }),
        /damaged/,
      ],
      ['an invalid scanline filter', buildPng(spec, { imageData: zlib.deflateSync(badFilter) }), /filter/],
      [
        'an IDAT with a wrong checksum',
        (() => {
          const good = buildPng(spec);
          const idatCrc = good.length - 12 - 4;
          good.writeUInt32BE((good.readUInt32BE(idatCrc) ^ 1) >>> 0, idatCrc);
          return good;
        })(),
        /checksum/,
      ],
      [
        'an unknown critical chunk',
        buildPng({ ...spec, extraChunks: [chunk('ZZZZ', Buffer.from('x'))] }),
        /critical chunk/,
      ],
      [
        'a palette image without a palette',
        buildPng({ width: 4, height: 4, colourType: 3, bitDepth: 8, pixel: () => [0] }),
        /palette/,
      ],
      ['bytes after IEND', Buffer.concat([buildPng(spec), Buffer.from('trailing')]), /after its IEND/],
    ];
    for (const [label, bytes, reason] of cases) {
      const res = await save(t, env.aliceToken, env.document.id, [
        { id: image.id, type: 'IMAGE', value: dataUrl(bytes) },
      ]);
      expect(res.status, `${label}: ${res.raw}`).toBe(400);
      expect(res.body.message, label).toBe('INVALID_FIELD_VALUE');
      expect(res.body.errorDescription, label).toMatch(reason);
    }
    const garbage = cases[0][1];
    const sign = await t.request('POST', `/workflow/v1/${env.workflow.id}/sign`, {
      token: env.aliceToken,
      body: { id: signature.id, image: dataUrl(garbage) },
    });
    expect(sign.status).toBe(400);
    expect(sign.body.message).toBe('INVALID_FIELD_VALUE');
    expect((await fieldRow(t, signature.id)).value).toBeNull();
    expect((await fieldRow(t, image.id)).value).toBeNull();
  });

  test('refuses JPEG, which the decoder cannot be trusted with', async ({ app: t, owner }) => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'IMAGE' }]);
    const canvas = createCanvas(20, 10);
    canvas.getContext('2d').fillRect(0, 0, 20, 10);
    const jpeg = await canvas.encode('jpeg');
    const res = await save(t, env.aliceToken, env.document.id, [
      { id: env.fields[0].id, type: 'IMAGE', value: `data:image/jpeg;base64,${jpeg.toString('base64')}` },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('INVALID_FIELD_VALUE');
    expect(res.body.errorDescription).toMatch(/PNG only/);
    // A JPEG labelled as PNG is not a PNG either.
    const disguised = await save(t, env.aliceToken, env.document.id, [
      { id: env.fields[0].id, type: 'IMAGE', value: dataUrl(jpeg) },
    ]);
    expect(disguised.body.message).toBe('INVALID_FIELD_VALUE');
  });

  test('stores an interlaced PNG as a plain RGBA PNG with the same pixels, without ancillary chunks', async ({
    app: t,
    owner,
  }) => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }, { fieldType: 'IMAGE' }]);
    const [signature] = env.fields;
    const withText = buildPng({ ...interlacedRgba, extraChunks: [chunk('tEXt', Buffer.from('Comment\0hello'))] });
    const res = await save(t, env.aliceToken, env.document.id, [
      { id: signature.id, type: 'SIGNATURE', value: dataUrl(withText) },
    ]);
    expect(res.status, res.raw).toBe(200);
    const stored = await storedImage((await fieldRow(t, signature.id)).value!);
    expect(stored).toMatchObject({ width: 37, height: 23, bitDepth: 8, colourType: 6, interlace: 0 });
    expect(stored.chunkTypes).not.toContain('tEXt');
    for (const [x, y] of [
      [0, 0],
      [36, 22],
      [5, 17],
      [20, 3],
    ])
      expect(stored.pixel(x, y)).toEqual(rgba(x, y));
  });

  test('scales an image larger than 2048 px down, keeping its proportions', async ({ app: t, owner }) => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'IMAGE' }]);
    const res = await save(t, env.aliceToken, env.document.id, [
      { id: env.fields[0].id, type: 'IMAGE', value: dataUrl(pngBytes(3000, 600)) },
    ]);
    expect(res.status, res.raw).toBe(200);
    const stored = await storedImage((await fieldRow(t, env.fields[0].id)).value!);
    expect([stored.width, stored.height]).toEqual([2048, 410]);
  });

  test('refuses an image above 16.7 million pixels even within 8000 px a side', async ({ app: t, owner }) => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'IMAGE' }]);
    // 5000 x 4000 black pixels at 1 bit: a few kilobytes that would decode to 80 MB of RGBA.
    const spec: PngSpec = { width: 5000, height: 4000, colourType: 0, bitDepth: 1, pixel: () => [0] };
    const huge = buildPng(spec, { imageData: zlib.deflateSync(Buffer.alloc((1 + 5000 / 8) * 4000)) });
    const res = await save(t, env.aliceToken, env.document.id, [
      { id: env.fields[0].id, type: 'IMAGE', value: dataUrl(huge) },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.errorDescription).toMatch(/pixels/);
  });

  test('completes and seals an envelope signed with interlaced, palette, 16-bit and grey images (pdfsig valid)', async ({
    app: t,
    owner,
  }) => {
    const { workflow, document, selfRecipient } = await createDraftWorkflow(t, owner, { sequence: 'SELF' });
    const at = (y: number) => ({ x: 72, y, width: 180, height: 60 });
    const field = (fieldType: string, y: number) =>
      insertField(t, {
        workflowId: workflow.id,
        documentId: document.id,
        recipientId: selfRecipient!.id,
        fieldType,
        box: at(y),
      });
    const signature = await field('SIGNATURE', 80);
    const initials = await field('INITIALS', 160);
    const image = await field('IMAGE', 240);
    const stamp = await field('STAMP', 320);
    const palette = [
      [255, 0, 0],
      [0, 128, 0],
      [0, 0, 255],
      [255, 255, 255],
    ];
    const res = await save(t, owner.token, document.id, [
      { id: signature.id, type: 'SIGNATURE', value: dataUrl(buildPng(interlacedRgba)) },
      {
        id: initials.id,
        type: 'INITIALS',
        value: dataUrl(
          buildPng({
            width: 30,
            height: 30,
            colourType: 4,
            bitDepth: 16,
            interlaced: true,
            pixel: (x, y) => [x * 2000, y * 2000],
          }),
        ),
      },
      {
        id: image.id,
        type: 'IMAGE',
        value: dataUrl(
          buildPng({
            width: 33,
            height: 9,
            colourType: 3,
            bitDepth: 2,
            interlaced: true,
            palette,
            transparency: [255, 255, 255, 0],
            pixel: (x, y) => [(x + y) % 4],
          }),
        ),
      },
      {
        id: stamp.id,
        type: 'STAMP',
        value: dataUrl(buildPng({ width: 17, height: 17, colourType: 0, bitDepth: 1, pixel: (x, y) => [(x ^ y) & 1] })),
      },
    ]);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.workflowStatus).toBe('COMPLETED');

    const sealed = await waitForSeal(t, workflow.id);
    expect(sealed.sealStatus, sealed.sealError ?? '').toBe('SEALED');
    const [doc] = await documentRows(t, workflow.id);
    const bytes = await t.platform.blobs.get(doc.sealedBlobKey!);
    const check = await pdfsig(bytes);
    expect(check.allValid, check.output).toBe(true);
    // Every stored value is the normalized form.
    for (const id of [signature.id, initials.id, image.id, stamp.id]) {
      const stored = await storedImage((await fieldRow(t, id)).value!);
      expect(stored).toMatchObject({ bitDepth: 8, colourType: 6, interlace: 0 });
    }
  });
});
