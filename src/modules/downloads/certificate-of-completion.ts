import fs from 'node:fs';
import path from 'node:path';
import { PDF, StandardFonts, grayscale, measureText, type Color, type FontInput, type PDFPage } from '@libpdf/core';
import { historyTimeline, lastActOf, visibleRecipients, type EnvelopeRecord } from '../history/envelope-record.ts';
import { formatHistoryTime } from '../history/history-time.ts';

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
const FOOTER_SPACE = 40;

type Style = { font: FontInput; size: number; color?: Color };
type Styles = Record<'title' | 'heading' | 'label' | 'body' | 'small' | 'hash', Style>;

const FONT_DIR = path.join(import.meta.dirname, '..', '..', 'platform', 'pdf', 'fonts');
let fontFiles: { regular: Uint8Array; bold: Uint8Array } | null = null;

/** Liberation Sans (shipped with the PDF platform code) covers Latin, Greek and Cyrillic names; hashes use Courier. */
function embedFonts(pdf: PDF): Styles {
  fontFiles ??= {
    regular: fs.readFileSync(path.join(FONT_DIR, 'LiberationSans-Regular.ttf')),
    bold: fs.readFileSync(path.join(FONT_DIR, 'LiberationSans-Bold.ttf')),
  };
  const regular = pdf.embedFont(fontFiles.regular);
  const bold = pdf.embedFont(fontFiles.bold);
  return {
    title: { font: bold, size: 20 },
    heading: { font: bold, size: 13 },
    label: { font: bold, size: 9 },
    body: { font: regular, size: 9 },
    small: { font: regular, size: 8, color: grayscale(0.3) },
    hash: { font: StandardFonts.Courier, size: 8 },
  };
}

/**
 * Draws the certificate of completion (unsealed; the caller seals it): the envelope, each document with its
 * SHA-256 before and after sealing, every recipient with status, times, IP and channel, the event timeline
 * and the audit-chain verdict.
 */
export async function renderCertificateOfCompletion(record: EnvelopeRecord, generatedAt: Date): Promise<Uint8Array> {
  const pdf = PDF.create();
  pdf.setTitle(`Certificate of completion: ${record.workflow.name}`);
  pdf.setProducer('signature-service');
  const style = embedFonts(pdf);
  const writer = new PageWriter(pdf, style);
  const at = (date: Date | null | undefined) => formatHistoryTime(date, record.timeZone) || '-';
  const { workflow } = record;

  writer.line('Certificate of Completion', style.title, 8);
  writer.line(`Generated ${at(generatedAt)} (${record.timeZone})`, style.small, 12);

  writer.heading('Envelope');
  writer.pairs([
    ['Envelope', workflow.name],
    ['Envelope id', String(workflow.id)],
    ['Status', workflow.status],
    ['Sequence', workflow.sequence],
    ['Owner', `${record.owner.name} <${record.owner.email}>`],
    ['Created', at(workflow.createdAt)],
    ['Sent', at(workflow.sentAt)],
    ['Completed', at(workflow.completedAt)],
    ['Time zone', record.timeZone],
    ['Seal', workflow.sealStatus],
    [
      'Audit trail',
      record.chain.intact
        ? `intact: the hash chain verifies over all ${record.chain.rowCount} activities`
        : `TAMPERED: chain broken at ${record.chain.breaks.map((b) => `row ${b.position}`).join(', ')}`,
    ],
  ]);

  writer.heading('Documents');
  for (const document of record.documents) {
    writer.ensure(35);
    writer.line(`${document.name} (${document.pages} page${document.pages === 1 ? '' : 's'})`, style.label, 2);
    writer.pairs(
      [
        ['SHA-256 before sealing', document.blobKey],
        ['SHA-256 after sealing', document.sealedBlobKey ?? `not sealed (${workflow.sealStatus})`],
      ],
      style.hash,
    );
    writer.gap(4);
  }

  writer.heading('Recipients');
  for (const recipient of visibleRecipients(record)) {
    const act = lastActOf(record, recipient.id);
    writer.ensure(75);
    writer.line(`${recipient.name} <${recipient.email}>`, style.label, 2);
    writer.pairs([
      ['Role / status', `${recipient.role} / ${recipient.status}`],
      ['Received', at(recipient.dispatchedAt)],
      ['Viewed', at(recipient.viewedAt)],
      ['Acted', at(recipient.actedAt)],
      ['IP address / channel', act ? `${act.ipAddress || '-'} / ${act.accessChannel}` : '-'],
    ]);
    writer.gap(4);
  }

  writer.heading('Events');
  for (const activity of historyTimeline(record)) {
    // Keep an event's heading with the start of its sentence.
    writer.ensure(40);
    writer.line(`${at(activity.createdAt)}   ${activity.action}   ${activity.userName}`, style.label, 1);
    writer.paragraph(activity.sentence, style.body);
    writer.line(
      `IP ${activity.ipAddress || '-'}   channel ${activity.accessChannel}${activity.status ? `   status ${activity.status}` : ''}`,
      style.small,
      5,
    );
  }

  writer.finish(`Certificate of completion, envelope ${workflow.id}`);
  return pdf.save({ subsetFonts: true });
}

