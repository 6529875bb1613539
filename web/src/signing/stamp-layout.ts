/**
 * Where the seal will draw a field's value, so the page's overlay shows it at the same place and size: the
 * browser twin of `src/platform/pdf/stamp-fields.ts` (its `drawText`, `fitText`, `drawImage`, `drawCheckbox`). Boxes
 * and sizes are in points of the page; the overlay multiplies by the page's scale. Widths are measured in the
 * browser with a metric twin of the standard font (Arial / Liberation Sans for Helvetica, and so on), so the fitted
 * size is the seal's; checked by test/e2e/signing-page-sealed.test.ts, which renders both and compares the boxes.
 */
import type { Field } from './types.ts';

const DEFAULT_FONT_SIZE = 12;
const MAX_FONT_SIZE = 200;
const MIN_FONT_SIZE = 1;
const LINE_SPACING = 1.15;

type Family = 'Helvetica' | 'Times' | 'Courier' | 'Liberation';

/** The standard fonts' AFM ascender and descender (thousandths), as stamp-fields' font-faces.ts has them. */
const METRICS: Record<Family, { ascent: number; descent: number }> = {
  Helvetica: { ascent: 718, descent: -207 },
  Times: { ascent: 683, descent: -217 },
  Courier: { ascent: 629, descent: -157 },
  Liberation: { ascent: 905, descent: -212 },
};

/** CSS families with the standard fonts' widths (the metric-compatible faces most systems have). */
const CSS_FAMILY: Record<Family, string> = {
  Helvetica: 'Helvetica, Arial, "Liberation Sans", "Nimbus Sans", sans-serif',
  Times: '"Times New Roman", Times, "Liberation Serif", "Nimbus Roman", serif',
  Courier: '"Courier New", Courier, "Liberation Mono", "Nimbus Mono PS", monospace',
  Liberation: '"Liberation Sans", Arial, Helvetica, sans-serif',
};

export type FieldStyle = {
  fontFamily?: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strikethrough?: boolean;
  textAlign?: 'left' | 'center' | 'right';
  fontSize?: number;
  textColor?: string;
  backgroundColor?: string;
};

