import type { PdfSignatureEntry } from './read-signatures.ts';

export const RANGE_PROBLEMS = {
  malformed: "The signature's byte range is malformed",
  notOwnContents: "The signature's byte range does not leave out exactly its own /Contents",
  notRevision: "The signature's byte range does not end where its revision ends (%%EOF)",
  sharedRevision:
    "More than one signature in one revision: no two of them can both be intact (each covers the other's /Contents)",
} as const;

/**
 * How far before its /Contents a signature dictionary's "N G obj" may start. Signers write a few keys before it
 * (/Filter, /SubFilter, /ByteRange, at most a /Cert chain); this bounds the reading per signature.
 */
const HEADER_WINDOW = 256 * 1024;

/**
 * Why each signature's byte range cannot be trusted to say what was signed (one of RANGE_PROBLEMS), or null
 * when it can. Checked on the file's bytes before anything is hashed, so a hostile range costs next to nothing.
 * A range must:
 * - start the file and name two parts inside it, in order: [0, a, b, c] with 0 < a < b and b + c at most the size;
 * - leave out exactly its own /Contents: the bytes between the parts are one hex string, and it is the /Contents
 *   value of the very object the field's /V names, found by position (the object header "N G obj" nearest before
 *   the gap, read forward to its /Contents). A dictionary naming another signature's range, or the same dictionary
 *   read again under another object number (a cross-reference entry aliasing it), fails here: so does every copy
 *   that claims one range, and one range is never shared by two signatures;
 * - end where its revision ends: at the first %%EOF after its /Contents, plus at most two end-of-line bytes;
 * - be the only signature of that revision: no signing tool writes two into one, and two there cannot both be
 *   intact, since each covers the other's /Contents.
 * The sound ranges are then nested revisions whose second parts do not overlap, so hashing all of them (see
 * range-digests.ts) costs at most two passes over the file per digest algorithm, whatever the file holds.
 */
export function signedRangeProblems(file: Uint8Array, entries: PdfSignatureEntry[]): (string | null)[] {
  const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const problems = entries.map((entry) => ownContentsProblem(bytes, entry));
  const sound = entries
    .map((entry, index) => ({ entry, index }))
    .filter(({ index }) => problems[index] === null)
    .sort((x, y) => x.entry.byteRange[2] - y.entry.byteRange[2]);
  // Queries come in file order, so no byte is searched twice for a revision end (nor, once none was found, again).
  let found = -1;
  let noneFrom = Infinity;
  const revisionEndFrom = (from: number) => {
    if (found >= from) return found;
    if (from >= noneFrom) return -1;
    found = indexOfEof(bytes, from);
    if (found < 0) noneFrom = from;
    return found;
  };
  const byRevision = new Map<number, number[]>();
  for (const { entry, index } of sound) {
    const [, , start2, length2] = entry.byteRange;
    const eof = revisionEndFrom(start2);
    if (eof < 0 || !endsAfterEof(bytes, eof, start2 + length2)) {
      problems[index] = RANGE_PROBLEMS.notRevision;
      continue;
    }
    const sharing = byRevision.get(eof);
    if (sharing) sharing.push(index);
    else byRevision.set(eof, [index]);
  }
  for (const indexes of byRevision.values()) {
    if (indexes.length > 1) for (const index of indexes) problems[index] = RANGE_PROBLEMS.sharedRevision;
  }
  return problems;
}

function ownContentsProblem(bytes: Buffer, entry: PdfSignatureEntry): string | null {
  const [start1, length1, start2, length2] = entry.byteRange;
  if (start1 !== 0 || length1 < 1 || start2 <= length1 + 1 || start2 + length2 > bytes.length)
    return RANGE_PROBLEMS.malformed;
  if (!entry.ref) return RANGE_PROBLEMS.notOwnContents;
  const header = objectHeaderBefore(bytes, length1);
  if (!header || header.objectNumber !== entry.ref.objectNumber || header.generation !== entry.ref.generation)
    return RANGE_PROBLEMS.notOwnContents;
  if (contentsValueAt(bytes, header.bodyAt, length1) !== length1) return RANGE_PROBLEMS.notOwnContents;
  // The gap is that hex string and nothing else (a gap holding more would leave unsigned bytes inside the file).
  if (bytes[length1] !== LT || bytes[start2 - 1] !== GT) return RANGE_PROBLEMS.notOwnContents;
  for (let i = length1 + 1; i < start2 - 1; i++) if (!isHexOrSpace(bytes[i])) return RANGE_PROBLEMS.notOwnContents;
  return null;
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00;
}

