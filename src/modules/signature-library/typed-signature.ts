import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';

/** The fonts a typed signature can be written in. */
export const SIGNATURE_FONTS = ['DANCING_SCRIPT', 'LIBERATION_SANS', 'LIBERATION_SANS_ITALIC'] as const;
export type SignatureFont = (typeof SIGNATURE_FONTS)[number];

const require = createRequire(import.meta.url);
const FONT_FILES: Record<SignatureFont, { family: string; path: () => string }> = {
  // The signing page's typed signatures use Dancing Script too (docs/web-app.md "The signing page").
  DANCING_SCRIPT: {
    family: 'SigLibDancingScript',
    path: () => require.resolve('@fontsource/dancing-script/files/dancing-script-latin-400-normal.woff2'),
  },
  LIBERATION_SANS: {
    family: 'SigLibLiberationSans',
    path: () => fileURLToPath(new URL('../../platform/pdf/fonts/LiberationSans-Regular.ttf', import.meta.url)),
  },
  LIBERATION_SANS_ITALIC: {
    family: 'SigLibLiberationSansItalic',
    path: () => fileURLToPath(new URL('../../platform/pdf/fonts/LiberationSans-Italic.ttf', import.meta.url)),
  },
};

const FONT_SIZE = 96;
const PADDING = 24;
const INK = '#111827';
let registered = false;

function registerFonts(): void {
  if (registered) return;
  for (const { family, path } of Object.values(FONT_FILES)) GlobalFonts.registerFromPath(path(), family);
  registered = true;
}

/**
 * `text` written in `font` as a PNG: dark ink on a transparent background, the canvas as wide as the text.
 * Characters the font lacks fall back to Liberation Sans (Latin, Greek, Cyrillic).
 */
export async function renderTypedSignature(text: string, font: SignatureFont): Promise<Buffer> {
  registerFonts();
  const fontSpec = `${FONT_SIZE}px "${FONT_FILES[font].family}", "${FONT_FILES.LIBERATION_SANS.family}"`;
  const measure = createCanvas(1, 1).getContext('2d');
  measure.font = fontSpec;
  const metrics = measure.measureText(text);
  const ascent = Math.ceil(metrics.actualBoundingBoxAscent || FONT_SIZE * 0.8);
  const descent = Math.ceil(metrics.actualBoundingBoxDescent || FONT_SIZE * 0.25);
  const width = Math.min(4000, Math.ceil(metrics.width) + 2 * PADDING);
  const height = ascent + descent + 2 * PADDING;
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.font = fontSpec;
  context.fillStyle = INK;
  context.textBaseline = 'alphabetic';
  context.fillText(text, PADDING, PADDING + ascent);
  return canvas.encode('png');
}