/** A styling colour as the seal reads it (`#rgb`, `#rrggbb`, `#rrggbbaa` without its alpha); null: the default. */
export function stampColour(value: string | undefined | null): string | null {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec((value ?? '').trim())?.[1];
  if (!hex) return null;
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex.slice(0, 6)}`;
}

/** One line of text: its left edge and baseline from the box's top-left, in points; its underline and strike bars. */
export type StampLine = {
  text: string;
  left: number;
  baseline: number;
  width: number;
  bars: { y: number; height: number }[];
};
export type StampText = {
  /** The CSS `font` shorthand without the size (style, weight, family). */
  font: { style: string; weight: string; family: string };
  size: number;
  /** Ascender in points at `size` (the seal's glyph box top is baseline - ascent). */
  ascent: number;
  descent: number;
  lines: StampLine[];
};

let measuring: CanvasRenderingContext2D | null = null;

function measurer(): CanvasRenderingContext2D | null {
  measuring ??= document.createElement('canvas').getContext('2d');
  return measuring;
}

/** Windows-1252, which the standard fonts encode; other text the seal draws in the embedded Liberation Sans. */
function isWinAnsi(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) continue;
    if ('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ'.includes(char)) continue;
    return false;
  }
  return true;
}

function family(requested: string | undefined, text: string): Family {
  if (!isWinAnsi(text)) return 'Liberation';
  const name = (requested ?? '').toLowerCase();
  if (/courier|mono|consol|code/.test(name)) return 'Courier';
  if (/times|georgia|garamond|cambria|book|(^|[^-])serif/.test(name) && !/sans/.test(name)) return 'Times';
  return 'Helvetica';
}

/**
 * The seal's layout of a text value in a box (points): single-line types shrink to fit one line, DIGITAL_SIGNATURE
 * keeps its line breaks and shrinks, TEXTAREA and NOTE wrap and then shrink; 2 pt padding; single lines centred
 * vertically on the glyph box, wrapped text from the top. Null when the browser cannot measure text.
 */
export function stampText(field: Field, value: string, box: Field['box']): StampText | null {
  const context = measurer();
  if (!context) return null;
  const styling = (field.styling ?? {}) as FieldStyle;
  const mode =
    field.fieldType === 'TEXTAREA' || field.fieldType === 'NOTE'
      ? 'wrap'
      : field.fieldType === 'DIGITAL_SIGNATURE'
        ? 'lines'
        : 'single';
  const cleaned = value.replace(/\t/g, ' ').replace(/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/g, '');
  const source = mode === 'single' ? cleaned.replace(/\s*(\r\n|\r|\n)\s*/g, ' ') : cleaned;
  if (source.trim() === '') return null;
  const face = family(styling.fontFamily, source);
  const font = {
    style: styling.italic === true ? 'italic' : 'normal',
    weight: styling.bold === true ? 'bold' : 'normal',
    family: CSS_FAMILY[face],
  };
  const width = (text: string, size: number) => {
    context.font = `${font.style} ${font.weight} 100px ${font.family}`;
    return (context.measureText(text).width / 100) * size;
  };
  const { ascent: ascender, descent: descender } = METRICS[face];
  const requested =
    Number.isFinite(styling.fontSize) && (styling.fontSize as number) > 0
      ? Math.min(styling.fontSize as number, MAX_FONT_SIZE)
      : DEFAULT_FONT_SIZE;
  const padding = Math.min(2, box.width * 0.1, box.height * 0.1);
  const innerWidth = box.width - 2 * padding;
  const innerHeight = box.height - 2 * padding;
  const glyphFactor = (ascender - descender) / 1000;
  const heightAt = (count: number, size: number) => (count - 1) * size * LINE_SPACING + glyphFactor * size;

  let size: number;
  let lines: string[];
  if (mode !== 'wrap') {
    lines = mode === 'single' ? [source] : source.split(/\r\n|\r|\n/);
    const widest = Math.max(...lines.map((line) => width(line, 1)));
    const byWidth = widest > 0 ? innerWidth / widest : requested;
    size = Math.max(MIN_FONT_SIZE, Math.min(requested, byWidth, innerHeight / heightAt(lines.length, 1)));
  } else {
    size = requested;
    for (;;) {
      lines = wrap(source, size, innerWidth, width);
      if (heightAt(lines.length, size) <= innerHeight || size <= MIN_FONT_SIZE) break;
      size = Math.max(MIN_FONT_SIZE, size * 0.92);
    }
  }
  const ascent = (ascender * size) / 1000;
  const descent = (-descender * size) / 1000;
  const lineHeight = size * LINE_SPACING;
  const blockHeight = (lines.length - 1) * lineHeight + glyphFactor * size;
  // From the top, y down (the seal's y is up): single lines centred, wrapped text under the top padding.
  const top = mode === 'wrap' ? padding : (box.height - blockHeight) / 2;
  const align = styling.textAlign ?? 'left';
  return {
    font,
    size,
    ascent,
    descent,
    lines: lines.map((text, i) => {
      const lineWidth = width(text, size);
      const left =
        align === 'center'
          ? (box.width - lineWidth) / 2
          : align === 'right'
            ? box.width - padding - lineWidth
            : padding;
      const baseline = top + ascent + i * lineHeight;
      // The seal's bars (y up there): an underline 0.12 em below the baseline, a strike 0.28 em above it.
      const thickness = Math.max(0.25, size * 0.05);
      const bars = [
        ...(styling.underline ? [{ y: baseline + size * 0.12 - thickness / 2, height: thickness }] : []),
        ...(styling.strikethrough ? [{ y: baseline - size * 0.28 - thickness / 2, height: thickness }] : []),
      ];
      return { text, left, baseline, width: lineWidth, bars };
    }),
  };
}

function wrap(text: string, size: number, max: number, width: (text: string, size: number) => number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    let line = '';
    for (const word of paragraph.split(/ +/)) {
      const candidate = line ? `${line} ${word}` : word;
      if (width(candidate, size) <= max) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = '';
      let rest = word;
      while (width(rest, size) > max && rest.length > 1) {
        let cut = 1;
        while (cut < rest.length && width(rest.slice(0, cut + 1), size) <= max) cut++;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}

/** The seal's checkbox, in points from the box's top-left: the frame's rectangle and, when checked, the mark's points. */
export function stampCheckbox(box: Field['box'], checked: boolean) {
  const side = Math.min(box.width, box.height);
  const frame = Math.max(0.5, side * 0.06);
  const left = (box.width - side) / 2;
  const top = (box.height - side) / 2;
  // The seal's mark is in y-up unit-square coordinates; here y goes down.
  const at = (u: number, v: number) => `${left + u * side},${top + (1 - v) * side}`;
  return {
    frame,
    rect: { x: frame / 2, y: frame / 2, width: box.width - frame, height: box.height - frame },
    mark: checked ? { width: side * 0.12, points: [at(0.2, 0.52), at(0.42, 0.28), at(0.8, 0.76)].join(' ') } : null,
  };
}

/** Whether the seal draws a check mark for a CHECKBOX value. */
export function isChecked(value: string | boolean | null | undefined): boolean {
  if (typeof value === 'boolean') return value;
  return ['true', '1', 'yes', 'on', 'checked', 'x'].includes(
    String(value ?? '')
      .trim()
      .toLowerCase(),
  );
}
