import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { t } from '../i18n/signing/index.ts';
import type { PdfDocument } from './pdf.ts';
import { documentUrl, firstPicture, type PagePicture } from './start.ts';

/**
 * pdf.js, loaded once the first page's picture is up (or known to be missing): its compile and its worker take
 * about a second of CPU on a modest machine, which would otherwise compete with showing that first page.
 */
function pdfEngine(afterPicture: Promise<unknown>) {
  return afterPicture.then(() => import('./pdf.ts'));
}
import type { DocumentItem, Draft, Field, Recipient } from './types.ts';
import { displayValue, fieldLabel, isImageType } from './field-rules.ts';
import { useNearScreen } from '../shared/near-screen.ts';
import { isChecked, stampCheckbox, stampColour, stampText, type FieldStyle } from './stamp-layout.ts';

/** Zoom steps, as multiples of "fit to width": small enough to see a whole page, large enough to read an A1 drawing. */
const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4, 6];

type ViewProps = {
  documents: DocumentItem[];
  token: string | null;
  workflowId: number;
  fields: Field[];
  recipients: Recipient[];
  myRecipientId: number;
  drafts: Record<number, Draft>;
  currentFieldId: number | null;
  /** The signer's fields are controls only while the signer can fill them. */
  interactive: boolean;
  /**
   * The pages shown are the sealed files (the workflow was finished when they were fetched): every value is drawn
   * into them, so no field is drawn over them (it would double each value).
   */
  sealed: boolean;
  /** The first page's early picture (start.ts) shows the source file: the sealed files came in after the page opened. */
  stalePicture: boolean;
  onSelectField(field: Field): void;
  observeField(element: HTMLElement, field: Field): () => void;
};