/** PDF delimiters: ( ) < > [ ] { } / % */
function isDelimiter(byte: number): boolean {
  return (
    byte === 0x28 ||
    byte === 0x29 ||
    byte === LT ||
    byte === GT ||
    byte === 0x5b ||
    byte === 0x5d ||
    byte === 0x7b ||
    byte === 0x7d ||
    byte === SLASH ||
    byte === 0x25
  );
}

function isDigit(byte: number): boolean {
  return byte >= 0x30 && byte <= 0x39;
}

function isHexOrSpace(byte: number): boolean {
  return isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66) || isSpace(byte);
}

/**
 * The "N G obj" header nearest before `before` (within HEADER_WINDOW), or null: none there, or an "endobj" comes
 * first (the position is not inside an object). One backward pass over the window, whatever it holds.
 */
function objectHeaderBefore(
  bytes: Buffer,
  before: number,
): { objectNumber: number; generation: number; bodyAt: number } | null {
  const floor = Math.max(0, before - HEADER_WINDOW);
  for (let at = before - 3; at >= floor; at--) {
    if (bytes[at] !== 0x6f || bytes[at + 1] !== 0x62 || bytes[at + 2] !== 0x6a) continue; // "obj"
    const next = bytes[at + 3];
    if (at + 3 < bytes.length && !isSpace(next) && !isDelimiter(next)) continue;
    if (at >= 3 && bytes[at - 3] === 0x65 && bytes[at - 2] === 0x6e && bytes[at - 1] === 0x64) return null; // "endobj"
    const header = headerEndingAt(bytes, at);
    if (header) return { ...header, bodyAt: at + 3 };
  }
  return null;
}

/** "N G " right before `at` (where "obj" starts), N at most 10 digits and G at most 5, after a space, a delimiter or the file's start. */
function headerEndingAt(bytes: Buffer, at: number): { objectNumber: number; generation: number } | null {
  let i = at - 1;
  if (i < 0 || !isSpace(bytes[i])) return null;
  while (i >= 0 && isSpace(bytes[i])) i--;
  const generationEnd = i + 1;
  while (i >= 0 && isDigit(bytes[i]) && generationEnd - i <= 5) i--;
  const generationStart = i + 1;
  if (generationStart === generationEnd || i < 0 || !isSpace(bytes[i])) return null;
  while (i >= 0 && isSpace(bytes[i])) i--;
  const numberEnd = i + 1;
  while (i >= 0 && isDigit(bytes[i]) && numberEnd - i <= 10) i--;
  const numberStart = i + 1;
  if (numberStart === numberEnd || (i >= 0 && !isSpace(bytes[i]) && !isDelimiter(bytes[i]))) return null;
  return {
    objectNumber: Number(bytes.toString('latin1', numberStart, numberEnd)),
    generation: Number(bytes.toString('latin1', generationStart, generationEnd)),
  };
}

/**
 * Where the value of the object's top-level /Contents key starts, reading the dictionary that begins at `from`;
 * -1 when the object is not a dictionary, has no such key before `limit`, or cannot be read there. Only the
 * syntax is followed (names, strings, hex strings, arrays and dictionaries nested, numbers and keywords).
 */
