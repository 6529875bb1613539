import { PDF, PdfDict, type PdfRef, ops } from '@libpdf/core';
import type { PDFImage, PDFPage } from '@libpdf/core';
import { createFontFaces } from './fonts/font-faces.ts';
import type { Face } from './fonts/font-faces.ts';
import { appendDocumentChanges, type IncrementalPdf } from './incremental-update.ts';
import { inherited, visiblePageBox } from './page-geometry.ts';
import { embedPngFiltered } from './png-image.ts';

export type StampField = {
  /** 1-based. */
  pageNo: number;
  /** Points; origin = top-left of the page as displayed (after /Rotate, inside the CropBox), y grows downward. */
  box: { x: number; y: number; width: number; height: number };
  /**
   * SIGNATURE INITIALS STAMP IMAGE: value is a data-URL image (PNG or JPEG); CHECKBOX: 'true'/'false';
   * DIGITAL_SIGNATURE: the text shown (e.g. the signer's name) or a data-URL image of the signature; TEXT NAME EMAIL NUMBER DROPDOWN NOTE
   * TEXTAREA DATE: text.
   */
  fieldType: string;
  value: string;
  styling?: {
    textColor?: string;
    fontFamily?: string;
    bold?: boolean;
    italic?: boolean;
    underline?: boolean;
    strikethrough?: boolean;
    textAlign?: 'left' | 'center' | 'right';
    backgroundColor?: string;
    fontSize?: number;
  } | null;
};

/** A field that cannot be drawn as given (bad page, box or image); `fieldIndex` points into the input array. */
export class StampFieldError extends Error {
  readonly fieldIndex: number;
  constructor(fieldIndex: number, message: string) {
    super(`Field #${fieldIndex}: ${message}`);
    this.name = 'StampFieldError';
    this.fieldIndex = fieldIndex;
  }
}

const IMAGE_TYPES = new Set(['SIGNATURE', 'INITIALS', 'STAMP', 'IMAGE']);
const WRAPPING_TYPES = new Set(['TEXTAREA', 'NOTE']);
const TEXT_TYPES = new Set([
  'TEXT',
  'NAME',
  'EMAIL',
  'NUMBER',
  'DROPDOWN',
  'NOTE',
  'TEXTAREA',
  'DATE',
  'DIGITAL_SIGNATURE',
]);
const DEFAULT_FONT_SIZE = 12;
const MAX_FONT_SIZE = 200;
const MIN_FONT_SIZE = 1;
const LINE_SPACING = 1.15;

type Rgb = [number, number, number];
type Matrix = [number, number, number, number, number, number];

/**
 * Draws field values into the page content (flattened: they become part of the page, not form fields) and
 * saves incrementally, so the uploaded bytes stay a prefix (unless libpdf had to rebuild a damaged file's
 * cross-reference data, which makes it rewrite the file). Text uses the standard fonts (Helvetica, Times,
 * Courier and their bold/italic faces); text those cannot encode (outside Windows-1252) uses the embedded,
 * subsetted Liberation Sans. Text never leaves its box: single-line fields shrink to fit, TEXTAREA and NOTE
 * wrap and then shrink, and every field is clipped to its box.
 */
export async function stampFields(pdf: Uint8Array, fields: StampField[]): Promise<Uint8Array> {
  if (fields.length === 0) return pdf;
  const doc = await PDF.load(pdf);
  drawFields(doc, fields);
  return appendDocumentChanges(doc, pdf, { subsetFonts: true });
}

/** The same onto a document being updated (the seal and signer revisions draw, then sign, on one parse). */
export function stampFieldsInto(file: IncrementalPdf, fields: StampField[]): void {
  if (fields.length === 0) return;
  drawFields(file.doc, fields);
  file.appendChanges({ subsetFonts: true });
}

