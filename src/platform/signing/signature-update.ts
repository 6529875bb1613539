import { PdfArray, PdfBool, PdfDict, PdfName, PdfNull, PdfNumber, PdfRef, PdfStream, PdfString } from '@libpdf/core';
import type { PdfObject } from '@libpdf/core';
import { UpdateWriter, writeCrossReference, type IncrementalPdf } from '../pdf/incremental-update.ts';

/** The signature's field and the entries of its signature dictionary. */
export type SignatureField = {
  /** Base of the field name; taken names get a number appended (PlatformSeal2). */
  name: string;
  signerName?: string;
  reason?: string;
  location?: string;
  contactInfo?: string;
  /** A document time-stamp (PAdES B-LTA): /Type /DocTimeStamp, /SubFilter /ETSI.RFC3161, Contents an RFC 3161 token. */
  documentTimestamp?: boolean;
};

/** Print + Locked: an invisible widget that belongs to the printed page and cannot be edited away. */
const WIDGET_FLAGS = 132;
/** SigFlags SignaturesExist | AppendOnly: tells editors to save incrementally from now on. */
const SIG_FLAGS = 3;
/** Ten digits per ByteRange number: room for any offset below 10 GB, patched in place and padded by spaces. */
const BYTE_RANGE_PLACEHOLDER = '[0 0000000000 0000000000 0000000000]';

export type Update = {
  bytes: Uint8Array;
  contentsStart: number;
  contentsEnd: number;
  section: { xrefAt: number; size: number };
};

/**
 * The incremental update: signature dictionary, signature field (merged with its invisible widget), the
 * objects that now point at them (form, first page, or the arrays they hold), a cross-reference section
 * in the original's style and the trailer. ByteRange is final; Contents is a zero-filled hex string whose
 * position (relative to the update) is returned.
 */