function contentsValueAt(bytes: Buffer, from: number, limit: number): number {
  let i = skipSpace(bytes, from, limit);
  if (bytes[i] !== LT || bytes[i + 1] !== LT) return -1;
  i += 2;
  while (i <= limit) {
    i = skipSpace(bytes, i, limit);
    if (i > limit) return -1;
    if (bytes[i] === GT && bytes[i + 1] === GT) return -1;
    if (bytes[i] === SLASH) {
      const end = nameEnd(bytes, i + 1, limit);
      const key = bytes.toString('latin1', i + 1, end);
      i = skipSpace(bytes, end, limit);
      if (key === 'Contents' || decodeName(key) === 'Contents') return i;
      i = skipObject(bytes, i, limit);
    } else {
      // Not a key: the rest of a value such as "12 0 R". Skipped as a token.
      i = skipObject(bytes, i, limit);
    }
    if (i < 0) return -1;
  }
  return -1;
}

function skipSpace(bytes: Buffer, from: number, limit: number): number {
  let i = from;
  while (i <= limit) {
    if (isSpace(bytes[i])) i++;
    else if (bytes[i] === 0x25) {
      while (i <= limit && bytes[i] !== 0x0a && bytes[i] !== 0x0d) i++;
    } else break;
  }
  return i;
}

function nameEnd(bytes: Buffer, from: number, limit: number): number {
  let i = from;
  while (i <= limit && !isSpace(bytes[i]) && !isDelimiter(bytes[i])) i++;
  return i;
}

function decodeName(raw: string): string {
  return raw.includes('#')
    ? raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : raw;
}

/** The position after one object starting at `from` (nested arrays and dictionaries included); -1 past `limit`. */
function skipObject(bytes: Buffer, from: number, limit: number): number {
  let depth = 0;
  let i = from;
  do {
    i = skipSpace(bytes, i, limit);
    if (i > limit) return -1;
    const byte = bytes[i];
    if (byte === LT && bytes[i + 1] === LT) {
      depth++;
      i += 2;
      continue;
    }
    if (byte === GT && bytes[i + 1] === GT) {
      depth--;
      i += 2;
      if (depth < 0) return -1;
      continue;
    }
    if (byte === 0x5b) {
      depth++;
      i++;
      continue;
    }
    if (byte === 0x5d) {
      depth--;
      i++;
      if (depth < 0) return -1;
      continue;
    }
    if (byte === 0x28) i = literalStringEnd(bytes, i, limit);
    else if (byte === LT) {
      while (i <= limit && bytes[i] !== GT) i++;
      i++;
    } else if (byte === SLASH) i = nameEnd(bytes, i + 1, limit);
    else if (byte === GT || byte === 0x29 || byte === 0x7b || byte === 0x7d) return -1;
    else i = nameEnd(bytes, i, limit);
    if (i < 0 || i > limit + 1) return -1;
  } while (depth > 0);
  return i;
}

/** After a literal string "( ... )": balanced parentheses, a backslash escaping the next byte. */
function literalStringEnd(bytes: Buffer, from: number, limit: number): number {
  let depth = 0;
  for (let i = from; i <= limit; i++) {
    const byte = bytes[i];
    if (byte === 0x5c) i++;
    else if (byte === 0x28) depth++;
    else if (byte === 0x29 && --depth === 0) return i + 1;
  }
  return -1;
}

/** The range ends at that %%EOF, or after one or two end-of-line bytes following it. */
function endsAfterEof(bytes: Buffer, eof: number, end: number): boolean {
  if (end < eof + 5 || end > eof + 7) return false;
  for (let i = eof + 5; i < end; i++) if (bytes[i] !== 0x0a && bytes[i] !== 0x0d) return false;
  return true;
}

/**
 * The first "%%EOF" at or after `from`, or -1. Boyer-Moore-Horspool: Buffer.indexOf took 340 ms over 25 MB of
 * '%' (measured), this stays linear whatever the bytes.
 */
function indexOfEof(bytes: Buffer, from: number): number {
  const last = bytes.length - 5;
  let i = Math.max(0, from);
  while (i <= last) {
    const tail = bytes[i + 4];
    if (tail === 0x46 && bytes[i + 3] === 0x4f && bytes[i + 2] === 0x45 && bytes[i + 1] === 0x25 && bytes[i] === 0x25)
      return i;
    i += tail === 0x4f ? 1 : tail === 0x45 ? 2 : tail === 0x25 ? 3 : 5;
  }
  return -1;
}
