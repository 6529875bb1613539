import { PDF, type PdfArray, PdfDict, PdfName, PdfRef } from '@libpdf/core';
import type { PdfObject } from '@libpdf/core';
import { visiblePageBox, type Resolve, type Rotation } from './page-geometry.ts';
import { createWorkerPool } from './worker-pool.ts';

/**
 * One page as a viewer displays it, in PDF points: `width` and `height` of the visible region (the CropBox
 * intersected with the MediaBox, both possibly inherited from the page tree) after applying `rotation`
 * (the page's /Rotate, clockwise, normalised to 0, 90, 180 or 270; 90 and 270 swap width and height).
 *
 * This is the shape stored in documents.pageSizes (one entry per page, in page order). Field placement
 * validates boxes against it, and sealing draws with the same geometry (origin top-left of the displayed page).
 */
export type PageSize = { width: number; height: number; rotation: Rotation };

export type PdfInfo = { pages: number; pageSizes: PageSize[] };

/** `too-complex`: reading its structure would cost more than a document may (see StructureLimits). */
export type PdfRejection = 'not-pdf' | 'damaged' | 'encrypted' | 'signed' | 'too-complex';

/** Why a file cannot be used as a document; `message` is a sentence meant for the uploader. */
export class PdfRejectedError extends Error {
  readonly reason: PdfRejection;
  constructor(reason: PdfRejection, message: string) {
    super(message);
    this.name = 'PdfRejectedError';
    this.reason = reason;
  }
}

const HEADER = Buffer.from('%PDF-');
const TRAILER = Buffer.from('%%EOF');
// Readers accept the header and the end-of-file marker within the first and last 1024 bytes (PDF 32000 annex H).
const MARKER_WINDOW = 1024;

/** True when the bytes start like a PDF (the header may follow a little junk, as readers allow). */
export function hasPdfHeader(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, MARKER_WINDOW)).includes(HEADER);
}

/**
 * Checks that the bytes are a usable, unsigned, unencrypted PDF and reads its page geometry. Throws
 * PdfRejectedError otherwise. Only the structure is parsed; page content is not interpreted. On the event loop
 * this costs whatever the file makes it cost: an upload is checked by createPdfInspector, in a worker under
 * limits. `afterLoad` runs once the file is parsed and known not to be encrypted.
 */
export async function inspectPdf(
  bytes: Uint8Array,
  options: { afterLoad?: (pdf: PDF) => void } = {},
): Promise<PdfInfo> {
  if (!hasPdfHeader(bytes))
    throw new PdfRejectedError('not-pdf', 'The file is not a PDF: it does not start with %PDF-');
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(
    Math.max(0, bytes.byteLength - MARKER_WINDOW),
  );
  if (!tail.includes(TRAILER)) {
    // The parser would recover the objects it can find, silently dropping the rest of a cut-off upload.
    throw new PdfRejectedError(
      'damaged',
      'The PDF is truncated or damaged: it has no end-of-file marker (%%EOF); upload the complete file',
    );
  }

  let pdf: PDF;
  try {
    pdf = await PDF.load(bytes);
  } catch (error) {
    throw new PdfRejectedError('damaged', `The PDF is damaged and cannot be read (${describe(error)})`);
  }
  if (pdf.isEncrypted) {
    throw new PdfRejectedError(
      'encrypted',
      'The PDF is encrypted (password-protected or with restricted permissions); remove the protection and upload it again',
    );
  }
  options.afterLoad?.(pdf);

  let pageSizes: PageSize[];
  try {
    const resolve = (ref: PdfRef) => pdf.getObject(ref);
    pageSizes = pdf.getPages().map((page) => pageSize(page.dict, resolve));
    if (pageSizes.length === 0) throw new PdfRejectedError('damaged', 'The PDF has no pages');
    if (isSigned(pdf, resolve)) {
      throw new PdfRejectedError(
        'signed',
        'The PDF already carries a digital signature; changing it would invalidate that signature. Upload the unsigned original',
      );
    }
  } catch (error) {
    if (error instanceof PdfRejectedError) throw error;
    throw new PdfRejectedError('damaged', `The PDF's page structure is damaged (${describe(error)})`);
  }
  return { pages: pageSizes.length, pageSizes };
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}