export function buildSignatureUpdate(
  file: IncrementalPdf,
  field: SignatureField,
  reserve: number,
  signingTime: Date,
): Update {
  const doc = file.doc;
  const resolve = (ref: PdfRef) => doc.getObject(ref);
  const trailer = doc.context.info.trailer;
  const rootRef = trailer.getRef('Root');
  const catalog = rootRef ? doc.getObject(rootRef) : null;
  if (!rootRef || !(catalog instanceof PdfDict)) throw new Error('The PDF has no document catalog');
  const firstPage = doc.getPage(0);
  if (!firstPage) throw new Error('A PDF without pages cannot be signed');

  const changed = new Map<PdfRef, PdfObject>();
  const signatureRef = doc.register(new PdfDict());
  const acroFormValue = catalog.get('AcroForm');
  const acroForm = catalog.getDict('AcroForm', resolve) ?? new PdfDict();
  const fieldsValue = acroForm.get('Fields');
  const fields = acroForm.getArray('Fields', resolve) ?? new PdfArray();
  const widget = PdfDict.of({
    Type: PdfName.of('Annot'),
    Subtype: PdfName.of('Widget'),
    FT: PdfName.of('Sig'),
    T: PdfString.fromString(uniqueFieldName(fields, resolve, field.name)),
    V: signatureRef,
    F: PdfNumber.of(WIDGET_FLAGS),
    Rect: PdfArray.of(...[0, 0, 0, 0].map((n) => PdfNumber.of(n))),
    P: firstPage.ref,
  });
  const widgetRef = doc.register(widget);
  changed.set(widgetRef, widget);

  fields.push(widgetRef);
  if (fieldsValue instanceof PdfRef) changed.set(fieldsValue, fields);
  else acroForm.set('Fields', fields);
  acroForm.set('SigFlags', PdfNumber.of(SIG_FLAGS));
  if (acroFormValue instanceof PdfRef) changed.set(acroFormValue, acroForm);
  else {
    catalog.set('AcroForm', acroForm);
    changed.set(rootRef, catalog);
  }
  const annotsValue = firstPage.dict.get('Annots');
  const annots = firstPage.dict.getArray('Annots', resolve) ?? new PdfArray();
  annots.push(widgetRef);
  if (annotsValue instanceof PdfRef) changed.set(annotsValue, annots);
  else {
    firstPage.dict.set('Annots', annots);
    changed.set(firstPage.ref, firstPage.dict);
  }

  const base = file.updateBase();
  const writer = new UpdateWriter(base.length, base.needsNewline);
  const offsets = new Map<number, { offset: number; generation: number }>();
  offsets.set(signatureRef.objectNumber, { offset: writer.position, generation: signatureRef.generation });
  const kind = field.documentTimestamp
    ? '/Type /DocTimeStamp /Filter /Adobe.PPKLite /SubFilter /ETSI.RFC3161'
    : '/Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached';
  writer.text(`${signatureRef.objectNumber} ${signatureRef.generation} obj\n<< ${kind} /ByteRange `);
  const byteRangeAt = writer.length;
  writer.text(`${BYTE_RANGE_PLACEHOLDER} /Contents `);
  const contentsStart = writer.length;
  writer.text(`<${'0'.repeat(reserve * 2)}>`);
  const contentsEnd = writer.length;
  // A document time-stamp's time is the token's; it claims none of its own.
  if (!field.documentTimestamp) writer.text(` /M ${hexString(PdfString.fromString(pdfDate(signingTime)))}`);
  const text: [string, string | undefined][] = [
    ['Name', field.signerName],
    ['Reason', field.reason],
    ['Location', field.location],
    ['ContactInfo', field.contactInfo],
  ];
  for (const [key, value] of text) if (value) writer.text(` /${key} ${hexString(PdfString.fromString(value))}`);
  writer.text(' >>\nendobj\n');

  for (const [ref, obj] of changed) {
    offsets.set(ref.objectNumber, { offset: writer.position, generation: ref.generation });
    writer.text(`${ref.objectNumber} ${ref.generation} obj\n${serialize(obj)}\nendobj\n`);
  }

  const section = writeCrossReference(writer, file, offsets);

  const bytes = writer.toBytes();
  const total = base.length + bytes.length;
  const byteRange = [0, base.length + contentsStart, base.length + contentsEnd, total - (base.length + contentsEnd)];
  bytes.set(
    Buffer.from(`${`[${byteRange.join(' ')}`.padEnd(BYTE_RANGE_PLACEHOLDER.length - 1, ' ')}]`, 'latin1'),
    byteRangeAt,
  );
  return { bytes, contentsStart, contentsEnd, section };
}

/** PDF syntax for the objects a page, catalog or form holds (streams are always indirect, so never inline here). */
function serialize(obj: PdfObject): string {
  if (obj instanceof PdfRef) return `${obj.objectNumber} ${obj.generation} R`;
  if (obj instanceof PdfName) return `/${escapeName(obj.value)}`;
  if (obj instanceof PdfNumber) return formatNumber(obj.value);
  if (obj instanceof PdfString) return hexString(obj);
  if (obj instanceof PdfBool) return obj.value ? 'true' : 'false';
  if (obj instanceof PdfNull) return 'null';
  if (obj instanceof PdfArray) return `[${obj.toArray().map(serialize).join(' ')}]`;
  if (obj instanceof PdfStream) throw new Error('A stream cannot be written inline');
  if (obj instanceof PdfDict)
    return `<<${[...obj].map(([key, value]) => ` /${escapeName(key.value)} ${serialize(value)}`).join('')} >>`;
  throw new Error(`Cannot serialize PDF object of type ${(obj as { type?: string }).type ?? typeof obj}`);
}

function hexString(value: PdfString): string {
  return `<${Buffer.from(value.bytes).toString('hex')}>`;
}

function formatNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return value.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');
}

/** Names are UTF-8 with delimiters, '#', whitespace and non-ASCII bytes written as #xx (PDF 32000 7.3.5). */
function escapeName(name: string): string {
  let result = '';
  for (const byte of Buffer.from(name, 'utf8')) {
    const delimiter = '()<>[]{}/%#'.includes(String.fromCharCode(byte));
    result +=
      byte < 0x21 || byte > 0x7e || delimiter ? `#${byte.toString(16).padStart(2, '0')}` : String.fromCharCode(byte);
  }
  return result;
}

function uniqueFieldName(fields: PdfArray, resolve: (ref: PdfRef) => PdfObject | null, base: string): string {
  const taken = new Set<string>();
  for (const item of fields) {
    const field = item instanceof PdfRef ? resolve(item) : item;
    if (field instanceof PdfDict) {
      const name = field.getString('T', resolve);
      if (name) taken.add(name.asString());
    }
  }
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
  return name;
}

export function pdfDate(date: Date): string {
  const iso = date.toISOString();
  return `D:${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
}
