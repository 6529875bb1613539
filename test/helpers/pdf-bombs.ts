import zlib from 'node:zlib';

/** A one-page PDF written by hand from its objects (1: catalog, 2: pages, 3: page, then the rest), with a correct xref. */
function assemblePdf(pageDict: string, extraObjects: Buffer[]): Uint8Array {
  const objects = [Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'), Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'), Buffer.from(pageDict), ...extraObjects];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0].length;
  objects.forEach((body, index) => {
    offsets.push(length);
    const chunk = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(chunk);
    length += chunk.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, '0000000000 65535 f \n', ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return new Uint8Array(Buffer.concat(parts));
}

function stream(dictionary: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]);
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
    [stream('', content), stream(`/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode`, pixels)],
  );
}

/** About 100 KB whose page-1 content stream inflates to `megabytes` MB of drawing operators (millions of fills). */
export function makeContentBombPdf(megabytes = 100): Uint8Array {
  const operation = '0 0 612 792 re f\n';
  const content = Buffer.alloc(megabytes * 1024 * 1024 - ((megabytes * 1024 * 1024) % operation.length), operation);
  return assemblePdf(
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
    [stream('/Filter /FlateDecode', zlib.deflateSync(content, { level: 9 }))],
  );
}
