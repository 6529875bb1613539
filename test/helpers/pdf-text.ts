import { execFileSync } from 'node:child_process';
import { has } from './tools.ts';
import { withPdfjsDocument } from './pdfjs-reading.ts';

/**
 * The text of a PDF, as a reader would copy it: `pdftotext` (poppler) where installed (`layout`: its -layout),
 * else pdf.js, one line per text line, pages apart. Tests compare phrases in it, spaces normalized where layout matters.
 */
export async function pdfText(bytes: Uint8Array, options: { layout?: boolean } = {}): Promise<string> {
  if (has('pdftotext'))
    return execFileSync('pdftotext', [...(options.layout ? ['-layout'] : []), '-', '-'], {
      input: bytes,
      encoding: 'utf8',
    });
  return withPdfjsDocument(bytes, async (document) => {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const content = await (await document.getPage(number)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
    }
    return pages.join('\n\f');
  });
}

/** How many pages a PDF has (pdfinfo's "Pages:", read with pdf.js: the count does not depend on the reader). */
export function pageCount(bytes: Uint8Array): Promise<number> {
  return withPdfjsDocument(bytes, async (document) => document.numPages);
}
