/**
 * The envelope's pages drawn with pdf.js (signing/pdf.ts), with its fields on them. In `edit` mode a field is a
 * button: the pointer (mouse, pen or finger) moves it (drag the box) and resizes it (drag the corner), the keyboard
 * does both (arrows, Shift for 10 pt, Alt or Ctrl to resize). Each shows its type and who fills it (name, or initials
 * when narrow), the colour being a second cue. While a type is armed for placing (a tap on the palette), a tap on a
 * page places it there. In `fill` mode (self-signing) the fields show the values being filled.
 */
import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import { documentUrl, openPdf, renderPage, type PdfDocument } from '../signing/pdf.ts';
import { displayValue, isImageType } from '../signing/field-rules.ts';
import type { Draft } from '../signing/types.ts';
import { clampBox, initialsOf, textOn, tint } from './field-kinds.ts';
import { editorText as text } from '../i18n/editor/index.ts';
import type { Box, EnvelopeDocument, Field, PageSize, Recipient } from './types.ts';
import { useNearScreen } from '../shared/near-screen.ts';

/** US Letter: the shape assumed for a page until pdf.js has measured it. */
const LETTER: PageSize = { width: 612, height: 792 };
/** Widest a page is drawn: wider helps nobody place a field and costs memory. */
const MAX_PAGE_WIDTH = 900;

export type PageSizes = Record<string, PageSize>;
export const pageKey = (documentId: number, pageNo: number) => `${documentId}:${pageNo}`;

/** A page's size in points: measured, else its document's first page, else Letter. */
export function sizeOf(sizes: PageSizes, documentId: number, pageNo: number): PageSize {
  return sizes[pageKey(documentId, pageNo)] ?? sizes[pageKey(documentId, 1)] ?? LETTER;
}

export type PagesProps = {
  workflowId: number;
  documents: EnvelopeDocument[];
  /** Bumped when a document's file changed, so its pages are opened again. */
  revision: number;
  fields: Field[];
  recipients: Recipient[];
  sizes: PageSizes;
  onSize(documentId: number, pageNo: number, size: PageSize): void;
  mode: 'edit' | 'fill';
  selectedId: number | null;
  onSelect(id: number | null): void;
  /** The accessible name of a field (type, label, recipient, page). */
  nameOf(field: Field): string;
  // edit mode
  onChange?(id: number, patch: Partial<Field>): void;
  onDelete?(id: number): void;
  onOpenProperties?(id: number): void;
  announce?(message: string): void;
  erroredIds?: Set<number>;
  /** A field type is armed (tapped in the palette): a tap on a page places it there, fields let the tap through. */
  placing?: boolean;
  /** Where the tap landed, in points from the page's top-left. */
  onPlaceAt?(documentId: number, pageNo: number, point: { x: number; y: number }): void;
  // fill mode
  drafts?: Record<number, Draft>;
};

export function EditorPages(props: PagesProps) {
  const areaRef = useRef<HTMLDivElement>(null);
  const [pageWidth, setPageWidth] = useState(0);

  useLayoutEffect(() => {
    const area = areaRef.current;
    if (!area) return;
    const measure = () => setPageWidth(Math.min(MAX_PAGE_WIDTH, Math.max(240, Math.floor(area.clientWidth - 24))));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(area);
    return () => observer.disconnect();
  }, []);

  return (
    <div
      className={`ed-pages${props.placing ? ' ed-pages--placing' : ''}`}
      ref={areaRef}
      onPointerDown={(event) => {
        // A press on the page itself (not on a field) lets go of the selected field.
        if (!(event.target as HTMLElement).closest('.ed-field')) props.onSelect(null);
      }}
    >
      {pageWidth > 0 &&
        props.documents.map((doc, index) => (
          <DocumentPages key={`${doc.id}:${props.revision}`} {...props} doc={doc} index={index} pageWidth={pageWidth} />
        ))}
    </div>
  );
}

