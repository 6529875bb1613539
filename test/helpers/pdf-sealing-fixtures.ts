import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createCanvas } from '@napi-rs/canvas';
import { PDF, PdfArray, PdfNumber, type PdfRef } from '@libpdf/core';
import { has } from './tools.ts';

const run = promisify(execFile);

export type PageSpec = {
  /** MediaBox [llx lly urx ury]; default Letter at the origin. */
  mediaBox?: [number, number, number, number];
  cropBox?: [number, number, number, number];
  rotate?: 0 | 90 | 180 | 270;
  /** Put Rotate, CropBox, MediaBox and Resources on the page tree node instead of the page (inherited). */
  inherit?: boolean;
};

/**
 * One page with some text of its own ("Fixture page"), rotated and/or cropped as asked: the awkward
 * geometries that field placement must get right.
 */
export async function makeGeometryPdf(spec: PageSpec = {}): Promise<Uint8Array> {
  const [llx, lly, urx, ury] = spec.mediaBox ?? [0, 0, 612, 792];
  const pdf = PDF.create();
  const page = pdf.addPage({ width: urx - llx, height: ury - lly });
  const crop = spec.cropBox ?? [llx, lly, urx, ury];
  page.drawText('Fixture page', { x: crop[0] + 20, y: crop[1] + 20, size: 10 });
  const numbers = (values: number[]) => PdfArray.of(...values.map((v) => PdfNumber.of(v)));
  const holder = spec.inherit ? pdf.getCatalog().getDict('Pages', (ref: PdfRef) => pdf.getObject(ref)) : page.dict;
  if (!holder) throw new Error('fixture has no page tree');
  holder.set('MediaBox', numbers([llx, lly, urx, ury]));
  if (spec.cropBox) holder.set('CropBox', numbers(spec.cropBox));
  if (spec.rotate) holder.set('Rotate', PdfNumber.of(spec.rotate));
  if (spec.inherit) {
    for (const key of ['MediaBox', 'Resources']) {
      const value = page.dict.get(key);
      if (key === 'Resources' && value) holder.set('Resources', value);
      page.dict.delete(key);
    }
  }
  return pdf.save();
}

/** A data-URL image of the given size filled with one color (PNG keeps an alpha channel, JPEG does not). */
export function makeImageDataUrl(width: number, height: number, color: string, format: 'png' | 'jpeg' = 'png'): string {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = color;
  context.fillRect(0, 0, width, height);
  const bytes = format === 'png' ? canvas.toBuffer('image/png') : canvas.toBuffer('image/jpeg', 95);
  return `data:image/${format};base64,${bytes.toString('base64')}`;
}

export type Raster = { width: number; height: number; pixel(x: number, y: number): [number, number, number] };

