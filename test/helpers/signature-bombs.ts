import crypto from 'node:crypto';

/** Hostile signed PDFs for POST /verify/v1: files whose signatures would cost a naive verifier far more than their size. */

export type SignatureBombOptions = {
  /** Signature fields, each with its own signature dictionary (objects 5, 7, 9, ...), all in one revision. */
  signatures: number;
  /**
   * `shared`: every dictionary names the byte range of the first one (which leaves out the first dictionary's
   * /Contents). `own`: each names a range leaving out its own /Contents. Either way every range runs to the end
   * of the file, so its second part is nearly the whole file.
   */
  ranges: 'shared' | 'own';
  /** Signs the first dictionary's range (gets its SHA-256, answers a CMS): a real signature a verifier checks up to the digest. */
  sign: (digest: Uint8Array) => Promise<Uint8Array>;
  /** The file's size (default 24 MB): a padding stream fills it up to this. */
  totalBytes?: number;
};

/** Ten digits per ByteRange number and per /Length, so filling in the real values moves no offset. */
const pad = (n: number) => String(n).padStart(10, '0');
/** Room for the first dictionary's CMS (bytes). */
const RESERVE = 8192;

/**
 * A PDF of `totalBytes` (default 24 MB) whose `signatures` signature dictionaries sit near its start, before a
 * padding stream, so every byte range they name has a second part of nearly the whole file. With `shared`
 * ranges, a verifier hashing the range once per dictionary hashes the file `signatures` times (400 over 24 MB
 * held the event loop 9.9 s); with `own` ranges, one revision claims `signatures` signatures whose ranges all
 * overlap. Only the first dictionary's /Contents is a CMS (signed over its range); the others hold `<00>`.
 *
 * Objects: 1 catalog (AcroForm /Fields), 2 pages, 3 page, 4 padding stream (written last), then for each
 * signature i its dictionary (5 + 2i) and its field (6 + 2i).
 */
