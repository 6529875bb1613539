/**
 * The envelope's pages drawn with pdf.js (signing/pdf.ts), with its fields on them. In `edit` mode a field is a
 * button: the pointer moves it (drag the box) and resizes it (drag the corner), the keyboard does both (arrows,
 * Shift for 10 pt, Alt or Ctrl to resize). In `fill` mode (self-signing) the fields show the values being filled.
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
import { clampBox, tint } from './field-kinds.ts';
import { editorText as text } from './messages.ts';
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
      className="ed-pages"
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
    <div
      className="page ed-page"
      ref={pageRef}
      role="group"
      aria-label={text.pageGroup(props.documentLabel, pageNo, props.pageCount)}
      data-document-id={doc.id}
      data-page-no={pageNo}
      data-rendered={rendered === 'yes' ? 'true' : undefined}
      style={{ width: pageWidth, height }}
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
    if (event.button !== 0) return;
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
  return (
    <button
      type="button"
      id={`ed-field-${field.id}`}
      className={`ed-field${selected ? ' ed-field--selected' : ''}${props.erroredIds?.has(field.id) ? ' ed-field--error' : ''}`}
      style={placement(field.box, size, colour)}
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
      <span className="ed-field-label" aria-hidden="true">
        {label}
      </span>
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