// ---------------------------------------------------------------------------------------------------------
// Uploads: checked in worker threads, under limits

/** What the pool sends a worker (inspect-pdf-worker.ts), and what it answers. */
export type InspectRequest = { pdf: Uint8Array; limits: StructureLimits };
export type InspectReply =
  | { id: number; info: PdfInfo }
  | { id: number; rejected: { reason: PdfRejection; message: string } };

/**
 * What reading one PDF's structure may cost (inspect-pdf-worker.ts enforces them). A small file can make a
 * parser do unbounded work: a 10 KB cross-reference stream declaring 2.6 million rows held the event loop for
 * 12.5 s, and inflated bytes are ArrayBuffers that a worker's heap limit does not count. The check does what a
 * later parse of the stored bytes can do (sealing, stamping and signing load them with libpdf on the event loop:
 * every cross-reference section, every object stream), so a later parse costs at most about what the check did:
 * maxCpuMs. Measured on 2 shared cores under load, a check took 121 ms for a 5,000-page PDF and 271 ms for
 * 100,000 objects in object streams; a 25 MB scan 5 ms.
 */
export type StructureLimits = {
  /**
   * Rows all cross-reference streams together may declare (libpdf builds one map entry per row, 1.2 µs each here).
   * Cross-reference tables need 20 bytes of file a row: they are bounded by the file's size and maxCpuMs.
   */
  maxObjects: number;
  /** Bytes one cross-reference or object stream may decode to. */
  maxStreamBytes: number;
  /** Bytes all decoded streams of one file may add up to. */
  maxDecodedBytes: number;
  /** Processor time (of the worker's thread, whatever else the machine runs) reading the structure may take. */
  maxCpuMs: number;
};

export const STRUCTURE_LIMITS: StructureLimits = {
  maxObjects: 300_000,
  maxStreamBytes: 16 * 1024 * 1024,
  maxDecodedBytes: 64 * 1024 * 1024,
  maxCpuMs: 500,
};

export type PdfInspectorOptions = {
  /** Worker threads checking at once (default 2: the machine's cores are shared with the service). */
  workers?: number;
  /** Checks that may wait for a worker; beyond, QueueFullError (the caller answers 503 with Retry-After). */
  maxWaiting?: number;
  /** A check still running after this long is stopped by terminating its worker and the file refused (default 6 s). */
  timeLimitMs?: number;
  /** V8 heap of one worker (default 256 MB); a file needing more is refused. */
  maxHeapMb?: number;
  limits?: Partial<StructureLimits>;
};

export type PdfInspector = {
  /**
   * inspectPdf in a worker thread, under StructureLimits, a time limit and a heap limit: whatever the file holds,
   * the event loop is not held and the process's memory stays bounded. The bytes move to the worker: `pdf` is
   * unusable afterwards (unless it was a view the worker could not take; then it is copied). Throws
   * PdfRejectedError (a file beyond a limit is `too-complex`) and QueueFullError (too many checks waiting).
   */
  inspect(pdf: Uint8Array): Promise<PdfInfo>;
  readonly retryAfterSeconds: number;
  close(): Promise<void>;
};

export const PDF_INSPECTOR_DEFAULTS = { workers: 2, maxWaiting: 16, timeLimitMs: 6_000, maxHeapMb: 256 };