/** Renders one page with pdftoppm (pdf.js without it) at 72 dpi, so one pixel is one point of the page as displayed. */
export async function renderPage(pdf: Uint8Array, pageNo = 1): Promise<Raster> {
  // pdf.js is loaded only where it stands in for poppler.
  if (!has('pdftoppm')) return (await import('./pdfjs-reading.ts')).renderPageWithPdfjs(pdf, pageNo);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'render-'));
  try {
    const input = path.join(dir, 'in.pdf');
    await fs.writeFile(input, pdf);
    await run('pdftoppm', [
      '-r',
      '72',
      '-cropbox',
      '-f',
      String(pageNo),
      '-l',
      String(pageNo),
      '-singlefile',
      input,
      path.join(dir, 'out'),
    ]);
    return parsePpm(await fs.readFile(path.join(dir, 'out.ppm')));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function parsePpm(data: Buffer): Raster {
  const header: string[] = [];
  let offset = 0;
  while (header.length < 4) {
    while (/\s/.test(String.fromCharCode(data[offset]))) offset++;
    let token = '';
    while (!/\s/.test(String.fromCharCode(data[offset]))) token += String.fromCharCode(data[offset++]);
    header.push(token);
  }
  offset++;
  const [magic, w, h] = header;
  if (magic !== 'P6') throw new Error(`expected a binary PPM, got ${magic}`);
  const width = Number(w);
  const height = Number(h);
  return {
    width,
    height,
    pixel(x, y) {
      const at = offset + (y * width + x) * 3;
      return [data[at], data[at + 1], data[at + 2]];
    },
  };
}

/** Bounding box (in pixels, inclusive) of the pixels matching `match`, or null when none does. */
export function findPixels(raster: Raster, match: (rgb: [number, number, number]) => boolean) {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity,
    count = 0;
  for (let y = 0; y < raster.height; y++) {
    for (let x = 0; x < raster.width; x++) {
      if (!match(raster.pixel(x, y))) continue;
      count++;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  }
  return count === 0 ? null : { minX, minY, maxX, maxY, count };
}

export const isRed = ([r, g, b]: [number, number, number]) => r > 200 && g < 80 && b < 80;
export const isBlue = ([r, g, b]: [number, number, number]) => b > 150 && r < 120 && g < 120;
export const isDark = ([r, g, b]: [number, number, number]) => r < 100 && g < 100 && b < 100;

export type WordBox = { text: string; xMin: number; yMin: number; xMax: number; yMax: number };

/** Words with their boxes in displayed-page points (pdftotext -bbox; pdf.js without it), independent of clipping. */
export async function extractWords(pdf: Uint8Array, pageNo = 1): Promise<WordBox[]> {
  if (!has('pdftotext')) return (await import('./pdfjs-reading.ts')).extractWordsWithPdfjs(pdf, pageNo);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'words-'));
  try {
    const input = path.join(dir, 'in.pdf');
    await fs.writeFile(input, pdf);
    const { stdout } = await run('pdftotext', [
      '-bbox',
      '-cropbox',
      '-f',
      String(pageNo),
      '-l',
      String(pageNo),
      input,
      '-',
    ]);
    return [
      ...stdout.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g),
    ].map((m) => ({ xMin: +m[1], yMin: +m[2], xMax: +m[3], yMax: +m[4], text: decodeEntities(m[5]) }));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'");
}

/**
 * A linearized ("fast web view") two-page PDF, made once with `qpdf --linearize` from makePdf(2) and kept
 * here so the tests need no qpdf: libpdf declines incremental saves to such files unless told otherwise.
 */
export function linearizedPdf(): Uint8Array {
  return new Uint8Array(Buffer.from(LINEARIZED_PDF_BASE64, 'base64'));
}

