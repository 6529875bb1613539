import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { StampFieldError, decodeImageDataUrl, parseColor, stampFields } from '../../src/platform/pdf/stamp-fields.ts';
import type { StampField } from '../../src/platform/pdf/stamp-fields.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import {
  extractWords,
  findPixels,
  isBlue,
  isDark,
  isRed,
  linearizedPdf,
  makeGeometryPdf,
  makeImageDataUrl,
  renderPage,
} from '../helpers/pdf-sealing-fixtures.ts';
import type { PageSpec, Raster, WordBox } from '../helpers/pdf-sealing-fixtures.ts';
import { has } from '../helpers/tools.ts';

const run = promisify(execFile);
const isGreen = ([r, g, b]: [number, number, number]) => g > 200 && r < 80 && b < 80;

function isPrefix(original: Uint8Array, stamped: Uint8Array): boolean {
  return (
    stamped.length > original.length && Buffer.from(stamped.subarray(0, original.length)).equals(Buffer.from(original))
  );
}

/** Every word lies inside the box (pdftotext reports glyph boxes whether or not they are clipped). */
function expectWordsInside(words: WordBox[], box: StampField['box'], tolerance = 0.5) {
  expect(words.length).toBeGreaterThan(0);
  for (const w of words) {
    expect(w.xMin).toBeGreaterThanOrEqual(box.x - tolerance);
    expect(w.xMax).toBeLessThanOrEqual(box.x + box.width + tolerance);
    expect(w.yMin).toBeGreaterThanOrEqual(box.y - tolerance);
    expect(w.yMax).toBeLessThanOrEqual(box.y + box.height + tolerance);
  }
}

/** The words below the fixture's own "Page 1" heading (which ends above y = 100): the stamped ones. */
function fieldWords(words: WordBox[]): WordBox[] {
  return words.filter((w) => w.yMin >= 110);
}

