import zlib from 'node:zlib';

/** A one-page PDF written by hand from its objects (1: catalog, 2: pages, 3: page, then the rest), with a correct xref. */
function assemblePdf(pageDict: string, extraObjects: Buffer[]): Uint8Array {
  const objects = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(pageDict),
    ...extraObjects,
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0].length;
  objects.forEach((body, index) => {
    offsets.push(length);
    const chunk = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(chunk);
    length += chunk.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n`,
    '0000000000 65535 f \n',
    ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`),
  ].join('');
  parts.push(
    Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`),
  );
  return new Uint8Array(Buffer.concat(parts));
}

function stream(dictionary: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`),
    data,
    Buffer.from('\nendstream'),
  ]);
}

/**
 * About 100 KB that inflates to a 5800 × 5800 RGB image (100 MB of pixels) drawn over page 1. Rendered on the
 * event loop, it held the process for about a second.
 */
export function makeImageBombPdf(side = 5800): Uint8Array {
  const pixels = zlib.deflateSync(Buffer.alloc(side * side * 3), { level: 9 });
  const content = Buffer.from('q 612 0 0 792 0 0 cm /Im0 Do Q');
  return assemblePdf(
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>',
    [
      stream('', content),
      stream(
        `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode`,
        pixels,
      ),
    ],
  );
}

/** About 100 KB whose page-1 content stream inflates to `megabytes` MB of drawing operators (millions of fills). */
export function makeContentBombPdf(megabytes = 100): Uint8Array {
  const operation = '0 0 612 792 re f\n';
  const content = Buffer.alloc(megabytes * 1024 * 1024 - ((megabytes * 1024 * 1024) % operation.length), operation);
  return assemblePdf('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>', [
    stream('/Filter /FlateDecode', zlib.deflateSync(content, { level: 9 })),
  ]);
}

// ---------------------------------------------------------------------------------------------------------
// Cross-reference streams and object streams

/** Writes a PDF part by part, keeping the offset of each object for the cross-reference data. */
class PdfWriter {
  readonly parts: Buffer[] = [];
  length = 0;
  add(part: Buffer | string): number {
    const at = this.length;
    const buffer = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    this.parts.push(buffer);
    this.length += buffer.length;
    return at;
  }
  bytes(): Uint8Array {
    return new Uint8Array(Buffer.concat(this.parts));
  }
}

/** An xref stream's rows, W [1 4 2]: type 1 (offset, generation) or 2 (object stream, index); row 0 and gaps free. */
function xrefRows(size: number, rows: Map<number, [number, number, number]>): Buffer {
  const data = Buffer.alloc(size * 7);
  for (const [number, [type, field2, field3]] of rows) {
    data[number * 7] = type;
    data.writeUInt32BE(field2, number * 7 + 1);
    data.writeUInt16BE(field3, number * 7 + 5);
  }
  return data;
}

export type XrefStreamBombOptions = {
  /** Rows the cross-reference stream declares (its /Size): 2,621,440 inflate to 10 MB with W [1 2 1] (about 10 KB deflated). */
  entries?: number;
  /** /W: [0 0 0] makes rows of no bytes at all, so nothing needs inflating. */
  widths?: [number, number, number];
};

/**
 * A valid one-page PDF (catalog 1, pages 2, page 3, the cross-reference stream 4) whose cross-reference stream
 * declares `entries` rows, the first five real and the rest zeros (free objects), deflated: every reader loads
 * it as the one page it is, but libpdf first builds one map entry per declared row (2,621,440 rows from 10 KB
 * held the event loop for 12.5 s; 26 million from 100 KB, 68 s and 1.6 GB).
 */
export function makeXrefStreamBombPdf(options: XrefStreamBombOptions = {}): Uint8Array {
  const entries = options.entries ?? 2_621_440;
  const widths = options.widths ?? [1, 2, 1];
  const rowBytes = widths[0] + widths[1] + widths[2];
  const pdf = new PdfWriter();
  pdf.add('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  const offsets = [
    pdf.add('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n'),
    pdf.add('2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n'),
    pdf.add('3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n'),
  ];
  const xrefAt = pdf.length;
  offsets.push(xrefAt);
  const rows = Buffer.alloc(entries * rowBytes);
  if (rowBytes > 0) {
    offsets.forEach((offset, index) => {
      const row = (index + 1) * rowBytes;
      rows.writeUIntBE(1, row, widths[0]);
      rows.writeUIntBE(offset, row + widths[0], widths[1]);
    });
  }
  const data = zlib.deflateSync(rows, { level: 9 });
  pdf.add(
    `4 0 obj\n<< /Type /XRef /Size ${entries} /W [${widths.join(' ')}] /Root 1 0 R /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
  );
  pdf.add(data);
  pdf.add(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`);
  return pdf.bytes();
}

