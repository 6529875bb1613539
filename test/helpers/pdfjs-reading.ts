// What the tests read from a PDF with poppler (pdftoppm, pdftotext, pdffonts, pdfimages), made with pdf.js and libpdf
// for a machine without poppler-utils (tools.ts): in the same shapes, so that the same assertions run on them.
import crypto from 'node:crypto';
import path from 'node:path';
import { createRequire } from 'node:module';
import { createCanvas } from '@napi-rs/canvas';
import { PDF, PdfDict, PdfName, PdfRef, PdfStream } from '@libpdf/core';
import type { PdfObject } from '@libpdf/core';
import { OPS, getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { inherited } from '../../src/platform/pdf/page-geometry.ts';
import type { Raster, WordBox } from './pdf-sealing-fixtures.ts';

const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
// As src/platform/pdf/thumbnail-worker.ts: pdf.js reads its data files with fs when given paths ending in a separator.
const assets = {
  standardFontDataUrl: path.join(pdfjsRoot, 'standard_fonts') + path.sep,
  cMapUrl: path.join(pdfjsRoot, 'cmaps') + path.sep,
  wasmUrl: path.join(pdfjsRoot, 'wasm') + path.sep,
};

/** Opens the document with pdf.js for `use`, and closes it afterwards. */
export async function withPdfjsDocument<T>(
  pdf: Uint8Array,
  use: (document: PDFDocumentProxy) => Promise<T>,
): Promise<T> {
  // pdf.js takes ownership of (detaches) the buffer it is given, and refuses a Buffer: a plain copy keeps the
  // caller's bytes usable.
  const task = getDocument({ data: new Uint8Array(pdf), ...assets, isEvalSupported: false, verbosity: 0 });
  try {
    return await use(await task.promise);
  } finally {
    await task.destroy();
  }
}

/** Opens the document with pdf.js for `use` of one page, and closes it afterwards. */
function withPage<T>(pdf: Uint8Array, pageNo: number, use: (page: PDFPageProxy) => Promise<T>): Promise<T> {
  return withPdfjsDocument(pdf, async (document) => use(await document.getPage(pageNo)));
}

/** Each pixel of the 72 dpi raster is the average of this many × this many rendered pixels. */
const SUPERSAMPLING = 4;

/**
 * The page as displayed (CropBox, /Rotate) at 72 dpi on white, as pdftoppm -r 72 -cropbox renders it. Skia's own
 * anti-aliasing steps coverage in quarter pixels, so a 1.2 pt rule across two rows would show as two half-tone rows;
 * rendered 4× larger and averaged, each pixel gets the share of it that is covered.
 */
export async function renderPageWithPdfjs(pdf: Uint8Array, pageNo: number): Promise<Raster> {
  return withPage(pdf, pageNo, async (page) => {
    const natural = page.getViewport({ scale: 1 });
    const [width, height] = [Math.round(natural.width), Math.round(natural.height)];
    const canvas = createCanvas(width * SUPERSAMPLING, height * SUPERSAMPLING);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    const viewport = page.getViewport({ scale: SUPERSAMPLING });
    await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
    // Raw RGBA, not copied into an ImageData; straight colours, as every pixel is opaque on the white ground.
    const data = canvas.data();
    const rgb = new Uint8Array(width * height * 3);
    const samples = SUPERSAMPLING * SUPERSAMPLING;
    // Not canvas.width: a native getter, far too slow to ask in the loop.
    const stride = width * SUPERSAMPLING * 4;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let r = 0,
          g = 0,
          b = 0;
        for (let dy = 0; dy < SUPERSAMPLING; dy++) {
          let at = (y * SUPERSAMPLING + dy) * stride + x * SUPERSAMPLING * 4;
          for (let dx = 0; dx < SUPERSAMPLING; dx++, at += 4) {
            r += data[at];
            g += data[at + 1];
            b += data[at + 2];
          }
        }
        const to = (y * width + x) * 3;
        rgb[to] = Math.round(r / samples);
        rgb[to + 1] = Math.round(g / samples);
        rgb[to + 2] = Math.round(b / samples);
      }
    }
    return {
      width,
      height,
      pixel(x, y) {
        const at = (y * width + x) * 3;
        return [rgb[at], rgb[at + 1], rgb[at + 2]];
      },
    };
  });
}