export async function makeSignatureBombPdf(options: SignatureBombOptions): Promise<Uint8Array> {
  const { signatures, ranges, totalBytes = 24 * 1024 * 1024 } = options;
  const placeholder = (i: number) => (i === 0 ? '0'.repeat(RESERVE * 2) : '00');
  const build = (byteRanges: string[], paddingBytes: number) => {
    const fields = Array.from({ length: signatures }, (_, i) => `${6 + 2 * i} 0 R`).join(' ');
    const objects: Array<[number, Buffer]> = [
      [1, Buffer.from(`<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [${fields}] /SigFlags 3 >> >>`)],
      [2, Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>')],
      [3, Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>')],
    ];
    for (let i = 0; i < signatures; i++) {
      const range = byteRanges[ranges === 'shared' ? 0 : i];
      objects.push([
        5 + 2 * i,
        Buffer.from(
          `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /ByteRange ${range} /Contents <${placeholder(i)}> /M (D:20260101000000Z) >>`,
        ),
      ]);
      objects.push([6 + 2 * i, Buffer.from(`<< /FT /Sig /T (Signature${i + 1}) /V ${5 + 2 * i} 0 R >>`)]);
    }
    objects.push([
      4,
      Buffer.concat([
        Buffer.from(`<< /Length ${pad(paddingBytes)} >>\nstream\n`),
        Buffer.alloc(paddingBytes, 0x25),
        Buffer.from('\nendstream'),
      ]),
    ]);
    const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
    const offsets = new Map<number, number>();
    const gaps: Array<[number, number]> = [];
    let length = parts[0].length;
    for (const [number, body] of objects) {
      offsets.set(number, length);
      const header = Buffer.from(`${number} 0 obj\n`);
      if (number >= 5 && number % 2 === 1) {
        const at = length + header.length + body.indexOf('/Contents <') + '/Contents '.length;
        gaps.push([at, at + placeholder((number - 5) / 2).length + 2]);
      }
      const chunk = Buffer.concat([header, body, Buffer.from('\nendobj\n')]);
      parts.push(chunk);
      length += chunk.length;
    }
    const size = objects.length + 1;
    const xref = [`xref\n0 ${size}\n`, '0000000000 65535 f \n'];
    for (let n = 1; n < size; n++) xref.push(`${pad(offsets.get(n)!)} 00000 n \n`);
    parts.push(
      Buffer.from(`${xref.join('')}trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${pad(length)}\n%%EOF\n`),
    );
    return { file: Buffer.concat(parts), gaps };
  };
  const blank = Array.from({ length: signatures }, () => `[0 ${pad(0)} ${pad(0)} ${pad(0)}]`);
  // Sizes first (every number has a fixed width), then the real ranges over the final layout.
  const paddingBytes = Math.max(0, totalBytes - build(blank, 0).file.length);
  const { file: laidOut, gaps } = build(blank, paddingBytes);
  const { file } = build(
    gaps.map(([start, end]) => `[0 ${pad(start)} ${pad(end)} ${pad(laidOut.length - end)}]`),
    paddingBytes,
  );
  const [start, end] = gaps[0];
  const digest = crypto.createHash('sha256').update(file.subarray(0, start)).update(file.subarray(end)).digest();
  const cms = Buffer.from(await options.sign(new Uint8Array(digest)));
  if (cms.length > RESERVE) throw new Error('the CMS does not fit');
  file.write(cms.toString('hex'), start + 1, 'latin1');
  return new Uint8Array(file.buffer, file.byteOffset, file.length);
}

/**
 * `sealed` (a file this service's signer wrote: its signature dictionary is `N 0 obj\n<< /Type /Sig ... /ByteRange
 * [...] /Contents <...>`) with one more revision holding two more signature fields that claim the seal's signature:
 * `Copy`, whose /V is a new dictionary with the seal's /ByteRange and /Contents, and `Alias`, whose /V is a new
 * object number that the cross-reference table places at the seal's own dictionary (so a parser reads the seal's
 * dictionary a second time, as another object).
 */
export function appendSignatureCopies(sealed: Uint8Array): Uint8Array {
  const text = Buffer.from(sealed).toString('latin1');
  const signature = [
    ...text.matchAll(/(\d+) 0 obj\n<< \/Type \/Sig [^]*?\/ByteRange (\[[^\]]*\]) \/Contents <([0-9a-f]*)>/g),
  ].at(-1)!;
  const root = [...text.matchAll(/\/Root (\d+) 0 R/g)].at(-1)![1];
  const catalog = [...text.matchAll(new RegExp(`\\n${root} 0 obj\\n(<<[^]*?>>)\\nendobj`, 'g'))].at(-1)![1];
  const prev = [...text.matchAll(/startxref\n(\d+)/g)].at(-1)![1];
  const size = Number([...text.matchAll(/\/Size (\d+)/g)].at(-1)![1]);
  const [copy, copyField, aliasField, alias] = [size, size + 1, size + 2, size + 3];
  const objects: Array<[number, string]> = [
    [
      copy,
      `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /ByteRange ${signature[2]} /Contents <${signature[3]}> >>`,
    ],
    [copyField, `<< /FT /Sig /T (Copy) /V ${copy} 0 R >>`],
    [aliasField, `<< /FT /Sig /T (Alias) /V ${alias} 0 R >>`],
    [Number(root), catalog.replace(/\/Fields \[([^\]]*)\]/, `/Fields [$1 ${copyField} 0 R ${aliasField} 0 R]`)],
  ];
  let update = '\n';
  const offsets = new Map<number, number>([[alias, signature.index!]]);
  for (const [number, body] of objects) {
    offsets.set(number, sealed.length + update.length);
    update += `${number} 0 obj\n${body}\nendobj\n`;
  }
  const xrefAt = sealed.length + update.length;
  update += 'xref\n';
  for (const [number, offset] of [...offsets].sort((a, b) => a[0] - b[0]))
    update += `${number} 1\n${String(offset).padStart(10, '0')} 00000 n \n`;
  update += `trailer\n<< /Size ${alias + 1} /Root ${root} 0 R /Prev ${prev} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return new Uint8Array(Buffer.concat([Buffer.from(sealed), Buffer.from(update, 'latin1')]));
}

/**
 * About 14 MB of form fields and no signature: a chain of `depth` fields, the last with `leaves` kids, each kid
 * naming the chain's end as its /Parent, so a reader looking up a kid's inherited /FT and /V climbs the whole
 * chain for each of them. Walked on the event loop, the 200,000 kids held it for about 1.9 s.
 */
export function makeFieldTreeBombPdf(leaves = 200_000, depth = 31): Uint8Array {
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] >> >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    '<< /T (root) /Kids [5 0 R] >>',
  ];
  const firstLeaf = 5 + depth;
  for (let level = 1; level <= depth; level++) {
    const number = 4 + level;
    const kids =
      level === depth
        ? Array.from({ length: leaves }, (_, i) => `${firstLeaf + i} 0 R`).join(' ')
        : `${number + 1} 0 R`;
    objects.push(`<< /Parent ${number - 1} 0 R /Kids [${kids}] >>`);
  }
  for (let i = 0; i < leaves; i++) objects.push(`<< /Parent ${4 + depth} 0 R >>`);
  let body = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n`,
    '0000000000 65535 f \n',
    ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`),
  ].join('');
  body += `${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${body.length}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(body, 'latin1'));
}