export function DocumentView(props: ViewProps) {
  const [zoomIndex, setZoomIndex] = useState(ZOOM_STEPS.indexOf(1));
  const areaRef = useRef<HTMLDivElement>(null);
  const [fitWidth, setFitWidth] = useState(0);

  useLayoutEffect(() => {
    const area = areaRef.current;
    if (!area) return;
    const measure = () => setFitWidth(Math.max(200, Math.floor(area.clientWidth - 16)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(area);
    return () => observer.disconnect();
  }, []);

  const zoom = ZOOM_STEPS[zoomIndex];
  const pageWidth = Math.round(fitWidth * zoom);

  return (
    <section className="documents" aria-labelledby="documents-heading">
      <div className="documents-bar">
        <h2 id="documents-heading" className="visually-hidden">
          {t.documentsHeading}
        </h2>
        <div role="group" aria-label={t.zoomLevel(Math.round(zoom * 100))} className="zoom">
          <button type="button" onClick={() => setZoomIndex((i) => Math.max(0, i - 1))} disabled={zoomIndex === 0}>
            {t.zoomOut}
          </button>
          <button type="button" onClick={() => setZoomIndex(ZOOM_STEPS.indexOf(1))} aria-pressed={zoom === 1}>
            {t.zoomFit}
          </button>
          <button
            type="button"
            onClick={() => setZoomIndex((i) => Math.min(ZOOM_STEPS.length - 1, i + 1))}
            disabled={zoomIndex === ZOOM_STEPS.length - 1}
          >
            {t.zoomIn}
          </button>
          <output aria-live="polite">{Math.round(zoom * 100)}%</output>
        </div>
      </div>
      <div className="documents-area" ref={areaRef} id="document" tabIndex={-1}>
        {fitWidth > 0 &&
          props.documents.map((doc, index) => (
            // A new key when the sealed files replace the source ones: each document is opened again.
            <PdfDocumentView
              key={`${doc.id}:${props.sealed}`}
              {...props}
              doc={doc}
              index={index}
              pageWidth={pageWidth}
            />
          ))}
      </div>
    </section>
  );
}

type Size = { width: number; height: number };

function PdfDocumentView(props: ViewProps & { doc: DocumentItem; index: number; pageWidth: number }) {
  const { doc } = props;
  const [pdf, setPdf] = useState<PdfDocument | null>(null);
  const [failed, setFailed] = useState(false);
  const [sizes, setSizes] = useState<(Size | null)[]>([]);
  const [picture, setPicture] = useState<PagePicture | null>(null);

  // The first page's picture from the server (start.ts), when it is there before pdf.js: its shape stands for the page's.
  useEffect(() => {
    if (props.stalePicture) return;
    let cancelled = false;
    firstPicture(doc.id).then(
      (found) => {
        if (cancelled || !found) return;
        setPicture(found);
        setSizes((current) => (current.length > 0 ? current : [{ width: found.width, height: found.height }]));
      },
      () => {},
    );
    return () => {
      cancelled = true;
    };
  }, [doc.id, props.stalePicture]);

  useEffect(() => {
    let cancelled = false;
    pdfEngine(firstPicture(doc.id))
      .then((engine) => engine.openPdf(documentUrl(doc.workflowId, doc.id), props.token))
      .then(async (loaded) => {
        if (cancelled) return;
        const first = (await loaded.getPage(1)).getViewport({ scale: 1 });
        const initial: (Size | null)[] = Array.from({ length: loaded.numPages }, () => null);
        initial[0] = { width: first.width, height: first.height };
        setSizes(initial);
        setPdf(loaded);
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
    };
  }, [doc.id, doc.workflowId, props.token]);

  const title = t.documentOf(doc.documentName, props.index + 1, props.documents.length);
  const fallback = sizes[0] ?? { width: 612, height: 792 };
  const pageCount = pdf?.numPages ?? doc.pages;
  return (
    <article className="pdf-document" aria-label={title}>
      <h3 className="document-title">{title}</h3>
      {failed && <p role="alert">{t.pageFailed}</p>}
      {(pdf || picture) &&
        Array.from({ length: pageCount }, (_, i) => (
          <PageView
            key={i}
            {...props}
            pdf={pdf}
            picture={i === 0 ? picture : null}
            pageNo={i + 1}
            pageCount={pageCount}
            size={sizes[i] ?? null}
            fallback={fallback}
            onSize={(size) =>
              setSizes((current) => {
                if (current[i]?.width === size.width && current[i]?.height === size.height) return current;
                const next = current.slice();
                next[i] = size;
                return next;
              })
            }
          />
        ))}
    </article>
  );
}

function PageView(
  props: ViewProps & {
    doc: DocumentItem;
    pdf: PdfDocument | null;
    picture: PagePicture | null;
    pageNo: number;
    pageCount: number;
    size: Size | null;
    fallback: Size;
    pageWidth: number;
    onSize(size: Size): void;
  },
) {
  const { pdf, pageNo, pageWidth } = props;
  const pageRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const near = useNearScreen(pageRef, pageNo === 1);
  const [rendered, setRendered] = useState<'no' | 'yes' | 'failed'>('no');
  const size = props.size ?? props.fallback;

  useEffect(() => {
    if (!near || !pdf) return;
    let cancelled = false;
    let current: { cancel(): void } | null = null;
    // Rendering again on every zoom step would stutter; wait until the zoom settles.
    const timer = setTimeout(
      () => {
        Promise.all([pdf.getPage(pageNo), import('./pdf.ts')])
          .then(([page, { renderPage }]) => {
            if (cancelled || !canvasRef.current || !textRef.current) return;
            const base = page.getViewport({ scale: 1 });
            props.onSize({ width: base.width, height: base.height });
            const width = pageWidth;
            const task = renderPage(page, width, canvasRef.current, textRef.current);
            current = task;
            task.done
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
      clearTimeout(timer);
      current?.cancel();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [near, pageWidth, pdf, pageNo]);

  const height = Math.round(pageWidth * (size.height / size.width));
  const showPicture = props.picture !== null && rendered !== 'yes';
  const pageFields = props.sealed
    ? []
    : props.fields.filter((f) => f.documentId === props.doc.id && f.pageNo === pageNo);
  const label = t.pageOf(pageNo, props.pageCount);
  return (
    <div
      className="page"
      id={`page-${props.doc.id}-${pageNo}`}
      ref={pageRef}
      role="region"
      aria-label={label}
      data-rendered={rendered === 'yes' || showPicture ? 'true' : undefined}
      style={{ width: pageWidth, height }}
    >
      <canvas ref={canvasRef} className="page-canvas" aria-hidden="true" style={{ width: pageWidth, height }} />
      {/* The server's picture of the page until pdf.js has drawn it (the text layer comes with pdf.js). */}
      {showPicture && (
        <img className="page-canvas" src={props.picture!.url} alt="" style={{ width: pageWidth, height }} />
      )}
      <div ref={textRef} className="textLayer" />
      {rendered === 'no' && !showPicture && <p className="page-status">{t.pageLoading}</p>}
      {rendered === 'failed' && (
        <p className="page-status" role="alert">
          {t.pageFailed}
        </p>
      )}
      {pageFields.map((field) => (
        <FieldBox key={field.id} {...props} field={field} size={size} />
      ))}
    </div>
  );
}

function FieldBox(props: ViewProps & { field: Field; size: Size }) {
  const { field, size } = props;
  const ref = useRef<HTMLElement>(null);
  const mine = field.recipientId === props.myRecipientId;
  const owner = props.recipients.find((r) => r.id === field.recipientId);
  const draft = props.drafts[field.id];
  const value = mine && draft ? draft.value : field.value;
  const style = {
    left: `${(field.box.x / size.width) * 100}%`,
    top: `${(field.box.y / size.height) * 100}%`,
    width: `${(field.box.width / size.width) * 100}%`,
    height: `${(field.box.height / size.height) * 100}%`,
    ['--field-color' as string]: owner?.recipientColor ?? '#555555',
  };

  useEffect(() => {
    if (!mine || !ref.current) return;
    return props.observeField(ref.current, field);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mine, field.id, props.interactive]);

  const content = valueOverlay(field, value) ?? <span className="field-text">{fieldLabel(field)}</span>;

  if (field.fieldType === 'NOTE') {
    return (
      <div className="field note" id={`field-${field.id}`} style={style} role="note" aria-label={t.notePrefix}>
        <span className="visually-hidden">{field.value ?? field.label ?? ''}</span>
        <span aria-hidden="true">{valueOverlay(field, field.value ?? field.label ?? '')}</span>
      </div>
    );
  }
  if (!mine || !props.interactive) {
    // The signer's own fields are observed (viewed, glanced) also before the signer may fill them.
    return (
      <div
        className="field other"
        ref={mine ? (ref as React.RefObject<HTMLDivElement>) : undefined}
        id={`field-${field.id}`}
        style={style}
        aria-hidden="true"
      >
        {value !== null && value !== '' ? content : null}
      </div>
    );
  }
  const filled = value !== null && value !== '' && value !== false;
  // A shortcut for pointer and touch: clicking a field on the page opens it in the guide. Not a control of its
  // own: on a phone a field can be a few pixels tall, too small a target (WCAG 2.5.8), and the guide's
  // Next/Previous field buttons and its editor are the equivalent controls for keyboard and screen reader.
  return (
    <div
      ref={ref as React.RefObject<HTMLDivElement>}
      id={`field-${field.id}`}
      className={`field mine${filled ? ' filled' : ''}${props.currentFieldId === field.id ? ' current' : ''}${field.fieldRequired ? ' required' : ''}`}
      style={style}
      aria-hidden="true"
      title={fieldLabel(field)}
      onClick={() => props.onSelectField(field)}
    >
      {content}
    </div>
  );
}

/**
 * A value drawn where and as the seal will draw it (stamp-layout.ts mirrors src/platform/pdf/stamp-fields.ts): an
 * image fitted to the whole box with its aspect ratio and centred; text in the seal's font size, padding and
 * baseline, in an SVG whose units are the page's points; a checkbox's frame and mark. Null: nothing to show.
 */
function valueOverlay(field: Field, value: Draft['value'] | undefined): React.ReactNode {
  if (value === null || value === undefined || value === '') return null;
  const { box } = field;
  if (isImageType(field.fieldType) && typeof value === 'string' && value.startsWith('data:image/'))
    return <img src={value} alt="" className="field-stamp-image" />;
  const viewBox = `0 0 ${box.width} ${box.height}`;
  const styling = (field.styling ?? {}) as FieldStyle;
  const colour = stampColour(styling.textColor) ?? 'currentColor';
  const background = stampColour(styling.backgroundColor);
  const fill = background && <rect x={0} y={0} width={box.width} height={box.height} fill={background} />;
  if (field.fieldType === 'CHECKBOX') {
    if (!isChecked(value)) return null;
    const mark = stampCheckbox(box, true);
    return (
      <svg className="field-stamp" viewBox={viewBox} preserveAspectRatio="none" aria-hidden="true">
        {fill}
        <rect {...mark.rect} fill="none" stroke={colour} strokeWidth={mark.frame} />
        <polyline
          points={mark.mark!.points}
          fill="none"
          stroke={colour}
          strokeWidth={mark.mark!.width}
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    );
  }
  const text = displayValue(field, value);
  const layout = text ? stampText(field, text, box) : null;
  if (!layout) return null;
  return (
    <svg className="field-stamp" viewBox={viewBox} preserveAspectRatio="none" aria-hidden="true">
      {fill}
      {layout.lines.map((line, i) => (
        <g key={i} fill={colour}>
          <text
            x={line.left}
            y={line.baseline}
            fontSize={layout.size}
            fontFamily={layout.font.family}
            fontStyle={layout.font.style}
            fontWeight={layout.font.weight}
            textRendering="geometricPrecision"
            xmlSpace="preserve"
          >
            {line.text}
          </text>
          {line.bars.map((bar) => (
            <rect key={bar.y} x={line.left} y={bar.y} width={line.width} height={bar.height} />
          ))}
        </g>
      ))}
    </svg>
  );
}
