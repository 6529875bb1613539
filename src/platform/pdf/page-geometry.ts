import { PdfArray, type PdfDict, PdfNumber, PdfRef } from '@libpdf/core';
import type { PdfObject } from '@libpdf/core';

/**
 * Where a page is and how it turns, as viewers show it. Upload (the pageSizes stored per document) and
 * stamping (where field values are drawn) both read pages through this module, so that a field placed on
 * the stored page size lands on the same spot of the sealed page.
 */

export type Resolve = (ref: PdfRef) => PdfObject | null;
/** [llx, lly, urx, ury] in the page's user space, normalised so that ll is the lower-left corner. */
export type Box = [number, number, number, number];
/** The page's /Rotate, clockwise. */
export type Rotation = 0 | 90 | 180 | 270;

const LETTER: Box = [0, 0, 612, 792];

/**
 * The visible region of a page (its CropBox intersected with its MediaBox, as viewers do) and its rotation
 * normalised to 0, 90, 180 or 270, all possibly inherited from the page tree. A page without a usable
 * MediaBox is shown as US Letter; a missing, unreadable or disjoint CropBox leaves the whole MediaBox; a
 * /Rotate that is not a multiple of 90 counts as 0.
 */
export function visiblePageBox(dict: PdfDict, resolve: Resolve): { box: Box; rotation: Rotation } {
  const media = readBox(inherited(dict, 'MediaBox', resolve), resolve) ?? LETTER;
  const box = intersect(readBox(inherited(dict, 'CropBox', resolve), resolve) ?? media, media) ?? media;
  const rotate = inherited(dict, 'Rotate', resolve);
  const raw = rotate instanceof PdfNumber ? rotate.value : 0;
  const rotation = (Number.isInteger(raw) && raw % 90 === 0 ? ((raw % 360) + 360) % 360 : 0) as Rotation;
  return { box, rotation };
}

/** MediaBox, CropBox, Rotate and Resources are inheritable through /Parent (PDF 32000 7.7.3.4). */
export function inherited(dict: PdfDict, key: string, resolve: Resolve): PdfObject | undefined {
  let node: PdfDict | undefined = dict;
  for (let depth = 0; node && depth < 64; depth++) {
    const value = node.get(key, resolve);
    if (value !== undefined) return value;
    node = node.getDict('Parent', resolve);
  }
  return undefined;
}

/** Four finite numbers enclosing a non-empty area, in either corner order; null otherwise. */
function readBox(value: PdfObject | undefined, resolve: Resolve): Box | null {
  if (!(value instanceof PdfArray) || value.length !== 4) return null;
  const numbers = value.toArray().map((item) => {
    const resolved = item instanceof PdfRef ? resolve(item) : item;
    return resolved instanceof PdfNumber ? resolved.value : Number.NaN;
  });
  if (!numbers.every(Number.isFinite)) return null;
  const [x1, y1, x2, y2] = numbers;
  const box: Box = [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)];
  return box[2] > box[0] && box[3] > box[1] ? box : null;
}

function intersect(a: Box, b: Box): Box | null {
  const box: Box = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  return box[2] > box[0] && box[3] > box[1] ? box : null;
}