/** A cursor over pages that starts a new page when the next line would not fit. */
class PageWriter {
  private readonly pdf: PDF;
  private readonly style: Styles;
  private page: PDFPage;
  private y: number;
  private readonly pages: PDFPage[] = [];

  constructor(pdf: PDF, style: Styles) {
    this.pdf = pdf;
    this.style = style;
    this.page = this.newPage();
    this.y = PAGE.height - MARGIN;
  }

  private newPage(): PDFPage {
    const page = this.pdf.addPage({ width: PAGE.width, height: PAGE.height });
    this.pages.push(page);
    return page;
  }

  /** Starts a new page unless `height` points still fit above the footer. */
  ensure(height: number): void {
    if (this.y - height >= MARGIN + FOOTER_SPACE) return;
    this.page = this.newPage();
    this.y = PAGE.height - MARGIN;
  }

  gap(points: number): void {
    this.y -= points;
  }

  heading(text: string): void {
    this.gap(10);
    // A heading never ends a page: room for it and the first lines below it.
    this.ensure(this.style.heading.size * 2.5 + 40);
    this.line(text, this.style.heading, 4);
    this.page.drawLine({
      start: { x: MARGIN, y: this.y + 2 },
      end: { x: PAGE.width - MARGIN, y: this.y + 2 },
      color: grayscale(0.75),
      thickness: 0.5,
    });
    this.gap(6);
  }

  /** One line, cut to the width; `after` is extra space below it. */
  line(text: string, style: Style, after = 0, x = MARGIN, width = CONTENT_WIDTH): void {
    const lineHeight = style.size * 1.25;
    this.ensure(lineHeight);
    this.y -= style.size;
    this.page.drawText(fitLine(printable(text, style.font), style, width), {
      x,
      y: this.y,
      font: style.font,
      size: style.size,
      ...(style.color ? { color: style.color } : {}),
    });
    this.y -= lineHeight - style.size + after;
  }

  /** Wrapped text; words longer than the width are broken. */
  paragraph(text: string, style: Style, x = MARGIN, width = CONTENT_WIDTH): void {
    for (const line of wrap(printable(text, style.font), style, width)) this.line(line, style, 0, x, width);
  }

  /** Label and value rows; the value wraps in its column. */
  pairs(rows: [string, string][], valueStyle: Style = this.style.body): void {
    const labelWidth = 130;
    for (const [label, value] of rows) {
      const lines = wrap(printable(value, valueStyle.font), valueStyle, CONTENT_WIDTH - labelWidth);
      this.ensure(lines.length * valueStyle.size * 1.25);
      const top = this.y;
      this.line(label, { ...this.style.label }, 0, MARGIN, labelWidth - 6);
      this.y = top;
      for (const line of lines) this.line(line, valueStyle, 0, MARGIN + labelWidth, CONTENT_WIDTH - labelWidth);
    }
  }

  /** Footers need the page count, so they are drawn last. */
  finish(footer: string): void {
    const { small } = this.style;
    this.pages.forEach((page, index) => {
      page.drawText(`${footer}   page ${index + 1} of ${this.pages.length}`, {
        x: MARGIN,
        y: MARGIN - 10,
        font: small.font,
        size: small.size,
        ...(small.color ? { color: small.color } : {}),
      });
    });
  }
}

function fitLine(text: string, style: Style, width: number): string {
  if (measureText(text, style.font, style.size) <= width) return text;
  let cut = text;
  while (cut.length > 1 && measureText(`${cut}...`, style.font, style.size) > width) cut = cut.slice(0, -1);
  return `${cut}...`;
}

function wrap(text: string, style: Style, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let current = '';
    for (const word of paragraph.split(' ')) {
      const candidate = current ? `${current} ${word}` : word;
      if (measureText(candidate, style.font, style.size) <= width) {
        current = candidate;
        continue;
      }
      if (current) lines.push(current);
      current = '';
      let rest = word;
      while (measureText(rest, style.font, style.size) > width) {
        let take = rest.length - 1;
        while (take > 1 && measureText(rest.slice(0, take), style.font, style.size) > width) take -= 1;
        lines.push(rest.slice(0, take));
        rest = rest.slice(take);
      }
      current = rest;
    }
    lines.push(current);
  }
  return lines;
}

// Windows-1252 characters above 0x7F that are not Latin-1 (what the standard Courier can show).
const CP1252_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/**
 * The drawing library silently drops characters a font cannot show. A character the font lacks loses its
 * accent when that helps, else becomes ?, so no character of a name vanishes without a trace.
 */
export function printable(text: string, font: FontInput): string {
  const canShow = (char: string) => (typeof font === 'string' ? isWinAnsi(char) : font.canEncode(char));
  let out = '';
  for (const char of text.replace(/[\r\t\v\f]/g, ' ')) {
    if (char === '\n' || canShow(char)) {
      out += char;
      continue;
    }
    const stripped = char.normalize('NFD').replace(/\p{M}/gu, '');
    out += stripped && [...stripped].every(canShow) ? stripped : '?';
  }
  return out;
}

function isWinAnsi(char: string): boolean {
  const code = char.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || CP1252_EXTRA.has(char);
}
