import { PDF, type PdfArray, PdfDict, PdfName, PdfNumber, PdfRef, PdfString } from '@libpdf/core';
import type { PdfObject } from '@libpdf/core';
import type { Resolve } from './page-geometry.ts';

/** One signature as the PDF stores it: where it is, which bytes it covers, and its CMS (or RFC 3161 token). */
export type PdfSignatureEntry = {
  fieldName: string;
  /** [offset1, length1, offset2, length2]: the signed bytes are the two ranges, the gap between them holds /Contents. */
  byteRange: [number, number, number, number];
  /** The DER of /Contents with the zero padding removed. */
  contents: Uint8Array;
  subFilter: string;
  /** The signature dictionary's /M (claimed by the signer, not trusted), or null. */
  claimedTime: Date | null;
  /** The signature dictionary's /Name, when the signer wrote one. */
  name: string | null;
  /** The indirect object the field's /V names (where the dictionary, and so its /Contents, sits); null when /V is inline. */
  ref: { objectNumber: number; generation: number } | null;
};

export class UnreadablePdfError extends Error {}

/** The document holds more signature dictionaries than `limit`: counting stopped there, before anything was checked. */
export class TooManySignaturesError extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`The PDF holds more than ${limit} signatures`);
    this.name = 'TooManySignaturesError';
    this.limit = limit;
  }
}

/**
 * Every filled signature field of the document (AcroForm fields and page widgets, inherited /FT and /V
 * followed), in the order of their signed ranges, so the first signature comes first. A field tree that is
 * cyclic or absurdly large is walked only so far. With `maxSignatures`, finding one signature dictionary more
 * than that throws TooManySignaturesError at once: fields are read as the walk reaches them, so 10,000 signature
 * fields cost 51 reads, not 10,000.
 */
export async function readSignatures(
  bytes: Uint8Array,
  options: { maxSignatures?: number } = {},
): Promise<PdfSignatureEntry[]> {
  let pdf: PDF;
  try {
    pdf = await PDF.load(bytes);
  } catch (error) {
    throw new UnreadablePdfError(
      `The file is not a readable PDF (${error instanceof Error ? error.message.slice(0, 200) : String(error)})`,
    );
  }
  const resolve: Resolve = (ref: PdfRef) => pdf.getObject(ref);
  const catalog = pdf.getCatalog();
  // A field is known by its reference (so it is parsed only when the walk reaches it) or, written inline, by itself.
  const seen = new Set<string | PdfDict>();
  const stack: Array<PdfRef | PdfDict> = [];
  const pushAll = (array: PdfArray | undefined) => {
    for (const item of array?.toArray() ?? []) {
      const key =
        item instanceof PdfRef ? `${item.objectNumber} ${item.generation}` : item instanceof PdfDict ? item : null;
      if (key !== null && !seen.has(key)) {
        seen.add(key);
        stack.push(item as PdfRef | PdfDict);
      }
    }
  };
  pushAll(catalog.getDict('AcroForm', resolve)?.getArray('Fields', resolve));
  for (const page of pdf.getPages()) pushAll(page.dict.getArray('Annots', resolve));

  const found = new Map<PdfDict, PdfSignatureEntry>();
  for (let visited = 0; stack.length > 0 && visited < 200_000; visited++) {
    const field = asDict(stack.pop(), resolve);
    if (!field) continue;
    const entry = signatureOf(field, resolve);
    if (entry && !found.has(entry.dict)) {
      found.set(entry.dict, entry.entry);
      if (options.maxSignatures !== undefined && found.size > options.maxSignatures)
        throw new TooManySignaturesError(options.maxSignatures);
    }
    pushAll(field.getArray('Kids', resolve));
  }
  return [...found.values()].sort((a, b) => a.byteRange[2] + a.byteRange[3] - (b.byteRange[2] + b.byteRange[3]));
}

function signatureOf(field: PdfDict, resolve: Resolve): { dict: PdfDict; entry: PdfSignatureEntry } | null {
  let type: PdfObject | undefined;
  let value: PdfObject | undefined;
  const names: string[] = [];
  let node: PdfDict | undefined = field;
  for (let depth = 0; node && depth < 32; depth++) {
    type ??= node.get('FT', resolve);
    // Kept unresolved: a reference says where the signature dictionary sits in the file.
    const own = node.get('V');
    if (value === undefined && own !== undefined && (!(own instanceof PdfRef) || resolve(own) != null)) value = own;
    const title = node.get('T', resolve);
    if (title instanceof PdfString) names.unshift(title.asString());
    node = node.getDict('Parent', resolve);
  }
  if (!(type instanceof PdfName) || type.value !== 'Sig') return null;
  const dict = asDict(value, resolve);
  if (!dict) return null;
  const range = dict.getArray('ByteRange', resolve);
  const contents = dict.get('Contents', resolve);
  if (range?.length !== 4 || !(contents instanceof PdfString)) return null;
  const numbers = range.toArray().map((n) => (n instanceof PdfNumber ? n.value : Number.NaN));
  if (numbers.some((n) => !Number.isSafeInteger(n) || n < 0)) return null;
  const subFilter = dict.get('SubFilter', resolve);
  const claimed = dict.get('M', resolve);
  const name = dict.get('Name', resolve);
  return {
    dict,
    entry: {
      fieldName: names.join('.') || 'Signature',
      byteRange: numbers as PdfSignatureEntry['byteRange'],
      contents: trimDer(contents.bytes),
      subFilter: subFilter instanceof PdfName ? subFilter.value : '',
      claimedTime: claimed instanceof PdfString ? parsePdfDate(claimed.asString()) : null,
      name: name instanceof PdfString ? name.asString() : null,
      ref: value instanceof PdfRef ? { objectNumber: value.objectNumber, generation: value.generation } : null,
    },
  };
}

/** /Contents is zero-padded to its reserved size; DER says how long the real value is. */
function trimDer(bytes: Uint8Array): Uint8Array {
  if (bytes.length < 2 || bytes[0] !== 0x30) return bytes;
  const first = bytes[1];
  if (first < 0x80) return bytes.subarray(0, Math.min(bytes.length, 2 + first));
  const lengthBytes = first & 0x7f;
  if (lengthBytes === 0 || lengthBytes > 4 || bytes.length < 2 + lengthBytes) return bytes;
  let length = 0;
  for (let i = 0; i < lengthBytes; i++) length = length * 256 + bytes[2 + i];
  return bytes.subarray(0, Math.min(bytes.length, 2 + lengthBytes + length));
}

/** A PDF date (D:YYYYMMDDHHmmSSOHH'mm'), or null when it does not parse. */
export function parsePdfDate(text: string): Date | null {
  const match = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?'?$/.exec(text.trim());
  if (!match) return null;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh = '00', om = '00'] = match;
  let time = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (sign === '+' || sign === '-') time -= (sign === '+' ? 1 : -1) * (Number(oh) * 60 + Number(om)) * 60_000;
  return Number.isNaN(time) ? null : new Date(time);
}

function asDict(value: PdfObject | undefined | null, resolve: Resolve): PdfDict | null {
  const resolved = value instanceof PdfRef ? resolve(value) : value;
  return resolved instanceof PdfDict ? resolved : null;
}
