// Runs in a worker thread (createPdfInspector in inspect-pdf.ts): an upload's PDF is parsed and checked here,
// never on the service's event loop, under the pool's heap and time limits and StructureLimits (enforced here).
import { parentPort } from 'node:worker_threads';
import { Unzlib } from 'fflate';
import { PdfArray, PdfName, PdfNumber, PdfRef, PdfStream } from '@libpdf/core';
import type { PDF } from '@libpdf/core';
import {
  inspectPdf,
  PdfRejectedError,
  type InspectReply,
  type InspectRequest,
  type StructureLimits,
} from './inspect-pdf.ts';

/**
 * What libpdf has decoded for the inspection in progress. Reading a PDF's structure decodes two kinds of stream:
 * cross-reference streams (all of them, at load) and object streams (each when an object inside is first
 * resolved). Both are where a small file can make the parser do unbounded work: a cross-reference stream's
 * rows (libpdf builds one map entry per declared row, before anything else), and inflated bytes (pako's output
 * is ArrayBuffers, which the worker's heap limit does not count).
 */
type Inspection = {
  limits: StructureLimits;
  declaredRows: number;
  decodedBytes: number;
  /** The first limit crossed, as the end of a sentence for the uploader. */
  exceeded: string | null;
  /** Every object stream a cross-reference stream points into → one object stored in it. */
  objectStreams: Map<number, number>;
  decoded: WeakSet<PdfStream>;
};

let current: Inspection | null = null;

class StructureLimitError extends Error {}

function exceed(inspection: Inspection, detail: string): never {
  inspection.exceeded ??= detail;
  throw new StructureLimitError(inspection.exceeded);
}

// libpdf decodes every stream through this method; while an inspection runs, each decoding is admitted first.
// libpdf swallows errors while recovering a damaged file, so a crossed limit is also remembered and checked after.
const decode = PdfStream.prototype.getDecodedData;
PdfStream.prototype.getDecodedData = function getDecodedDataWithinLimits(this: PdfStream): Uint8Array {
  const inspection = current;
  if (!inspection) return decode.call(this);
  if (inspection.exceeded) throw new StructureLimitError(inspection.exceeded);
  const isXref = this.getName('Type')?.value === 'XRef';
  if (isXref) admitRows(this, inspection);
  admitDecoding(this, inspection);
  const data = decode.call(this);
  inspection.decodedBytes += data.length;
  inspection.decoded.add(this);
  if (isXref) recordObjectStreams(this, data, inspection);
  return data;
};

/** Rows as libpdf's cross-reference stream parser counts them: /Index's counts, else /Size. */
function admitRows(stream: PdfStream, inspection: Inspection): void {
  const index = stream.getArray('Index');
  let rows = 0;
  if (index) {
    for (let i = 1; i < index.length; i += 2) {
      const count = index.at(i);
      if (count instanceof PdfNumber && count.value > 0) rows += count.value;
    }
  } else {
    rows = Math.max(0, stream.getNumber('Size')?.value ?? 0);
  }
  inspection.declaredRows += rows;
  const max = inspection.limits.maxObjects;
  if (inspection.declaredRows > max) {
    exceed(
      inspection,
      `its cross-reference streams declare ${inspection.declaredRows.toLocaleString('en')} objects, more than the ${max.toLocaleString('en')} a document may have`,
    );
  }
}

/** The most a filter can expand its input, for the filters not measured (pako is measured: see inflatedSize). */
const EXPANSION: Record<string, number> = {
  FlateDecode: 1032, // deflate's own maximum ratio
  LZWDecode: 3500, // a 9-bit code emits at most a 3,840-byte dictionary entry (the dictionary stops at 4,096)
  RunLengthDecode: 64, // 2 bytes repeat one byte at most 128 times
  ASCII85Decode: 4, // "z" stands for 4 zero bytes
  ASCIIHexDecode: 0.5,
  DCTDecode: 1, // passed through undecoded
};
const MEASURE_SLICE = 1024;
const MB = 1024 * 1024;

/**
 * Refuses a decoding that could produce more than a stream may (limits.maxStreamBytes) or than the inspection has
 * left (limits.maxDecodedBytes), before it runs. Filters are bounded by their largest expansion; a first Flate
 * filter (the usual case) whose bound does not fit is measured instead, by inflating and discarding (fflate, in slices).
 */
function admitDecoding(stream: PdfStream, inspection: Inspection): void {
  const entry = stream.get('Filter');
  const names =
    entry instanceof PdfName
      ? [entry.value]
      : entry instanceof PdfArray
        ? entry
            .toArray()
            .filter((item) => item instanceof PdfName)
            .map((item) => item.value)
        : [];
  if (names.length === 0) return;
  const room = Math.min(inspection.limits.maxStreamBytes, inspection.limits.maxDecodedBytes - inspection.decodedBytes);
  let bound = stream.data.length;
  names.forEach((name, position) => {
    if (name === 'FlateDecode' && position === 0)
      bound = bound * EXPANSION.FlateDecode <= room ? bound * EXPANSION.FlateDecode : inflatedSize(stream.data, room);
    else if (name === 'CCITTFaxDecode')
      bound = Infinity; // its output is sized by /Columns and /Rows, not by its input
    else bound *= EXPANSION[name] ?? 1; // JPX and JBIG2 are refused by libpdf, unknown names too
  });
  if (bound <= room) return;
  exceed(
    inspection,
    room < inspection.limits.maxStreamBytes
      ? `its compressed structure expands to more than ${inspection.limits.maxDecodedBytes / MB} MB in all`
      : `a compressed stream of its structure expands to more than ${inspection.limits.maxStreamBytes / MB} MB`,
  );
}