export function createPdfInspector(options: PdfInspectorOptions = {}): PdfInspector {
  const settings = {
    ...PDF_INSPECTOR_DEFAULTS,
    ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
  } as typeof PDF_INSPECTOR_DEFAULTS;
  const limits = { ...STRUCTURE_LIMITS, ...options.limits };
  const pool = createWorkerPool<InspectRequest, InspectReply>(
    new URL('./inspect-pdf-worker.ts', import.meta.url),
    settings,
  );
  return {
    retryAfterSeconds: Math.max(1, Math.ceil(settings.timeLimitMs / 1000)),

    async inspect(pdf) {
      // A view into a larger buffer (Node's pool for small Buffers) cannot be handed over whole: copy it.
      const own =
        pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength && pdf.buffer instanceof ArrayBuffer
          ? pdf
          : new Uint8Array(pdf);
      const outcome = await pool.run({ pdf: own, limits }, [own.buffer as ArrayBuffer]);
      if ('reply' in outcome) {
        if ('info' in outcome.reply) return outcome.reply.info;
        throw new PdfRejectedError(outcome.reply.rejected.reason, outcome.reply.rejected.message);
      }
      const { limit, detail } = outcome.stopped;
      if (limit === 'time')
        throw new PdfRejectedError(
          'too-complex',
          `The PDF's structure is too costly to read: it was not read within ${settings.timeLimitMs / 1000} s`,
        );
      if (limit === 'memory')
        throw new PdfRejectedError(
          'too-complex',
          `The PDF's structure is too costly to read: it needs more than the ${settings.maxHeapMb} MB of memory a document may take`,
        );
      throw new PdfRejectedError('damaged', `The PDF cannot be read (the reader failed: ${detail})`);
    },

    close: () => pool.close(),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Page geometry

function pageSize(dict: PdfDict, resolve: Resolve): PageSize {
  const { box, rotation } = visiblePageBox(dict, resolve);
  const width = round(box[2] - box[0]);
  const height = round(box[3] - box[1]);
  return rotation === 90 || rotation === 270 ? { width: height, height: width, rotation } : { width, height, rotation };
}

/** Drops binary noise such as 595.2760000000001 without moving a page edge by anything visible. */
function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

// ---------------------------------------------------------------------------------------------------------
// Existing signatures

/**
 * A document is signed when a signature field (/FT /Sig, possibly inherited from a parent field) holds a
 * value (/V, the signature dictionary with its /ByteRange), or when a certification signature is registered
 * in the catalog's /Perms /DocMDP. Fields are looked for both in the AcroForm tree and among the pages'
 * widget annotations, since some writers leave a signed widget out of /Fields. An empty signature field
 * (a place to sign) is not a signature. A /Perms /UR3 usage-rights signature (Adobe Reader extensions of
 * a blank form) is not one either: it certifies the form's features, not anybody's consent.
 */
function isSigned(pdf: PDF, resolve: Resolve): boolean {
  const catalog = pdf.getCatalog();
  const perms = catalog.getDict('Perms', resolve);
  if (perms && asDict(perms.get('DocMDP', resolve), resolve)) return true;

  const seen = new Set<PdfDict>();
  const acroForm = catalog.getDict('AcroForm', resolve);
  const stack: PdfDict[] = [];
  const pushAll = (array: PdfArray | undefined) => {
    for (const item of array?.toArray() ?? []) {
      const dict = asDict(item, resolve);
      if (dict && !seen.has(dict)) {
        seen.add(dict);
        stack.push(dict);
      }
    }
  };
  pushAll(acroForm?.getArray('Fields', resolve));
  for (const page of pdf.getPages()) pushAll(page.dict.getArray('Annots', resolve));
  // Bounded: a cyclic or absurdly deep field tree must not hang the upload.
  for (let visited = 0; stack.length > 0 && visited < 200_000; visited++) {
    const field = stack.pop()!;
    if (isSignedSignatureField(field, resolve)) return true;
    pushAll(field.getArray('Kids', resolve));
  }
  return false;
}

function isSignedSignatureField(field: PdfDict, resolve: Resolve): boolean {
  let type: PdfObject | undefined;
  let value: PdfObject | undefined;
  let node: PdfDict | undefined = field;
  for (let depth = 0; node && depth < 32 && (type === undefined || value === undefined); depth++) {
    type ??= node.get('FT', resolve);
    value ??= node.get('V', resolve);
    node = node.getDict('Parent', resolve);
  }
  return type instanceof PdfName && type.value === 'Sig' && asDict(value, resolve) !== null;
}

function asDict(value: PdfObject | undefined | null, resolve: Resolve): PdfDict | null {
  const resolved = value instanceof PdfRef ? resolve(value) : value;
  return resolved instanceof PdfDict ? resolved : null;
}