/** poppler's font list; without pdffonts, the same columns read from the font dictionaries with libpdf. */
async function pdffonts(pdf: Uint8Array): Promise<string> {
  if (!has('pdffonts')) return (await import('../helpers/pdfjs-reading.ts')).listFontsWithLibpdf(pdf);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fonts-'));
  try {
    await fs.writeFile(path.join(dir, 'in.pdf'), pdf);
    return (await run('pdffonts', [path.join(dir, 'in.pdf')])).stdout;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Longest horizontal run of matching pixels per row, within the given pixel rows and columns. */
function longestRuns(
  raster: Raster,
  match: (rgb: [number, number, number]) => boolean,
  x0: number,
  x1: number,
  y0: number,
  y1: number,
) {
  const runs: { y: number; length: number }[] = [];
  for (let y = y0; y <= y1; y++) {
    let best = 0;
    let current = 0;
    for (let x = x0; x <= x1; x++) {
      current = match(raster.pixel(x, y)) ? current + 1 : 0;
      best = Math.max(best, current);
    }
    runs.push({ y, length: best });
  }
  return runs;
}

const GEOMETRIES: [string, PageSpec][] = [
  ['an upright page', {}],
  ['a page with /Rotate 90', { rotate: 90 }],
  ['a page with /Rotate 180', { rotate: 180 }],
  ['a page with /Rotate 270', { rotate: 270 }],
  [
    'a page whose CropBox is offset inside its MediaBox',
    { mediaBox: [0, 0, 800, 1000], cropBox: [100, 150, 712, 942] },
  ],
  [
    'a rotated, cropped page inheriting MediaBox, CropBox, Rotate and Resources from the page tree',
    { mediaBox: [-50, -50, 800, 1000], cropBox: [100, 150, 712, 942], rotate: 270, inherit: true },
  ],
];

describe('stampFields placement', () => {
  for (const [name, spec] of GEOMETRIES) {
    it(`draws text, background, image and checkbox exactly in their boxes on ${name}`, async () => {
      const original = await makeGeometryPdf(spec);
      const textBox = { x: 50, y: 60, width: 120, height: 40 };
      const imageBox = { x: 300, y: 100, width: 100, height: 100 };
      const checkBox = { x: 250, y: 300, width: 20, height: 20 };
      const stamped = await stampFields(original, [
        {
          pageNo: 1,
          box: textBox,
          fieldType: 'TEXT',
          value: 'Placed',
          styling: { backgroundColor: '#ff0000', textColor: '#0000ff' },
        },
        { pageNo: 1, box: imageBox, fieldType: 'SIGNATURE', value: makeImageDataUrl(200, 100, '#00ff00') },
        { pageNo: 1, box: checkBox, fieldType: 'CHECKBOX', value: 'true' },
      ]);
      expect(isPrefix(original, stamped)).toBe(true);

      const raster = await renderPage(stamped);
      const [cropW, cropH] = spec.cropBox
        ? [spec.cropBox[2] - spec.cropBox[0], spec.cropBox[3] - spec.cropBox[1]]
        : [612, 792];
      const sideways = spec.rotate === 90 || spec.rotate === 270;
      expect([raster.width, raster.height]).toEqual(sideways ? [cropH, cropW] : [cropW, cropH]);

      // At 72 dpi a pixel is a point; pixel columns x..x+width-1 cover the box (±1 for anti-aliasing).
      const red = findPixels(raster, isRed)!;
      expect(Math.abs(red.minX - textBox.x)).toBeLessThanOrEqual(1);
      expect(Math.abs(red.maxX - (textBox.x + textBox.width - 1))).toBeLessThanOrEqual(1);
      expect(Math.abs(red.minY - textBox.y)).toBeLessThanOrEqual(1);
      expect(Math.abs(red.maxY - (textBox.y + textBox.height - 1))).toBeLessThanOrEqual(1);
      const blue = findPixels(raster, isBlue)!;
      expect(blue.minX).toBeGreaterThanOrEqual(textBox.x);
      expect(blue.maxX).toBeLessThan(textBox.x + textBox.width);
      expect(blue.minY).toBeGreaterThanOrEqual(textBox.y);
      expect(blue.maxY).toBeLessThan(textBox.y + textBox.height);

      // A 2:1 image in a square box: full width, half height, centred vertically.
      const green = findPixels(raster, isGreen)!;
      expect(Math.abs(green.minX - imageBox.x)).toBeLessThanOrEqual(1);
      expect(Math.abs(green.maxX - (imageBox.x + 99))).toBeLessThanOrEqual(1);
      expect(Math.abs(green.minY - (imageBox.y + 25))).toBeLessThanOrEqual(1);
      expect(Math.abs(green.maxY - (imageBox.y + 74))).toBeLessThanOrEqual(1);

      const check = findPixels(raster, (rgb) => isDark(rgb) && !isBlue(rgb))!;
      const checkPixels = {
        minX: checkBox.x,
        maxX: checkBox.x + checkBox.width - 1,
        minY: checkBox.y,
        maxY: checkBox.y + checkBox.height - 1,
      };
      const inCheckbox = findPixels(
        {
          ...raster,
          pixel: (x, y) =>
            x >= checkPixels.minX && x <= checkPixels.maxX && y >= checkPixels.minY && y <= checkPixels.maxY
              ? raster.pixel(x, y)
              : [255, 255, 255],
        },
        isDark,
      )!;
      expect(inCheckbox.count).toBeGreaterThan(60);
      expect(check).toBeDefined();

      const words = await extractWords(stamped);
      expectWordsInside(
        words.filter((w) => w.text === 'Placed'),
        textBox,
      );
      // The page's own content is still there, with its (possibly inherited) font.
      expect(words.map((w) => w.text).join(' ')).toContain('Fixture page');
    });
  }
});

describe('stampFields text', () => {
  it('shrinks a single-line value that is too long for its box instead of letting it spill', async () => {
    const box = { x: 40, y: 150, width: 100, height: 18 };
    const value = 'Maximilian Alexander von Habsburg-Lothringen';
    const stamped = await stampFields(await makePdf(1), [
      { pageNo: 1, box, fieldType: 'NAME', value, styling: { fontSize: 14 } },
    ]);
    const words = fieldWords(await extractWords(stamped));
    expect(words.map((w) => w.text).join(' ')).toBe(value);
    expectWordsInside(words, box);
    expect(new Set(words.map((w) => Math.round(w.yMin))).size).toBe(1);
    expect(words[0].yMax - words[0].yMin).toBeLessThan(10);
  });

  it('shrinks a value to the box height even when its requested size is larger', async () => {
    const box = { x: 40, y: 150, width: 200, height: 10 };
    const stamped = await stampFields(await makePdf(1), [
      { pageNo: 1, box, fieldType: 'DATE', value: '2026-11-22', styling: { fontSize: 40 } },
    ]);
    const words = fieldWords(await extractWords(stamped));
    expect(words.map((w) => w.text)).toEqual(['2026-11-22']);
    expectWordsInside(words, box);
  });

  it('wraps a TEXTAREA at the box width, keeping the requested size while the lines fit', async () => {
    const box = { x: 40, y: 150, width: 160, height: 90 };
    const value = 'The quick brown fox jumps over the lazy dog and keeps running far away.';
    const stamped = await stampFields(await makePdf(1), [
      { pageNo: 1, box, fieldType: 'TEXTAREA', value, styling: { fontSize: 12 } },
    ]);
    const words = fieldWords(await extractWords(stamped));
    expect(words.map((w) => w.text).join(' ')).toBe(value);
    expectWordsInside(words, box);
    expect(new Set(words.map((w) => Math.round(w.yMin))).size).toBeGreaterThanOrEqual(2);
    for (const w of words) expect(w.yMax - w.yMin).toBeGreaterThan(10.5);
    // Text starts at the top, like a text area.
    expect(Math.min(...words.map((w) => w.yMin))).toBeLessThan(box.y + 5);
  });

  it('wraps and then shrinks a NOTE too long for its box, breaking a word wider than the box', async () => {
    const box = { x: 40, y: 150, width: 90, height: 40 };
    const longWord = 'Supercalifragilisticexpialidocious';
    const value = `${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(3)}${longWord}`;
    const stamped = await stampFields(await makePdf(1), [
      { pageNo: 1, box, fieldType: 'NOTE', value, styling: { fontSize: 12 } },
    ]);
    const words = fieldWords(await extractWords(stamped));
    expectWordsInside(words, box);
    expect(words.map((w) => w.text).join('')).toBe(value.replace(/ /g, ''));
    expect(Math.max(...words.map((w) => w.yMax - w.yMin))).toBeLessThan(10);
  });

  it('aligns text left, centre and right within the box', async () => {
    const boxes = [0, 1, 2].map((i) => ({ x: 100, y: 40 + i * 40, width: 200, height: 30 }));
    const aligns = ['left', 'center', 'right'] as const;
    const stamped = await stampFields(
      await makePdf(1),
      aligns.map((textAlign, i) => ({
        pageNo: 1,
        box: boxes[i],
        fieldType: 'TEXT',
        value: textAlign,
        styling: { textAlign },
      })),
    );
    const words = await extractWords(stamped);
    const [left, center, right] = aligns.map((a) => words.find((w) => w.text === a)!);
    expect(Math.abs(left.xMin - 102)).toBeLessThanOrEqual(1);
    expect(Math.abs((center.xMin + center.xMax) / 2 - 200)).toBeLessThanOrEqual(1);
    expect(Math.abs(right.xMax - 298)).toBeLessThanOrEqual(1);
  });

  it('underlines and strikes through with lines as wide as the text', async () => {
    const fields = (decoration: Record<string, boolean>): StampField[] => [
      {
        pageNo: 1,
        box: { x: 100, y: 100, width: 200, height: 40 },
        fieldType: 'TEXT',
        value: 'mmmmmm',
        styling: { fontSize: 24, textColor: '#0000ff', ...decoration },
      },
    ];
    const runsFor = async (decoration: Record<string, boolean>) => {
      const stamped = await stampFields(await makePdf(1), fields(decoration));
      const word = (await extractWords(stamped)).find((w) => w.text === 'mmmmmm')!;
      const runs = longestRuns(await renderPage(stamped), isBlue, 100, 299, 100, 139);
      return { word, runs, widest: Math.max(...runs.map((r) => r.length)) };
    };
    const plain = await runsFor({});
    const underline = await runsFor({ underline: true });
    const strike = await runsFor({ strikethrough: true });
    const width = plain.word.xMax - plain.word.xMin;
    expect(plain.widest).toBeLessThan(width * 0.5);
    const underlineRow = underline.runs.find((r) => r.length >= width * 0.9)!;
    const strikeRow = strike.runs.find((r) => r.length >= width * 0.9)!;
    const top = plain.word.yMin;
    const height = plain.word.yMax - plain.word.yMin;
    expect(underlineRow.y).toBeGreaterThan(top + height * 0.6);
    expect(strikeRow.y).toBeGreaterThan(top + height * 0.25);
    expect(strikeRow.y).toBeLessThan(top + height * 0.75);
    expect(strikeRow.y).toBeLessThan(underlineRow.y);
  });

  it('uses the standard font faces for bold, italic and the family asked for', async () => {
    const box = (i: number) => ({ x: 40, y: 40 + i * 30, width: 300, height: 24 });
    const stamped = await stampFields(await makePdf(1), [
      { pageNo: 1, box: box(0), fieldType: 'TEXT', value: 'Bold', styling: { bold: true } },
      {
        pageNo: 1,
        box: box(1),
        fieldType: 'TEXT',
        value: 'Italic serif',
        styling: { italic: true, fontFamily: 'Times New Roman' },
      },
      {
        pageNo: 1,
        box: box(2),
        fieldType: 'TEXT',
        value: 'Mono',
        styling: { bold: true, italic: true, fontFamily: 'Courier New' },
      },
      { pageNo: 1, box: box(3), fieldType: 'TEXT', value: 'Plain', styling: null },
    ]);
    const fonts = await pdffonts(stamped);
    for (const name of ['Helvetica-Bold', 'Times-Italic', 'Courier-BoldOblique', 'Helvetica '])
      expect(fonts).toContain(name);
  });

  it('writes text beyond Windows-1252 with an embedded, subsetted Liberation Sans that text extraction reads back', async () => {
    const box = { x: 40, y: 150, width: 300, height: 24 };
    const stamped = await stampFields(await makePdf(1), [
      { pageNo: 1, box, fieldType: 'NAME', value: 'Łukasz Żółć Ζεύς Жуков' },
    ]);
    const fonts = await pdffonts(stamped);
    expect(fonts).toMatch(/[A-Z]{6}\+LiberationSans\S*\s+CID TrueType\s+Identity-H\s+yes yes yes/);
    const words = fieldWords(await extractWords(stamped));
    expect(words.map((w) => w.text).join(' ')).toBe('Łukasz Żółć Ζεύς Жуков');
    expectWordsInside(words, box);
    // Subsetting keeps the file far below the size of the 140 kB font program.
    expect(stamped.length).toBeLessThan(60_000);
  });
});

describe('stampFields checkboxes, images and values', () => {
  it('draws an empty frame for an unchecked box and a check mark for a checked one', async () => {
    const boxes = [
      { x: 100, y: 100, width: 24, height: 24 },
      { x: 200, y: 100, width: 24, height: 24 },
    ];
    const raster = await renderPage(
      await stampFields(await makePdf(1), [
        { pageNo: 1, box: boxes[0], fieldType: 'CHECKBOX', value: 'false' },
        { pageNo: 1, box: boxes[1], fieldType: 'CHECKBOX', value: 'true' },
      ]),
    );
    const centre = (b: { x: number; y: number }) =>
      findPixels(
        {
          ...raster,
          pixel: (x, y) =>
            x >= b.x + 6 && x < b.x + 18 && y >= b.y + 6 && y < b.y + 18 ? raster.pixel(x, y) : [255, 255, 255],
        },
        isDark,
      );
    expect(centre(boxes[0])).toBeNull();
    expect(centre(boxes[1])?.count).toBeGreaterThan(15);
    for (const b of boxes) {
      const frame = findPixels(
        {
          ...raster,
          pixel: (x, y) =>
            x >= b.x - 3 && x < b.x + 27 && y >= b.y - 3 && y < b.y + 27 ? raster.pixel(x, y) : [255, 255, 255],
        },
        isDark,
      )!;
      expect([frame.minX, frame.minY, frame.maxX, frame.maxY]).toEqual([b.x, b.y, b.x + 23, b.y + 23]);
    }
  });

  it('fits a JPEG into its box keeping its aspect ratio', async () => {
    const box = { x: 100, y: 100, width: 60, height: 120 };
    const raster = await renderPage(
      await stampFields(await makePdf(1), [
        { pageNo: 1, box, fieldType: 'STAMP', value: makeImageDataUrl(300, 100, '#ff0000', 'jpeg') },
      ]),
    );
    const red = findPixels(raster, isRed)!;
    expect(Math.abs(red.minX - 100)).toBeLessThanOrEqual(1);
    expect(Math.abs(red.maxX - 159)).toBeLessThanOrEqual(1);
    expect(Math.abs(red.minY - 150)).toBeLessThanOrEqual(1);
    expect(Math.abs(red.maxY - 169)).toBeLessThanOrEqual(1);
  });

  it('leaves unfilled fields out and returns the document untouched when there is nothing to draw', async () => {
    const original = await makePdf(1);
    expect(await stampFields(original, [])).toBe(original);
    const stamped = await stampFields(original, [
      {
        pageNo: 1,
        box: { x: 100, y: 100, width: 100, height: 30 },
        fieldType: 'TEXT',
        value: '',
        styling: { backgroundColor: '#ff0000' },
      },
      {
        pageNo: 1,
        box: { x: 100, y: 200, width: 100, height: 30 },
        fieldType: 'SIGNATURE',
        value: null as unknown as string,
      },
    ]);
    expect(stamped).toBe(original);
  });

  it('stamps the right page of a multi-page document', async () => {
    const stamped = await stampFields(await makePdf(3), [
      {
        pageNo: 2,
        box: { x: 100, y: 100, width: 50, height: 50 },
        fieldType: 'IMAGE',
        value: makeImageDataUrl(10, 10, '#ff0000'),
      },
    ]);
    expect(findPixels(await renderPage(stamped, 1), isRed)).toBeNull();
    expect(findPixels(await renderPage(stamped, 2), isRed)).toMatchObject({ minX: 100, minY: 100 });
    expect(findPixels(await renderPage(stamped, 3), isRed)).toBeNull();
  });

  it('appends to a linearized file too, instead of rewriting it', async () => {
    const original = linearizedPdf();
    expect(Buffer.from(original.subarray(0, 200)).toString('latin1')).toContain('/Linearized 1');
    const stamped = await stampFields(original, [
      {
        pageNo: 2,
        box: { x: 100, y: 100, width: 50, height: 50 },
        fieldType: 'IMAGE',
        value: makeImageDataUrl(10, 10, '#ff0000'),
      },
    ]);
    expect(isPrefix(original, stamped)).toBe(true);
    expect(findPixels(await renderPage(stamped, 2), isRed)).toMatchObject({
      minX: 100,
      minY: 100,
      maxX: 149,
      maxY: 149,
    });
  });

  it('refuses fields it cannot draw, naming the field', async () => {
    const pdf = await makePdf(2);
    const ok: StampField = { pageNo: 1, box: { x: 10, y: 10, width: 50, height: 20 }, fieldType: 'TEXT', value: 'ok' };
    const cases: [Partial<StampField>, RegExp][] = [
      [{ pageNo: 3 }, /page 3 does not exist/],
      [{ pageNo: 0 }, /page 0 does not exist/],
      [{ box: { x: 10, y: 10, width: 0, height: 20 } }, /positive width and height/],
      [{ box: { x: Number.NaN, y: 10, width: 10, height: 20 } }, /finite/],
      [{ fieldType: 'RADIO' }, /unknown field type RADIO/],
      [{ fieldType: 'SIGNATURE', value: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=' }, /not a data-URL PNG or JPEG/],
      [{ fieldType: 'IMAGE', value: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB' }, /cannot be decoded/],
    ];
    for (const [change, message] of cases) {
      const error = await stampFields(pdf, [ok, { ...ok, ...change }]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StampFieldError);
      expect((error as StampFieldError).fieldIndex).toBe(1);
      expect((error as Error).message).toMatch(message);
    }
  });

  it('decodes data-URL PNG and JPEG images and nothing else', () => {
    expect(decodeImageDataUrl(makeImageDataUrl(2, 2, '#000000'))?.format).toBe('png');
    expect(decodeImageDataUrl(makeImageDataUrl(2, 2, '#000000', 'jpeg'))?.format).toBe('jpeg');
    expect(decodeImageDataUrl('data:image/png;base64,aGVsbG8=')).toBeNull();
    expect(decodeImageDataUrl('hello')).toBeNull();
  });

  it('reads the usual color notations', () => {
    expect(parseColor('#00f')).toEqual([0, 0, 1]);
    expect(parseColor('#FF000080')).toEqual([1, 0, 0]);
    expect(parseColor('rgb(255, 0, 0)')).toEqual([1, 0, 0]);
    expect(parseColor('rgba(0,0,255,0)')).toBeNull();
    expect(parseColor('white')).toEqual([1, 1, 1]);
    expect(parseColor('transparent')).toBeNull();
    expect(parseColor('not a color')).toBeNull();
  });
});