/**
 * An upper bound of what pako (libpdf's inflater) makes of `data`, or Infinity past `limit`: fflate, fed in slices,
 * stops at the first fault as pako does, but keeps a cut-off last slice's output, hence the slice's worth added.
 */
function inflatedSize(data: Uint8Array, limit: number): number {
  let size = 0;
  const inflater = new Unzlib((chunk) => {
    size += chunk.length;
    if (size > limit) throw new StructureLimitError('');
  });
  try {
    for (let at = 0; at < data.length; at += MEASURE_SLICE)
      inflater.push(data.subarray(at, at + MEASURE_SLICE), at + MEASURE_SLICE >= data.length);
  } catch (error) {
    if (error instanceof StructureLimitError) return Infinity;
    // Damaged or cut short: a lenient reader keeps what came out before the fault.
  }
  return size + EXPANSION.FlateDecode * MEASURE_SLICE;
}

/** Notes the object streams the rows point into (type 2 rows), read as libpdf reads them (/W, /Index). */
function recordObjectStreams(stream: PdfStream, data: Uint8Array, inspection: Inspection): void {
  const widths = stream.getArray('W');
  if (!widths || widths.length < 3) return;
  const [w1, w2, w3] = [0, 1, 2].map((i) => {
    const width = widths.at(i);
    return width instanceof PdfNumber ? width.value : 0;
  });
  const rowBytes = w1 + w2 + w3;
  if (w1 === 0 || rowBytes === 0 || [w1, w2, w3].some((width) => width < 0 || width > 6)) return;
  const index = stream.getArray('Index');
  const ranges: Array<[number, number]> = [];
  if (index) {
    for (let i = 0; i + 1 < index.length; i += 2) {
      const first = index.at(i);
      const count = index.at(i + 1);
      if (first instanceof PdfNumber && count instanceof PdfNumber) ranges.push([first.value, count.value]);
    }
  } else {
    ranges.push([0, stream.getNumber('Size')?.value ?? 0]);
  }
  const field = (at: number, width: number) => {
    let value = 0;
    for (let j = 0; j < width; j++) value = value * 256 + data[at + j];
    return value;
  };
  let at = 0;
  for (const [first, count] of ranges) {
    for (let i = 0; i < count && at + rowBytes <= data.length; i++, at += rowBytes) {
      if (field(at, w1) !== 2) continue;
      const objectStream = field(at + w1, w2);
      if (!inspection.objectStreams.has(objectStream)) inspection.objectStreams.set(objectStream, first + i);
    }
  }
}

/**
 * Decodes every object stream the cross-reference data points into, through libpdf (an object inside is resolved,
 * which also reads the stream's index), not only those the page tree reaches: later parses of the stored file
 * (drawing on a page resolves its resources, sealing the form's fields) then decode nothing that was not
 * decoded, within the limits, here.
 */
function readObjectStreams(pdf: PDF, inspection: Inspection): void {
  for (const [objectStream, member] of inspection.objectStreams) {
    if (inspection.exceeded) return;
    try {
      pdf.getObject(PdfRef.of(member, 0));
      const stream = pdf.getObject(PdfRef.of(objectStream, 0));
      if (stream instanceof PdfStream && !inspection.decoded.has(stream)) stream.getDecodedData();
    } catch {
      // A crossed limit is remembered in `inspection`; any other fault is the lenient reader's, as in a later parse.
    }
  }
}

function threadCpuMs(): number {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1000;
}

async function inspect(request: InspectRequest & { id: number }): Promise<InspectReply> {
  const inspection: Inspection = {
    limits: request.limits,
    declaredRows: 0,
    decodedBytes: 0,
    exceeded: null,
    objectStreams: new Map(),
    decoded: new WeakSet(),
  };
  const tooCostly = (detail: string) => ({
    id: request.id,
    rejected: { reason: 'too-complex' as const, message: `The PDF's structure is too costly to read: ${detail}` },
  });
  const started = threadCpuMs();
  current = inspection;
  try {
    const info = await inspectPdf(request.pdf, {
      afterLoad: (pdf) => {
        if (!inspection.exceeded) readObjectStreams(pdf, inspection);
        if (inspection.exceeded) throw new StructureLimitError(inspection.exceeded);
      },
    });
    if (inspection.exceeded) return tooCostly(inspection.exceeded);
    // Whatever made it costly (rows of a cross-reference table, a huge page tree, a recovery scan), a later parse
    // of these bytes on the service's event loop costs about as much: such a file is refused.
    const cpuMs = threadCpuMs() - started;
    if (cpuMs > request.limits.maxCpuMs)
      return tooCostly(
        `reading it took ${Math.round(cpuMs)} ms of processor time, more than the ${request.limits.maxCpuMs} ms a document may take`,
      );
    return { id: request.id, info };
  } catch (error) {
    if (inspection.exceeded) return tooCostly(inspection.exceeded);
    if (error instanceof PdfRejectedError)
      return { id: request.id, rejected: { reason: error.reason, message: error.message } };
    return {
      id: request.id,
      rejected: {
        reason: 'damaged',
        message: `The PDF cannot be read (${error instanceof Error ? error.message.slice(0, 200) : String(error)})`,
      },
    };
  } finally {
    current = null;
  }
}

parentPort!.on('message', (request: InspectRequest & { id: number }) => {
  void inspect(request).then((reply) => parentPort!.postMessage(reply));
});
// Everything is loaded: the pool starts an inspection's time limit from here.
parentPort!.postMessage({ ready: true });