function DocumentPages(props: PagesProps & { doc: EnvelopeDocument; index: number; pageWidth: number }) {
  const { doc, onSize } = props;
  const [pdf, setPdf] = useState<PdfDocument | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    openPdf(documentUrl(doc.workflowId, doc.id), null)
      .then(async (loaded) => {
        const first = (await loaded.getPage(1)).getViewport({ scale: 1 });
        if (cancelled) return;
        onSize(doc.id, 1, { width: first.width, height: first.height });
        setPdf(loaded);
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [doc.id, doc.workflowId]);

  const many = props.documents.length > 1;
  const pageCount = pdf?.numPages ?? doc.pages;
  return (
    <section
      className="ed-document-pages"
      aria-label={text.documentHeading(doc.documentName, props.index + 1, props.documents.length)}
    >
      {many && (
        <h3 className="ed-document-title">
          {text.documentHeading(doc.documentName, props.index + 1, props.documents.length)}
        </h3>
      )}
      {failed && (
        <p role="alert" className="ws-field-error">
          {text.pageFailed}
        </p>
      )}
      {pdf &&
        Array.from({ length: pageCount }, (_, i) => (
          <PageView
            key={i}
            {...props}
            pdf={pdf}
            pageNo={i + 1}
            pageCount={pageCount}
            documentLabel={many ? doc.documentName : null}
          />
        ))}
    </section>
  );
}

function PageView(
  props: PagesProps & {
    doc: EnvelopeDocument;
    pdf: PdfDocument;
    pageNo: number;
    pageCount: number;
    pageWidth: number;
    documentLabel: string | null;
  },
) {
  const { pdf, pageNo, pageWidth, doc } = props;
  const pageRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const near = useNearScreen(pageRef, pageNo === 1);
  const [rendered, setRendered] = useState<'no' | 'yes' | 'failed'>('no');
  const size = sizeOf(props.sizes, doc.id, pageNo);

  useEffect(() => {
    if (!near) return;
    let cancelled = false;
    let task: { cancel(): void } | null = null;
    const timer = window.setTimeout(
      () => {
        pdf
          .getPage(pageNo)
          .then((page) => {
            if (cancelled || !canvasRef.current || !textRef.current) return;
            const base = page.getViewport({ scale: 1 });
            const measured = props.sizes[pageKey(doc.id, pageNo)];
            if (!measured || measured.width !== base.width || measured.height !== base.height)
              props.onSize(doc.id, pageNo, { width: base.width, height: base.height });
            const drawing = renderPage(page, pageWidth, canvasRef.current, textRef.current);
            task = drawing;
            drawing.done
              .then(() => !cancelled && setRendered('yes'))
              .catch((error: unknown) => {
                if (!cancelled && (error as { name?: string })?.name !== 'RenderingCancelledException')
                  setRendered('failed');
              });
          })
          .catch(() => !cancelled && setRendered('failed'));
      },
      rendered === 'no' ? 0 : 120,
    );
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
      task?.cancel();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [near, pageWidth, pdf, pageNo]);

  const height = Math.round(pageWidth * (size.height / size.width));
  const pageFields = props.fields.filter((f) => f.documentId === doc.id && f.pageNo === pageNo);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click is a tap placing an armed field; the keyboard places from the palette (Enter) and moves with the arrows.
    <div
      className="page ed-page"
      ref={pageRef}
      role="group"
      aria-label={text.pageGroup(props.documentLabel, pageNo, props.pageCount)}
      data-document-id={doc.id}
      data-page-no={pageNo}
      data-rendered={rendered === 'yes' ? 'true' : undefined}
      style={{ width: pageWidth, height }}
      onClick={(event) => {
        // A tap (or click) while a type is armed: the field is centred where the page was touched.
        if (!props.placing || !props.onPlaceAt) return;
        const rect = event.currentTarget.getBoundingClientRect();
        const scale = rect.width / size.width;
        props.onPlaceAt(doc.id, pageNo, {
          x: (event.clientX - rect.left) / scale,
          y: (event.clientY - rect.top) / scale,
        });
      }}
    >
      <canvas ref={canvasRef} className="page-canvas" aria-hidden="true" style={{ width: pageWidth, height }} />
      <div ref={textRef} className="textLayer" />
      {rendered === 'no' && <p className="page-status">{text.pageLoading}</p>}
      {rendered === 'failed' && (
        <p className="page-status" role="alert">
          {text.pageFailed}
        </p>
      )}
      {pageFields.map((field) =>
        props.mode === 'edit' ? (
          <EditableField key={field.id} {...props} field={field} size={size} scale={pageWidth / size.width} />
        ) : (
          <FilledField key={field.id} {...props} field={field} size={size} />
        ),
      )}
    </div>
  );
}

function placement(box: Box, size: PageSize, colour: string) {
  return {
    left: `${(box.x / size.width) * 100}%`,
    top: `${(box.y / size.height) * 100}%`,
    width: `${(box.width / size.width) * 100}%`,
    height: `${(box.height / size.height) * 100}%`,
    ['--field-color' as string]: colour,
    ['--field-tint' as string]: tint(colour, 0.14),
  };
}

type Gesture = { kind: 'move' | 'resize'; pointerId: number; x: number; y: number; box: Box; moved: boolean };

function EditableField(props: PagesProps & { field: Field; size: PageSize; scale: number }) {
  const { field, size, scale } = props;
  const gesture = useRef<Gesture | null>(null);
  const owner = props.recipients.find((r) => r.id === field.recipientId);
  const colour = owner?.recipientColor ?? '#555555';
  const name = props.nameOf(field);
  const selected = props.selectedId === field.id;

  function begin(event: ReactPointerEvent<HTMLElement>, kind: Gesture['kind']) {
    if (event.button !== 0 || props.placing) return;
    event.preventDefault();
    event.stopPropagation();
    const element = event.currentTarget.closest<HTMLElement>('.ed-field')!;
    // Pointer events cancel the mouse's default focus; the field takes it explicitly (it is what the keys then move).
    element.focus({ preventScroll: true });
    props.onSelect(field.id);
    element.setPointerCapture(event.pointerId);
    gesture.current = {
      kind,
      pointerId: event.pointerId,
      x: event.clientX,
      y: event.clientY,
      box: field.box,
      moved: false,
    };
  }

  function track(event: ReactPointerEvent<HTMLElement>) {
    const g = gesture.current;
    if (!g || g.pointerId !== event.pointerId) return;
    const dx = (event.clientX - g.x) / scale;
    const dy = (event.clientY - g.y) / scale;
    if (!g.moved && Math.abs(event.clientX - g.x) + Math.abs(event.clientY - g.y) < 3) return;
    g.moved = true;
    const box =
      g.kind === 'move'
        ? { ...g.box, x: g.box.x + dx, y: g.box.y + dy }
        : { ...g.box, width: g.box.width + dx, height: g.box.height + dy };
    props.onChange?.(field.id, { box: clampBox(box, size) });
  }

  function end(event: ReactPointerEvent<HTMLElement>) {
    const g = gesture.current;
    if (!g || g.pointerId !== event.pointerId) return;
    gesture.current = null;
    if (g.moved)
      props.announce?.(
        text.moved(
          name,
          Math.round(field.box.x),
          Math.round(field.box.y),
          Math.round(field.box.width),
          Math.round(field.box.height),
        ),
      );
  }

  function key(event: KeyboardEvent<HTMLElement>) {
    const step = event.shiftKey ? 10 : 1;
    const resize = event.altKey || event.ctrlKey || event.metaKey;
    const deltas: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const delta = deltas[event.key];
    if (delta) {
      event.preventDefault();
      const [dx, dy] = delta;
      const box = resize
        ? { ...field.box, width: field.box.width + dx, height: field.box.height + dy }
        : { ...field.box, x: field.box.x + dx, y: field.box.y + dy };
      const next = clampBox(box, size);
      props.onChange?.(field.id, { box: next });
      props.announce?.(
        text.moved(name, Math.round(next.x), Math.round(next.y), Math.round(next.width), Math.round(next.height)),
      );
      return;
    }
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      props.onDelete?.(field.id);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      props.onOpenProperties?.(field.id);
    }
  }

  const label = field.label?.trim() || text.fieldTypes[field.fieldType] || field.fieldType;
  // Who fills it, in words as well as colour: the name where the box is wide, initials where it is narrow, and for a
  // box too small for text (a checkbox on a phone) the initials beside it.
  const who = owner?.name ?? text.unassigned;
  const widthPx = field.box.width * scale;
  const heightPx = field.box.height * scale;
  const tiny = widthPx < 30;
  const wide = widthPx >= 150;
  const tag = wide ? who : initialsOf(who);
  // Text fits the box: smaller on a phone's small pages and in low boxes (a date line), never under 7 px. Type and
  // initials side by side when they fit (a rough measure of bold text), else one above the other if the box is tall
  // enough (initials on a phone), else side by side with the type cut short.
  const rowFont = Math.max(7, Math.min(scale < 0.75 ? 10 : 12, Math.floor((heightPx - 4) * 0.9)));
  const fitsRow = wide || label.length * rowFont * 0.62 + tag.length * rowFont * 0.66 + 12 <= widthPx - 8;
  const stackFont = Math.min(rowFont, Math.floor((heightPx - 5) / 2));
  const stacked = !tiny && !fitsRow && stackFont >= 7;
  const fontPx = stacked ? stackFont : rowFont;
  return (
    <button
      type="button"
      id={`ed-field-${field.id}`}
      className={`ed-field${selected ? ' ed-field--selected' : ''}${props.erroredIds?.has(field.id) ? ' ed-field--error' : ''}${tiny ? ' ed-field--tiny' : ''}${stacked ? ' ed-field--stacked' : ''}`}
      style={{ ...placement(field.box, size, colour), fontSize: `${fontPx}px` }}
      aria-label={text.fieldNameOnPage(name, field.pageNo, field.fieldRequired)}
      aria-describedby="ed-keys-help"
      onFocus={() => props.onSelect(field.id)}
      onPointerDown={(event) => begin(event, 'move')}
      onPointerMove={track}
      onPointerUp={end}
      onPointerCancel={() => {
        gesture.current = null;
      }}
      onKeyDown={key}
    >
      {!tiny && (
        <span className="ed-field-label" aria-hidden="true">
          {label}
        </span>
      )}
      {/* Drawn by CSS from data-who: a badge beside the type, not part of the button's label, whose accessible
          name already says the whole name ("Signature for Ann Able, page 1"). */}
      <span
        className={`ed-field-who${wide ? '' : ' ed-field-who--initials'}`}
        aria-hidden="true"
        data-who={tag}
        style={{ background: colour, color: textOn(colour) }}
      />
      <span className="ed-field-handle" aria-hidden="true" onPointerDown={(event) => begin(event, 'resize')} />
    </button>
  );
}

/** Self-signing: what the owner has filled so far, where it will be stamped; a press opens that field's input. */
function FilledField(props: PagesProps & { field: Field; size: PageSize }) {
  const { field, size } = props;
  const owner = props.recipients.find((r) => r.id === field.recipientId);
  const value = props.drafts?.[field.id]?.value ?? field.value;
  const signingField = field as unknown as import('../signing/types.ts').Field;
  const content =
    isImageType(field.fieldType) && typeof value === 'string' && value.startsWith('data:image/') ? (
      <img src={value} alt="" className="field-image" />
    ) : (
      <span className="field-text">
        {displayValue(signingField, value) || field.label || text.fieldTypes[field.fieldType]}
      </span>
    );
  return (
    <div
      className={`ed-field ed-field--fill${props.selectedId === field.id ? ' ed-field--selected' : ''}`}
      style={placement(field.box, size, owner?.recipientColor ?? '#555555')}
      aria-hidden="true"
      onClick={() => props.onSelect(field.id)}
    >
      {content}
    </div>
  );
}