function drawFields(doc: PDF, fields: StampField[]): void {
  const pageCount = doc.getPageCount();
  const byPage = new Map<number, { field: StampField; index: number }[]>();
  fields.forEach((field, index) => {
    if (!Number.isInteger(field.pageNo) || field.pageNo < 1 || field.pageNo > pageCount) {
      throw new StampFieldError(index, `page ${field.pageNo} does not exist (the document has ${pageCount})`);
    }
    const { x, y, width, height } = field.box ?? {};
    if (![x, y, width, height].every(Number.isFinite) || width <= 0 || height <= 0) {
      throw new StampFieldError(index, 'box needs finite x, y and a positive width and height');
    }
    if (!IMAGE_TYPES.has(field.fieldType) && !TEXT_TYPES.has(field.fieldType) && field.fieldType !== 'CHECKBOX') {
      throw new StampFieldError(index, `unknown field type ${field.fieldType}`);
    }
    const list = byPage.get(field.pageNo) ?? [];
    // A value the caller never filled may arrive as null from the database: it draws like an empty one.
    list.push({ field: { ...field, value: typeof field.value === 'string' ? field.value : '' }, index });
    byPage.set(field.pageNo, list);
  });

  const assets = createAssets(doc);
  for (const [pageNo, pageFields] of byPage) {
    if (!pageFields.some(({ field }) => field.fieldType === 'CHECKBOX' || field.value.trim() !== '')) continue;
    const page = doc.getPage(pageNo - 1) as PDFPage;
    const geometry = pageGeometry(page, doc);
    adoptInheritedResources(page, doc);
    const operators: Operator[] = [];
    for (const { field, index } of pageFields) {
      operators.push(...drawField(field, index, page, geometry, assets));
    }
    if (operators.length > 0) page.drawOperators(operators);
  }
}

/**
 * Decodes a data-URL PNG or JPEG (the value of SIGNATURE, INITIALS, STAMP and IMAGE fields); null when the
 * value is not one. Exported so callers can refuse a bad value when it is saved rather than when sealing.
 */