const LINEARIZED_PDF_BASE64 = [
  'JVBERi0xLjcKJb/3ov4KNSAwIG9iago8PCAvTGluZWFyaXplZCAxIC9MIDE3OTggL0ggWyA1NDIgMTE2IF0gL08gOCAvRSA5OTgg',
  'L04gMiAvVCAxNTgwID4+CmVuZG9iagogICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAg',
  'ICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAKeHJlZgo1IDUK',
  'MDAwMDAwMDAxNSAwMDAwMCBuIAowMDAwMDAwNDkzIDAwMDAwIG4gCjAwMDAwMDA1NDIgMDAwMDAgbiAKMDAwMDAwMDY1OCAwMDAw',
  'MCBuIAowMDAwMDAwODYyIDAwMDAwIG4gCnRyYWlsZXIgPDwgL0luZm8gNCAwIFIgL1Jvb3QgNiAwIFIgL1NpemUgMTAgL1ByZXYg',
  'MTU3MiAgICAgICAgICAgICAgICAgIC9JRCBbPDY3MzVhNjM0NTEyZDIxMWQwYTZkNjNhNDdkOTE0OGIwPjw5ZDIwYTRmZTBjZjM2',
  'MTkyMWJhNTJiMGQ5NWU1MWY1Yj5dID4+CnN0YXJ0eHJlZgowCiUlRU9GCjYgMCBvYmoKPDwgL1BhZ2VzIDMgMCBSIC9UeXBlIC9D',
  'YXRhbG9nID4+CmVuZG9iago3IDAgb2JqCjw8IC9GaWx0ZXIgL0ZsYXRlRGVjb2RlIC9TIDM2IC9MZW5ndGggMzkgPj4Kc3RyZWFt',
  'CnicY2BgYAIiOQYgYAxhgAMoGyjHwIIQBfOZwKwOBvYOBgYAKr8B7gplbmRzdHJlYW0KZW5kb2JqCjggMCBvYmoKPDwgL0NvbnRl',
  'bnRzIDkgMCBSIC9NZWRpYUJveCBbIDAgMCA2MTIgNzkyIF0gL1BhcmVudCAzIDAgUiAvUmVzb3VyY2VzIDw8IC9Gb250IDw8IC9G',
  'MCA8PCAvQmFzZUZvbnQgL0hlbHZldGljYSAvRW5jb2RpbmcgL1dpbkFuc2lFbmNvZGluZyAvU3VidHlwZSAvVHlwZTEgL1R5cGUg',
  'L0ZvbnQgPj4gPj4gPj4gL1R5cGUgL1BhZ2UgPj4KZW5kb2JqCjkgMCBvYmoKPDwgL0xlbmd0aCA2NiAvRmlsdGVyIC9GbGF0ZURl',
  'Y29kZSA+PgpzdHJlYW0KeJzjKuQyUEjncgrh0nczUDAyUQhJ4zJUMABCQwVzIwVzAwOFkFwuG1MDM0MzczNTIwNjQzuFkCwu1xCu',
  'QABiPwwDZW5kc3RyZWFtCmVuZG9iagoxIDAgb2JqCjw8IC9Db250ZW50cyAyIDAgUiAvTWVkaWFCb3ggWyAwIDAgNjEyIDc5MiBd',
  'IC9QYXJlbnQgMyAwIFIgL1Jlc291cmNlcyA8PCAvRm9udCA8PCAvRjAgPDwgL0Jhc2VGb250IC9IZWx2ZXRpY2EgL0VuY29kaW5n',
  'IC9XaW5BbnNpRW5jb2RpbmcgL1N1YnR5cGUgL1R5cGUxIC9UeXBlIC9Gb250ID4+ID4+ID4+IC9UeXBlIC9QYWdlID4+CmVuZG9i',
  'agoyIDAgb2JqCjw8IC9MZW5ndGggNjYgL0ZpbHRlciAvRmxhdGVEZWNvZGUgPj4Kc3RyZWFtCnic4yrkMlBI53IK4dJ3M1AwMlEI',
  'SeMyVDAAQkMFcyMFcwMDhZBcLhtTAzNDM3MzUyMDYyM7hZAsLtcQrkAAYkkMBGVuZHN0cmVhbQplbmRvYmoKMyAwIG9iago8PCAv',
  'Q291bnQgMiAvS2lkcyBbIDggMCBSIDEgMCBSIF0gL1R5cGUgL1BhZ2VzID4+CmVuZG9iago0IDAgb2JqCjw8IC9BdXRob3IgKFVu',
  'a25vd24pIC9DcmVhdGlvbkRhdGUgKEQ6MjAyNjExMjIwOTAyMzlaKSAvQ3JlYXRvciAoQGxpYnBkZi9jb3JlKSAvTW9kRGF0ZSAo',
  'RDoyMDI2MTEyMjA5MDIzOVopIC9Qcm9kdWNlciAoQGxpYnBkZi9jb3JlKSAvVGl0bGUgKFVudGl0bGVkKSA+PgplbmRvYmoKeHJl',
  'ZgowIDUKMDAwMDAwMDAwMCA2NTUzNSBmIAowMDAwMDAwOTk4IDAwMDAwIG4gCjAwMDAwMDEyMDIgMDAwMDAgbiAKMDAwMDAwMTMz',
  'OCAwMDAwMCBuIAowMDAwMDAxNDAzIDAwMDAwIG4gCnRyYWlsZXIgPDwgL1NpemUgNSAvSUQgWzw2NzM1YTYzNDUxMmQyMTFkMGE2',
  'ZDYzYTQ3ZDkxNDhiMD48OWQyMGE0ZmUwY2YzNjE5MjFiYTUyYjBkOTVlNTFmNWI+XSA+PgpzdGFydHhyZWYKMjE2CiUlRU9GCg==',
].join('');
