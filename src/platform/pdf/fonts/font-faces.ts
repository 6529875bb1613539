import fs from 'node:fs';
import { PdfString, measureText } from '@libpdf/core';
import type { EmbeddedFont, PDF, PDFPage, Standard14FontName } from '@libpdf/core';

/** What text layout needs from a font, whichever kind it is. */
export type Face = {
  resourceName(page: PDFPage): string;
  encode(text: string): PdfString;
  width(text: string, size: number): number;
  /** Ascender and descender in thousandths of the font size (descender negative). */
  ascent: number;
  descent: number;
};

export type FaceStyle = { fontFamily?: string; bold?: boolean; italic?: boolean } | null | undefined;

type Family = 'Helvetica' | 'Times' | 'Courier';

/** From the standard fonts' AFM files (Ascender, Descender). */
const STANDARD_METRICS: Record<Family, { ascent: number; descent: number }> = {
  Helvetica: { ascent: 718, descent: -207 },
  Times: { ascent: 683, descent: -217 },
  Courier: { ascent: 629, descent: -157 },
};

const fontFiles = new Map<string, Uint8Array>();

/**
 * Picks the face for a text: a standard font (Helvetica, Times or Courier by the requested family, with
 * its bold/italic variant; not embedded) when the text fits Windows-1252, else the matching Liberation
 * Sans (Latin, Greek, Cyrillic), embedded once per document and subsetted on save. Characters Liberation
 * Sans lacks (for instance CJK) come back as '?' rather than as invisible .notdef glyphs.
 */
export function createFontFaces(doc: PDF): { face(style: FaceStyle, text: string): { face: Face; text: string } } {
  const embedded = new Map<string, EmbeddedFont>();

  function liberation(bold: boolean, italic: boolean): EmbeddedFont {
    const variant = `LiberationSans-${bold && italic ? 'BoldItalic' : bold ? 'Bold' : italic ? 'Italic' : 'Regular'}`;
    let font = embedded.get(variant);
    if (!font) {
      font = doc.embedFont(readFontFile(variant));
      embedded.set(variant, font);
    }
    return font;
  }

  return {
    face(style, text) {
      const bold = style?.bold === true;
      const italic = style?.italic === true;
      if (isWinAnsi(text)) return { face: standardFace(fontFamily(style?.fontFamily), bold, italic), text };
      const font = liberation(bold, italic);
      const missing = new Set(font.getUnencodableCharacters(text));
      return {
        face: embeddedFace(font),
        text: missing.size === 0 ? text : Array.from(text, (c) => (missing.has(c) ? '?' : c)).join(''),
      };
    },
  };
}

function standardFace(family: Family, bold: boolean, italic: boolean): Face {
  const name = standardFontName(family, bold, italic);
  return {
    resourceName: (page) => page.registerFont(name),
    encode: (text) => PdfString.fromBytes(encodeWinAnsi(text)),
    width: (text, size) => measureText(text, name, size),
    ...STANDARD_METRICS[family],
  };
}

/** Identity-H: two bytes per glyph id. */
function embeddedFace(font: EmbeddedFont): Face {
  return {
    resourceName: (page) => page.registerFont(font),
    encode: (text) => {
      const gids = font.encodeTextToGids(text);
      const bytes = new Uint8Array(gids.length * 2);
      gids.forEach((gid, i) => {
        bytes[i * 2] = gid >> 8;
        bytes[i * 2 + 1] = gid & 0xff;
      });
      return PdfString.fromBytes(bytes);
    },
    width: (text, size) => measureText(text, font, size),
    ascent: font.descriptor?.ascent ?? 905,
    descent: font.descriptor?.descent ?? -212,
  };
}

function readFontFile(variant: string): Uint8Array {
  let bytes = fontFiles.get(variant);
  if (!bytes) {
    bytes = new Uint8Array(fs.readFileSync(new URL(`./${variant}.ttf`, import.meta.url)));
    fontFiles.set(variant, bytes);
  }
  return bytes;
}

function fontFamily(requested: string | undefined): Family {
  const name = (requested ?? '').toLowerCase();
  if (/courier|mono|consol|code/.test(name)) return 'Courier';
  if (/times|georgia|garamond|cambria|book|(^|[^-])serif/.test(name) && !/sans/.test(name)) return 'Times';
  return 'Helvetica';
}

function standardFontName(family: Family, bold: boolean, italic: boolean): Standard14FontName {
  if (family === 'Times')
    return bold && italic ? 'Times-BoldItalic' : bold ? 'Times-Bold' : italic ? 'Times-Italic' : 'Times-Roman';
  return (
    bold && italic ? `${family}-BoldOblique` : bold ? `${family}-Bold` : italic ? `${family}-Oblique` : family
  ) as Standard14FontName;
}

/** Windows-1252 positions 0x80-0x9F that differ from Latin-1 (the standard fonts' WinAnsiEncoding). */
const WIN_ANSI_EXTRA: Record<number, number> = {
  0x20ac: 0x80,
  0x201a: 0x82,
  0x0192: 0x83,
  0x201e: 0x84,
  0x2026: 0x85,
  0x2020: 0x86,
  0x2021: 0x87,
  0x02c6: 0x88,
  0x2030: 0x89,
  0x0160: 0x8a,
  0x2039: 0x8b,
  0x0152: 0x8c,
  0x017d: 0x8e,
  0x2018: 0x91,
  0x2019: 0x92,
  0x201c: 0x93,
  0x201d: 0x94,
  0x2022: 0x95,
  0x2013: 0x96,
  0x2014: 0x97,
  0x02dc: 0x98,
  0x2122: 0x99,
  0x0161: 0x9a,
  0x203a: 0x9b,
  0x0153: 0x9c,
  0x017e: 0x9e,
  0x0178: 0x9f,
};

function winAnsiCode(codePoint: number): number | undefined {
  if ((codePoint >= 0x20 && codePoint <= 0x7e) || (codePoint >= 0xa0 && codePoint <= 0xff)) return codePoint;
  return WIN_ANSI_EXTRA[codePoint];
}

function isWinAnsi(text: string): boolean {
  for (const char of text) if (winAnsiCode(char.codePointAt(0) as number) === undefined) return false;
  return true;
}

function encodeWinAnsi(text: string): Uint8Array {
  return Uint8Array.from(Array.from(text, (char) => winAnsiCode(char.codePointAt(0) as number) ?? 0x3f));
}