/**
 * Words with their boxes in displayed-page points, top-left origin, as pdftotext -bbox -cropbox gives them: from
 * baseline − ascent to baseline − descent of the font as the PDF declares them (fontMetrics), across the advance
 * widths. pdf.js reports runs of text, not glyphs: a run is split into words by the advance widths of the glyphs
 * the page shows in that font (character spacing aside).
 */
export async function extractWordsWithPdfjs(pdf: Uint8Array, pageNo: number): Promise<WordBox[]> {
  const declared = fontMetrics(await PDF.load(pdf));
  return withPage(pdf, pageNo, async (page) => {
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    // The operator list also brings the fonts, and so their names, to this side (page.commonObjs).
    const advances = glyphAdvances(await page.getOperatorList());
    const words: WordBox[] = [];
    for (const item of content.items) {
      if (!('str' in item) || !item.str.trim()) continue;
      const { ascent, descent } =
        declared.get(page.commonObjs.get(item.fontName).name) ?? content.styles[item.fontName];
      const widths = advances.get(item.fontName);
      const known = widths ? [...widths.values()] : [];
      const average = known.length ? known.reduce((sum, w) => sum + w, 0) / known.length : 1;
      const advance = (text: string) => [...text].reduce((sum, char) => sum + (widths?.get(char) ?? average), 0);
      const total = advance(item.str);
      for (const match of item.str.matchAll(/\S+/g)) {
        const from = advance(item.str.slice(0, match.index)) / total;
        const to = advance(item.str.slice(0, match.index + match[0].length)) / total;
        words.push({
          text: match[0],
          ...deviceBox(item, viewport.convertToViewportPoint.bind(viewport), from, to, ascent, descent),
        });
      }
    }
    return words;
  });
}

/** The advance width of each character shown, by font (pdf.js's name for it, as in its text content). */
function glyphAdvances(operators: { fnArray: number[]; argsArray: unknown[] }): Map<string, Map<string, number>> {
  const byFont = new Map<string, Map<string, number>>();
  let widths = new Map<string, number>();
  operators.fnArray.forEach((fn, i) => {
    const args = operators.argsArray[i] as unknown[];
    if (fn === OPS.setFont) {
      const font = args[0] as string;
      widths = byFont.get(font) ?? new Map();
      byFont.set(font, widths);
    }
    if (fn !== OPS.showText) return;
    // Numbers among the glyphs are the TJ spacing adjustments.
    for (const glyph of args[0] as unknown[]) {
      if (glyph && typeof glyph === 'object')
        widths.set((glyph as { unicode: string }).unicode, (glyph as { width: number }).width);
    }
  });
  return byFont;
}

type TextItem = Extract<Awaited<ReturnType<PDFPageProxy['getTextContent']>>['items'][number], { str: string }>;

/** The box, in viewport coordinates, of the part `from`..`to` (fractions of the width) of a run of text. */
function deviceBox(
  item: TextItem,
  toViewport: (x: number, y: number) => number[],
  from: number,
  to: number,
  ascent: number,
  descent: number,
) {
  const [a, b, c, d, e, f] = item.transform as number[];
  // Along the baseline by the run's advance width; up by the font size, both in user space.
  const along = [a / Math.hypot(a, b), b / Math.hypot(a, b)];
  const up = [c / Math.hypot(c, d), d / Math.hypot(c, d)];
  const size = Math.hypot(c, d);
  const corners = [from, to].flatMap((t) =>
    [ascent, descent].map((s) =>
      toViewport(e + along[0] * t * item.width + up[0] * s * size, f + along[1] * t * item.width + up[1] * s * size),
    ),
  );
  const xs = corners.map((p) => p[0]);
  const ys = corners.map((p) => p[1]);
  return { xMin: Math.min(...xs), yMin: Math.min(...ys), xMax: Math.max(...xs), yMax: Math.max(...ys) };
}