export function decodeImageDataUrl(value: string): { format: 'png' | 'jpeg'; bytes: Uint8Array } | null {
  const match = /^data:image\/(png|jpe?g)(?:;[^,;]*)*;base64,(.*)$/is.exec(value.trim());
  if (!match) return null;
  const bytes = new Uint8Array(Buffer.from(match[2].replace(/\s+/g, ''), 'base64'));
  const isPng = bytes.length > 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
  const isJpeg = bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (isPng) return { format: 'png', bytes };
  if (isJpeg) return { format: 'jpeg', bytes };
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// Page geometry

type PageGeometry = { toUser: Matrix; displayHeight: number };

/**
 * The matrix from "displayed page" space (origin bottom-left of the visible page as a viewer shows it,
 * y up) to the page's user space, from the same visible box and rotation the stored pageSizes come from.
 */
function pageGeometry(page: PDFPage, doc: PDF): PageGeometry {
  const { box, rotation } = visiblePageBox(page.dict, (ref) => doc.getObject(ref));
  const [llx, lly, urx, ury] = box;
  const w = urx - llx;
  const h = ury - lly;
  switch (rotation) {
    case 90:
      return { toUser: [0, 1, -1, 0, llx + w, lly], displayHeight: w };
    case 180:
      return { toUser: [-1, 0, 0, -1, llx + w, lly + h], displayHeight: h };
    case 270:
      return { toUser: [0, -1, 1, 0, llx, lly + h], displayHeight: w };
    default:
      return { toUser: [1, 0, 0, 1, llx, lly], displayHeight: h };
  }
}

/**
 * libpdf registers fonts and images in the page's own /Resources and creates an empty one when the page
 * inherits it, which would strip the existing content of its fonts and images; so an inherited
 * dictionary is copied onto the page first.
 */
function adoptInheritedResources(page: PDFPage, doc: PDF): void {
  const resolve = (ref: PdfRef) => doc.getObject(ref);
  if (page.dict.has('Resources')) return;
  const resources = inherited(page.dict, 'Resources', resolve);
  page.dict.set('Resources', resources instanceof PdfDict ? resources.clone() : new PdfDict());
}

// ---------------------------------------------------------------------------------------------------------
// Fonts and images, shared by all pages of the document

type Assets = {
  face(styling: StampField['styling'], text: string): { face: Face; text: string };
  image(value: string, index: number): PDFImage;
};

function createAssets(doc: PDF): Assets {
  const images = new Map<string, PDFImage>();
  const faces = createFontFaces(doc);
  return {
    face: (styling, text) => faces.face(styling, text),
    image(value, index) {
      let image = images.get(value);
      if (!image) {
        const decoded = decodeImageDataUrl(value);
        if (!decoded) throw new StampFieldError(index, 'value is not a data-URL PNG or JPEG image');
        try {
          image =
            decoded.format === 'png'
              ? (embedPngFiltered(doc, decoded.bytes) ?? doc.embedPng(decoded.bytes))
              : doc.embedJpeg(decoded.bytes);
        } catch (error) {
          throw new StampFieldError(index, `image cannot be decoded: ${(error as Error).message}`);
        }
        images.set(value, image);
      }
      return image;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Drawing one field, in field space: origin at the box's bottom-left as displayed, y up, units points

type Operator = ReturnType<typeof ops.pushGraphicsState>;

function drawField(
  field: StampField,
  index: number,
  page: PDFPage,
  geometry: PageGeometry,
  assets: Assets,
): Operator[] {
  const { x, y, width, height } = field.box;
  const styling = field.styling ?? undefined;
  // An unfilled field leaves no trace (not even its background); a checkbox always shows its state.
  if (field.fieldType !== 'CHECKBOX' && field.value.trim() === '') return [];
  const body: Operator[] = [];
  const background = parseColor(styling?.backgroundColor);
  if (background) body.push(ops.setNonStrokingRGB(...background), ops.rectangle(0, 0, width, height), ops.fill());

  if (IMAGE_TYPES.has(field.fieldType) || isImageSignature(field)) {
    body.push(...drawImage(assets.image(field.value, index), page, width, height));
  } else if (field.fieldType === 'CHECKBOX') {
    body.push(...drawCheckbox(isChecked(field.value), parseColor(styling?.textColor) ?? [0, 0, 0], width, height));
  } else {
    body.push(...drawText(field, page, assets, width, height));
  }
  if (body.length === 0) return [];
  return [
    ops.pushGraphicsState(),
    ops.concatMatrix(...geometry.toUser),
    ops.concatMatrix(1, 0, 0, 1, x, geometry.displayHeight - y - height),
    ops.rectangle(0, 0, width, height),
    ops.clip(),
    ops.endPath(),
    ...body,
    ops.popGraphicsState(),
  ];
}

/** A DIGITAL_SIGNATURE shows either text or, from the signing page, the signer's drawn signature (a data-URL image). */
function isImageSignature(field: StampField): boolean {
  return field.fieldType === 'DIGITAL_SIGNATURE' && /^\s*data:image\//i.test(field.value);
}

function drawImage(image: PDFImage, page: PDFPage, width: number, height: number): Operator[] {
  const scale = Math.min(width / image.width, height / image.height);
  const w = image.width * scale;
  const h = image.height * scale;
  return [
    ops.pushGraphicsState(),
    ops.concatMatrix(w, 0, 0, h, (width - w) / 2, (height - h) / 2),
    ops.paintXObject(page.registerImage(image)),
    ops.popGraphicsState(),
  ];
}

function isChecked(value: string): boolean {
  return ['true', '1', 'yes', 'on', 'checked', 'x'].includes(value.trim().toLowerCase());
}

/** A frame around the box, and for a checked box a check mark in the centred square. */
function drawCheckbox(checked: boolean, color: Rgb, width: number, height: number): Operator[] {
  const side = Math.min(width, height);
  const frame = Math.max(0.5, side * 0.06);
  const result: Operator[] = [
    ops.setStrokingRGB(...color),
    ops.setLineWidth(frame),
    ops.rectangle(frame / 2, frame / 2, width - frame, height - frame),
    ops.stroke(),
  ];
  if (!checked) return result;
  const left = (width - side) / 2;
  const bottom = (height - side) / 2;
  const at = (u: number, v: number): [number, number] => [left + u * side, bottom + v * side];
  result.push(
    ops.setLineWidth(side * 0.12),
    ops.setLineCap(1),
    ops.setLineJoin(1),
    ops.moveTo(...at(0.2, 0.52)),
    ops.lineTo(...at(0.42, 0.28)),
    ops.lineTo(...at(0.8, 0.76)),
    ops.stroke(),
  );
  return result;
}

function drawText(field: StampField, page: PDFPage, assets: Assets, width: number, height: number): Operator[] {
  const styling = field.styling ?? undefined;
  const cleaned = field.value.replace(/\t/g, ' ').replace(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/g, '');
  const mode = WRAPPING_TYPES.has(field.fieldType)
    ? 'wrap'
    : field.fieldType === 'DIGITAL_SIGNATURE'
      ? 'lines'
      : 'single';
  const source = mode === 'single' ? cleaned.replace(/\s*(\r\n|\r|\n)\s*/g, ' ') : cleaned;
  if (source.trim() === '') return [];
  const { face, text } = assets.face(styling, source);
  const requested =
    Number.isFinite(styling?.fontSize) && (styling?.fontSize as number) > 0
      ? Math.min(styling?.fontSize as number, MAX_FONT_SIZE)
      : DEFAULT_FONT_SIZE;
  const padding = Math.min(2, width * 0.1, height * 0.1);
  const layout = fitText(text, mode, face, requested, width - 2 * padding, height - 2 * padding);
  const { size, lines } = layout;
  const lineHeight = size * LINE_SPACING;
  const ascent = (face.ascent * size) / 1000;
  const glyphHeight = ((face.ascent - face.descent) * size) / 1000;
  const blockHeight = (lines.length - 1) * lineHeight + glyphHeight;
  // Single lines sit in the vertical middle; wrapped text starts at the top like a text area.
  const top = mode === 'wrap' ? height - padding : (height + blockHeight) / 2;
  const color = parseColor(styling?.textColor) ?? [0, 0, 0];
  const align = styling?.textAlign ?? 'left';
  const fontName = face.resourceName(page);
  const result: Operator[] = [ops.setNonStrokingRGB(...color), ops.beginText(), ops.setFont(fontName, size)];
  const decorations: Operator[] = [];
  lines.forEach((line, i) => {
    const lineWidth = face.width(line, size);
    const left =
      align === 'center' ? (width - lineWidth) / 2 : align === 'right' ? width - padding - lineWidth : padding;
    const baseline = top - ascent - i * lineHeight;
    result.push(ops.setTextMatrix(1, 0, 0, 1, left, baseline), ops.showText(face.encode(line)));
    const thickness = Math.max(0.25, size * 0.05);
    if (styling?.underline)
      decorations.push(ops.rectangle(left, baseline - size * 0.12 - thickness / 2, lineWidth, thickness), ops.fill());
    if (styling?.strikethrough)
      decorations.push(ops.rectangle(left, baseline + size * 0.28 - thickness / 2, lineWidth, thickness), ops.fill());
  });
  result.push(ops.endText(), ...decorations);
  return result;
}

/**
 * The largest size, up to the requested one, at which the text fits the box: one line ('single'), the
 * given lines ('lines'), or lines wrapped at the box width ('wrap'; a word wider than the box is broken).
 */
function fitText(
  text: string,
  mode: 'single' | 'lines' | 'wrap',
  face: Face,
  requested: number,
  width: number,
  height: number,
) {
  const glyphFactor = (face.ascent - face.descent) / 1000;
  const heightAt = (lineCount: number, size: number) => (lineCount - 1) * size * LINE_SPACING + glyphFactor * size;
  if (mode !== 'wrap') {
    const lines = mode === 'single' ? [text] : text.split(/\r\n|\r|\n/);
    const widest = Math.max(...lines.map((line) => face.width(line, 1)));
    const byWidth = widest > 0 ? width / widest : requested;
    const byHeight = height / heightAt(lines.length, 1);
    return { size: Math.max(MIN_FONT_SIZE, Math.min(requested, byWidth, byHeight)), lines };
  }
  let size = requested;
  for (;;) {
    const lines = wrapText(text, face, size, width);
    if (heightAt(lines.length, size) <= height || size <= MIN_FONT_SIZE) {
      return { size, lines };
    }
    size = Math.max(MIN_FONT_SIZE, size * 0.92);
  }
}

function wrapText(text: string, face: Face, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    let line = '';
    for (const word of paragraph.split(/ +/)) {
      const candidate = line ? `${line} ${word}` : word;
      if (face.width(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = '';
      // A word wider than the box is broken between characters.
      let rest = word;
      while (face.width(rest, size) > width && rest.length > 1) {
        let cut = 1;
        while (cut < rest.length && face.width(rest.slice(0, cut + 1), size) <= width) cut++;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}

const NAMED_COLORS: Record<string, Rgb> = {
  black: [0, 0, 0],
  white: [1, 1, 1],
  red: [1, 0, 0],
  green: [0, 0.5, 0],
  blue: [0, 0, 1],
  gray: [0.5, 0.5, 0.5],
  grey: [0.5, 0.5, 0.5],
  yellow: [1, 1, 0],
  orange: [1, 0.65, 0],
  purple: [0.5, 0, 0.5],
  navy: [0, 0, 0.5],
};

/** '#rgb', '#rrggbb', '#rrggbbaa', 'rgb(r, g, b)', 'rgba(…)' or a basic color name; null for none or unreadable. */
export function parseColor(value: string | undefined | null): Rgb | null {
  if (!value) return null;
  const text = value.trim().toLowerCase();
  if (text === '' || text === 'transparent' || text === 'none') return null;
  if (NAMED_COLORS[text]) return NAMED_COLORS[text];
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(text)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex.slice(0, 6);
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255) as Rgb;
  }
  const rgb = /^rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*(?:,\s*([\d.]+)\s*)?\)$/.exec(text);
  if (rgb) {
    if (rgb[4] !== undefined && Number(rgb[4]) === 0) return null;
    return [rgb[1], rgb[2], rgb[3]].map((c) => Math.min(255, Number(c)) / 255) as Rgb;
  }
  return null;
}