export type ObjectStreamPdfOptions = {
  /** Small dictionaries (structure elements, as a tagged PDF has) stored in object streams, `perStream` each. */
  objects?: number;
  perStream?: number;
  /**
   * Appended to the first object stream's data (after its objects, so they still parse): `bomb` megabytes of
   * zeros that deflate to about a thousandth of that. The page's /Resources lives in that stream, so only a
   * reader that resolves the resources (drawing on the page, as sealing does) inflates it.
   */
  bombMegabytes?: number;
};

/**
 * A one-page PDF in the shape modern writers use: its objects compressed in object streams, indexed by a
 * cross-reference stream. Honest by default; with `bombMegabytes`, its first object stream is a decompression bomb.
 */
export function makeObjectStreamPdf(options: ObjectStreamPdfOptions = {}): Uint8Array {
  const objects = options.objects ?? 1000;
  const perStream = options.perStream ?? 100;
  const pdf = new PdfWriter();
  const rows = new Map<number, [number, number, number]>();
  pdf.add('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  // 1 catalog, 2 pages, 3 page, 4 structure tree root: plain objects; 5 the page's resources, 6… the elements: compressed.
  rows.set(1, [1, pdf.add('1 0 obj\n<< /Type /Catalog /Pages 2 0 R /StructTreeRoot 4 0 R >>\nendobj\n'), 0]);
  rows.set(2, [1, pdf.add('2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n'), 0]);
  rows.set(3, [
    1,
    pdf.add('3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources 5 0 R >>\nendobj\n'),
    0,
  ]);
  rows.set(4, [1, pdf.add('4 0 obj\n<< /Type /StructTreeRoot /K 6 0 R >>\nendobj\n'), 0]);
  const compressed = [5, ...Array.from({ length: objects }, (_, index) => index + 6)];
  let streamNumber = compressed[compressed.length - 1] + 1;
  for (let start = 0; start < compressed.length; start += perStream) {
    const members = compressed.slice(start, start + perStream);
    const bodies = members.map((number, index) =>
      number === 5 ? '<< /ProcSet [/PDF /Text] >>' : `<< /Type /StructElem /S /P /P 4 0 R /Pg 3 0 R /K ${index} >>`,
    );
    const index: string[] = [];
    let offset = 0;
    for (const body of bodies) {
      index.push(`${members[index.length]} ${offset}`);
      offset += body.length + 1;
    }
    members.forEach((number, position) => rows.set(number, [2, streamNumber, position]));
    const header = `${index.join(' ')}\n`;
    let plain = Buffer.from(`${header}${bodies.join('\n')}\n`, 'latin1');
    if (start === 0 && options.bombMegabytes)
      plain = Buffer.concat([plain, Buffer.alloc(options.bombMegabytes * 1024 * 1024, 0x20)]);
    const data = zlib.deflateSync(plain, { level: 9 });
    rows.set(streamNumber, [
      1,
      pdf.add(
        `${streamNumber} 0 obj\n<< /Type /ObjStm /N ${members.length} /First ${header.length} /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
      ),
      0,
    ]);
    pdf.add(data);
    pdf.add('\nendstream\nendobj\n');
    streamNumber++;
  }
  const xrefNumber = streamNumber;
  const xrefAt = pdf.length;
  rows.set(xrefNumber, [1, xrefAt, 0]);
  const data = zlib.deflateSync(xrefRows(xrefNumber + 1, rows));
  pdf.add(
    `${xrefNumber} 0 obj\n<< /Type /XRef /Size ${xrefNumber + 1} /W [1 4 2] /Root 1 0 R /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
  );
  pdf.add(data);
  pdf.add(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`);
  return pdf.bytes();
}

/**
 * A valid one-page PDF whose cross-reference table lists `rows` rows, all but the first four free: no
 * amplification (20 bytes of file a row), but about 1.2 µs of libpdf's time a row (1,000,000 rows: 20 MB, 1.2 s).
 */
export function makeXrefTablePdf(rows: number): Uint8Array {
  const pdf = new PdfWriter();
  pdf.add('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  const offsets = [
    pdf.add('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n'),
    pdf.add('2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n'),
    pdf.add('3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n'),
  ];
  const xrefAt = pdf.length;
  pdf.add(
    `xref\n0 ${rows}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`,
  );
  pdf.add(Buffer.alloc((rows - 4) * 20, '0000000000 00001 f \n'));
  pdf.add(`trailer\n<< /Size ${rows} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`);
  return pdf.bytes();
}