// ---------------------------------------------------------------------------------------------------------
// Font dictionaries and images, read with libpdf.

type Resolve = (ref: PdfRef) => PdfObject | null;

/** Each object of the given resource category (Font, XObject) used by the pages, their forms included, once. */
function pageResources(doc: PDF, category: 'Font' | 'XObject'): { ref: PdfRef | null; dict: PdfDict }[] {
  const resolve: Resolve = (ref) => doc.getObject(ref);
  const found: { ref: PdfRef | null; dict: PdfDict }[] = [];
  const seen = new Set<PdfObject>();
  const visit = (resources: PdfObject | undefined) => {
    const dict = resources instanceof PdfRef ? resolve(resources) : resources;
    if (!(dict instanceof PdfDict) || seen.has(dict)) return;
    seen.add(dict);
    for (const [, value] of dict.getDict(category, resolve) ?? []) {
      const ref = value instanceof PdfRef ? value : null;
      const object = ref ? resolve(ref) : value;
      if (!(object instanceof PdfDict) || seen.has(object)) continue;
      seen.add(object);
      found.push({ ref, dict: object });
    }
    for (const [, value] of dict.getDict('XObject', resolve) ?? []) {
      const form = value instanceof PdfRef ? resolve(value) : value;
      if (form instanceof PdfDict && form.getName('Subtype', resolve)?.value === 'Form')
        visit(form.get('Resources', resolve));
    }
  };
  for (const page of doc.getPages()) visit(inherited(page.dict, 'Resources', resolve));
  return found;
}

/**
 * Ascent and descent (per unit of font size) of the standard fonts, from their AFM files: what poppler uses for
 * them when they are not embedded. pdf.js has those of the font it draws them with instead (Liberation Sans's 0.905
 * for Helvetica's 0.718), or none.
 */
const STANDARD_FONT_METRICS: [RegExp, number, number][] = [
  [/^Helvetica(-|$)/, 0.718, -0.207],
  [/^Times-/, 0.683, -0.217],
  [/^Courier(-|$)/, 0.629, -0.157],
  [/^Symbol$/, 1.01, -0.293],
  [/^ZapfDingbats$/, 0.82, -0.143],
];

/** A composite font's glyphs, type and descriptor are those of its one descendant. */
function glyphFont(font: PdfDict, resolve: Resolve): PdfDict {
  const descendant =
    font.getName('Subtype', resolve)?.value === 'Type0'
      ? font.getArray('DescendantFonts', resolve)?.at(0, resolve)
      : undefined;
  return descendant instanceof PdfDict ? descendant : font;
}

const FONT_PROGRAMS = ['FontFile', 'FontFile2', 'FontFile3'];

/**
 * Ascent and descent of each font of the pages, by BaseFont, taken as poppler takes them: a standard font that is not
 * embedded has its AFM values, any other font those of its descriptor, where they are plausible, else 0.95 and −0.35.
 */
function fontMetrics(doc: PDF): Map<string, { ascent: number; descent: number }> {
  const resolve: Resolve = (ref) => doc.getObject(ref);
  const metrics = new Map<string, { ascent: number; descent: number }>();
  for (const { dict: font } of pageResources(doc, 'Font')) {
    const name = font.getName('BaseFont', resolve)?.value;
    if (!name) continue;
    const descriptor = glyphFont(font, resolve).getDict('FontDescriptor', resolve);
    const standard = STANDARD_FONT_METRICS.find(([pattern]) => pattern.test(name));
    if (standard && !FONT_PROGRAMS.some((key) => descriptor?.has(key))) {
      metrics.set(name, { ascent: standard[1], descent: standard[2] });
      continue;
    }
    const ascent = (descriptor?.getNumber('Ascent', resolve)?.value ?? 0) / 1000;
    const descent = (descriptor?.getNumber('Descent', resolve)?.value ?? 0) / 1000;
    metrics.set(name, {
      ascent: ascent > 0 && ascent < 3 ? ascent : 0.95,
      descent: descent < 0 && descent > -3 ? descent : -0.35,
    });
  }
  return metrics;
}

const FONT_TYPES: Record<string, string> = {
  Type1: 'Type 1',
  MMType1: 'Type 1',
  TrueType: 'TrueType',
  Type3: 'Type 3',
  CIDFontType0: 'CID Type 0',
  CIDFontType2: 'CID TrueType',
};

/** The fonts of the pages in pdffonts' table (name, type, encoding, emb, sub, uni, object ID), read with libpdf. */
export async function listFontsWithLibpdf(pdf: Uint8Array): Promise<string> {
  const doc = await PDF.load(pdf);
  const resolve: Resolve = (ref) => doc.getObject(ref);
  const lines = [
    'name                                 type              encoding         emb sub uni object ID',
    '------------------------------------ ----------------- ---------------- --- --- --- ---------',
  ];
  for (const { ref, dict: font } of pageResources(doc, 'Font')) {
    const name = font.getName('BaseFont', resolve)?.value ?? '[none]';
    const glyphs = glyphFont(font, resolve);
    const program = FONT_PROGRAMS.find((key) => glyphs.getDict('FontDescriptor', resolve)?.has(key));
    const type =
      FONT_TYPES[glyphs.getName('Subtype', resolve)?.value ?? ''] ?? font.getName('Subtype', resolve)?.value ?? '';
    // FontFile3 holds a compact (CFF) program, which pdffonts marks with a C.
    const typeShown = program === 'FontFile3' && (type === 'Type 1' || type === 'CID Type 0') ? `${type}C` : type;
    const encodingEntry = font.get('Encoding', resolve);
    const encoding =
      encodingEntry instanceof PdfName
        ? encodingEntry.value.replace(/Encoding$/, '')
        : encodingEntry instanceof PdfDict
          ? 'Custom'
          : 'Builtin';
    const flag = (on: boolean) => (on ? 'yes' : 'no ');
    const id = ref ? `${String(ref.objectNumber).padStart(6)} ${String(ref.generation).padStart(2)}` : '[none]';
    lines.push(
      [
        name.padEnd(36),
        typeShown.padEnd(17),
        encoding.padEnd(16),
        flag(Boolean(program)),
        flag(/^[A-Z]{6}\+/.test(name)),
        flag(font.has('ToUnicode')),
        id,
      ].join(' '),
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Each image XObject of the pages and then its soft mask, as pdfimages lists them ("-000", "-001", ...), each the
 * SHA-256 of its size, colour space, bits per component and decoded samples: what pdfimages -png writes out.
 */
export async function decodedImagesWithLibpdf(pdf: Uint8Array): Promise<Record<string, string>> {
  const doc = await PDF.load(pdf);
  const resolve: Resolve = (ref) => doc.getObject(ref);
  const images: PdfStream[] = [];
  for (const { dict } of pageResources(doc, 'XObject')) {
    if (!(dict instanceof PdfStream) || dict.getName('Subtype', resolve)?.value !== 'Image') continue;
    images.push(dict);
    const mask = dict.get('SMask', resolve);
    if (mask instanceof PdfStream) images.push(mask);
  }
  return Object.fromEntries(
    images.map((image, i) => {
      const shape = [
        ...['Width', 'Height', 'BitsPerComponent'].map((key) => image.getNumber(key, resolve)?.value),
        image.getName('ColorSpace', resolve)?.value,
      ];
      const digest = crypto
        .createHash('sha256')
        .update(JSON.stringify(shape))
        .update(image.getDecodedData())
        .digest('hex');
      return [`-${String(i).padStart(3, '0')}`, digest];
    }),
  );
}
