/**
 * Placing fields: a palette of every field type (drag one onto a page, or press it to place it on the chosen
 * page), the pages with their fields, and the selected field's properties. Every change is saved on its own.
 * By touch (or pen) a tap on a type arms it and the next tap on a page places it there; a drag works as the
 * mouse's, the window scrolling when the finger nears its top or bottom edge.
 */
import { useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { errorText, type FieldInput } from './editor-api.ts';
import { EditorPages, pageKey, sizeOf, type PageSizes } from './EditorPages.tsx';
import { FieldProperties } from './FieldProperties.tsx';
import { DEFAULT_SIZE, clampBox, fillers, freeSpot, textOn } from './field-kinds.ts';
import { editorText as text } from '../i18n/editor/index.ts';
import type { FieldStore } from './saving.ts';
import {
  FIELD_TYPES,
  type EnvelopeDocument,
  type Field,
  type FieldType,
  type PageSize,
  type Recipient,
} from './types.ts';

type Props = {
  workflowId: number;
  documents: EnvelopeDocument[];
  revision: number;
  recipients: Recipient[];
  store: FieldStore;
  sizes: PageSizes;
  onSize(documentId: number, pageNo: number, size: PageSize): void;
  nameOf(field: Field): string;
  announce(message: string): void;
  goToRecipients(): void;
};

type Drag = {
  type: FieldType;
  pointerId: number;
  pointerType: string;
  startX: number;
  startY: number;
  x: number;
  y: number;
  active: boolean;
};

/** How close to the window's top or bottom edge a finger dragging a field scrolls the window, and how fast (px). */
const EDGE = 64;
const EDGE_SPEED = 18;

/** The element that scrolls the pages: the nearest scrolling ancestor (the app's main area), else the document. */
function scrollerOf(element: Element | null): Element {
  for (let node = element?.parentElement ?? null; node; node = node.parentElement) {
    const overflow = getComputedStyle(node).overflowY;
    if ((overflow === 'auto' || overflow === 'scroll') && node.scrollHeight > node.clientHeight) return node;
  }
  return document.scrollingElement ?? document.documentElement;
}

const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/** The first options a new dropdown gets (a dropdown needs at least one; the sender edits them). */
const STARTER_OPTIONS = ['Option 1', 'Option 2'];

export function FieldsStep(props: Props) {
  const { documents, recipients, store, sizes, announce } = props;
  const candidates = useMemo(() => fillers(recipients), [recipients]);
  const [recipientId, setRecipientId] = useState<number | null>(candidates[0]?.id ?? null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [target, setTarget] = useState(() => (documents[0] ? pageKey(documents[0].id, 1) : ''));
  const [paletteError, setPaletteError] = useState<string | null>(null);
  // Which type is being dragged (state: the page shows it); where the pointer is lives in the ghost alone, so a
  // pointer move re-renders the ghost, not the pages.
  const [drag, setDrag] = useState<{ type: FieldType; active: boolean; x: number; y: number } | null>(null);
  const dragRef = useRef<Drag | null>(null);
  const suppressClick = useRef(false);
  // The pointer that pressed a palette button last: a tap by finger or pen arms the type, a click places it.
  const pressedWith = useRef<string | null>(null);
  const [armed, setArmed] = useState<FieldType | null>(null);
  const propertiesHeading = useRef<HTMLHeadingElement>(null);
  const owner = candidates.find((r) => r.id === recipientId) ?? candidates[0] ?? null;

  // A recipient removed (or made CC) meanwhile: new fields go to the first one who can fill them.
  useEffect(() => {
    if (!candidates.some((r) => r.id === recipientId)) setRecipientId(candidates[0]?.id ?? null);
  }, [candidates, recipientId]);

  // The page list for "Place on": every page of every document.
  const pages = useMemo(
    () =>
      documents.flatMap((doc) =>
        Array.from({ length: doc.pages }, (_, i) => ({
          key: pageKey(doc.id, i + 1),
          documentId: doc.id,
          pageNo: i + 1,
          label: text.placeOnPage(documents.length > 1 ? doc.documentName : null, i + 1),
        })),
      ),
    [documents],
  );
  useEffect(() => {
    if (!pages.some((p) => p.key === target) && pages[0]) setTarget(pages[0].key);
  }, [pages, target]);

  const selected = store.fields.find((f) => f.id === selectedId) ?? null;
  // Selecting a field on another page makes that page the keyboard's target.
  useEffect(() => {
    if (selected) setTarget(pageKey(selected.documentId, selected.pageNo));
  }, [selected?.documentId, selected?.pageNo]);

  function inputFor(type: FieldType, pageNo: number, box: FieldInput['box']): FieldInput {
    return {
      recipientId: owner!.id,
      pageNo,
      box,
      fieldType: type,
      fieldRequired: type === 'SIGNATURE' || type === 'INITIALS',
      label: null,
      styling: null,
      options: type === 'DROPDOWN' ? STARTER_OPTIONS : null,
    };
  }

  async function place(type: FieldType, documentId: number, pageNo: number, box: FieldInput['box']) {
    setPaletteError(null);
    try {
      const created = await store.create(documentId, inputFor(type, pageNo, box));
      setSelectedId(created.id);
      announce(text.fieldAdded(props.nameOf(created), pageNo));
      // The new field takes the focus: the arrow keys move it straight away.
      window.setTimeout(() => {
        const element = document.getElementById(`ed-field-${created.id}`);
        element?.scrollIntoView({ block: 'center' });
        element?.focus({ preventScroll: true });
      }, 0);
    } catch (error) {
      setPaletteError(errorText(error));
    }
  }

  /** The keyboard (and single-press) way: the type goes on the chosen page, at the first free spot near the top. */
  function placeOnTarget(type: FieldType) {
    const page = pages.find((p) => p.key === target);
    if (!page || !owner) return;
    const size = sizeOf(sizes, page.documentId, page.pageNo);
    const others = store.fields
      .filter((f) => f.documentId === page.documentId && f.pageNo === page.pageNo)
      .map((f) => f.box);
    void place(type, page.documentId, page.pageNo, freeSpot(DEFAULT_SIZE[type], size, others));
  }

  /** A field of `type` centred on `point` (points from the page's top-left), kept inside the page. */
  function placeAround(type: FieldType, documentId: number, pageNo: number, point: { x: number; y: number }) {
    const size = sizeOf(sizes, documentId, pageNo);
    const dimensions = DEFAULT_SIZE[type];
    const box = clampBox(
      { x: point.x - dimensions.width / 2, y: point.y - dimensions.height / 2, ...dimensions },
      size,
    );
    void place(type, documentId, pageNo, box);
  }

  const targetPage = pages.find((p) => p.key === target) ?? pages[0];

  /** A tap on a palette type by finger or pen: armed (a second tap on it lets go); the next tap on a page places it. */
  function arm(type: FieldType) {
    if (armed === type) {
      setArmed(null);
      return;
    }
    setArmed(type);
    setPaletteError(null);
    announce(text.placingHint(text.fieldTypes[type], owner?.name ?? text.unassigned));
    // On a phone the pages lie below the palette: the chosen page comes into view, ready for the tap.
    const element = targetPage
      ? document.querySelector<HTMLElement>(
          `[data-document-id="${targetPage.documentId}"][data-page-no="${targetPage.pageNo}"]`,
        )
      : null;
    if (!element) return;
    const rect = element.getBoundingClientRect();
    if (rect.bottom < 80 || rect.top > window.innerHeight - 160)
      element.scrollIntoView({ block: 'start', behavior: reducedMotion() ? 'auto' : 'smooth' });
  }

  // Armed: Escape lets go.
  useEffect(() => {
    if (!armed) return;
    const key = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setArmed(null);
    };
    window.addEventListener('keydown', key);
    return () => window.removeEventListener('keydown', key);
  }, [armed]);

  // Dragging from the palette: the pointer is followed on the window (the drop lands on a page, not on the button).
  function startDrag(event: ReactPointerEvent<HTMLButtonElement>, type: FieldType) {
    pressedWith.current = event.pointerType;
    if (event.button !== 0 || !owner) return;
    dragRef.current = {
      type,
      pointerId: event.pointerId,
      pointerType: event.pointerType,
      startX: event.clientX,
      startY: event.clientY,
      x: event.clientX,
      y: event.clientY,
      active: false,
    };
    setDrag({ type, active: false, x: event.clientX, y: event.clientY });
  }

  useEffect(() => {
    if (!drag) return;
    const move = (event: PointerEvent) => {
      const current = dragRef.current;
      if (!current || event.pointerId !== current.pointerId) return;
      current.x = event.clientX;
      current.y = event.clientY;
      if (current.active) {
        event.preventDefault();
        return;
      }
      if (Math.abs(event.clientX - current.startX) + Math.abs(event.clientY - current.startY) <= 5) return;
      current.active = true;
      setArmed(null);
      setDrag({ type: current.type, active: true, x: event.clientX, y: event.clientY });
      if (current.pointerType !== 'mouse') scrollNearEdges(current);
    };
    // A finger cannot scroll while it drags (the palette takes its moves): near the window's top or bottom edge the
    // window scrolls itself, so a page below the palette (a phone) can be reached. The mouse has its wheel.
    let frame = 0;
    const scrollNearEdges = (current: Drag) => {
      const scroller = scrollerOf(document.querySelector('.ed-pages'));
      const step = () => {
        if (dragRef.current !== current) return;
        const rect = scroller.getBoundingClientRect();
        const top = Math.max(0, rect.top);
        const bottom = Math.min(window.innerHeight, rect.bottom);
        const depth =
          current.y > bottom - EDGE
            ? current.y - (bottom - EDGE)
            : current.y < top + EDGE
              ? current.y - (top + EDGE)
              : 0;
        if (depth !== 0)
          scroller.scrollBy(
            0,
            Math.round((Math.min(Math.abs(depth), EDGE) / EDGE) * EDGE_SPEED) * Math.sign(depth) || Math.sign(depth),
          );
        frame = window.requestAnimationFrame(step);
      };
      frame = window.requestAnimationFrame(step);
    };
    const up = (event: PointerEvent) => {
      const current = dragRef.current;
      if (!current || event.pointerId !== current.pointerId) return;
      dragRef.current = null;
      setDrag(null);
      if (!current.active) return;
      suppressClick.current = true;
      window.setTimeout(() => {
        suppressClick.current = false;
      }, 0);
      const page = document
        .elementsFromPoint(event.clientX, event.clientY)
        .map((element) => element.closest<HTMLElement>('[data-page-no]'))
        .find((element): element is HTMLElement => element !== null);
      if (!page) return;
      const documentId = Number(page.dataset.documentId);
      const pageNo = Number(page.dataset.pageNo);
      const size = sizeOf(sizes, documentId, pageNo);
      const rect = page.getBoundingClientRect();
      const scale = rect.width / size.width;
      // The drop point is the field's centre, as the preview under the pointer shows it.
      placeAround(current.type, documentId, pageNo, {
        x: (event.clientX - rect.left) / scale,
        y: (event.clientY - rect.top) / scale,
      });
    };
    const cancel = () => {
      dragRef.current = null;
      setDrag(null);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', cancel);
    return () => {
      window.cancelAnimationFrame(frame);
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', cancel);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [drag !== null, sizes]);

  async function remove(id: number) {
    const field = store.fields.find((f) => f.id === id);
    if (!field) return;
    const siblings = store.fields.filter(
      (f) => f.documentId === field.documentId && f.pageNo === field.pageNo && f.id !== id,
    );
    try {
      await store.remove(id);
      setSelectedId(null);
      announce(text.fieldRemoved(props.nameOf(field)));
      // The focus goes to a neighbour on the same page, else back to the palette.
      window.setTimeout(() => {
        const next = siblings[0]
          ? document.getElementById(`ed-field-${siblings[0].id}`)
          : document.getElementById('ed-palette-heading');
        next?.focus();
      }, 0);
    } catch (error) {
      setPaletteError(errorText(error));
    }
  }

  const erroredIds = useMemo(() => new Set(Object.keys(store.errors).map(Number)), [store.errors]);

  if (!owner) {
    return (
      <div className="ws-card">
        <h3>{text.fieldsHeading}</h3>
        <p>{text.noSigners}</p>
        <button type="button" className="ws-button" onClick={props.goToRecipients}>
          {text.goToRecipients}
        </button>
      </div>
    );
  }

  return (
    <div className={`ed-fields${drag?.active ? ' ed-fields--dragging' : ''}${armed ? ' ed-fields--placing' : ''}`}>
      <aside className="ed-palette" aria-labelledby="ed-palette-heading">
        <h3 id="ed-palette-heading" tabIndex={-1}>
          {text.paletteHeading}
        </h3>
        <label htmlFor="ed-palette-recipient">{text.paletteFor}</label>
        <select id="ed-palette-recipient" value={owner.id} onChange={(e) => setRecipientId(Number(e.target.value))}>
          {candidates.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </select>
        <label htmlFor="ed-palette-page">{text.placeOn}</label>
        <select id="ed-palette-page" value={target} onChange={(e) => setTarget(e.target.value)}>
          {pages.map((p) => (
            <option key={p.key} value={p.key}>
              {p.label}
            </option>
          ))}
        </select>
        <p className="hint" id="ed-palette-hint">
          {text.paletteHint}
        </p>
        <ul
          className="ed-palette-list"
          style={{
            ['--field-color' as string]: owner.recipientColor,
            ['--field-on' as string]: textOn(owner.recipientColor),
          }}
        >
          {FIELD_TYPES.map((type) => (
            <li key={type}>
              <button
                type="button"
                id={`ed-palette-${type}`}
                className={`ed-palette-item${armed === type ? ' ed-palette-item--armed' : ''}`}
                aria-describedby="ed-palette-hint"
                onPointerDown={(event) => startDrag(event, type)}
                onClick={(event) => {
                  const by = pressedWith.current;
                  pressedWith.current = null;
                  if (suppressClick.current) return;
                  // detail 0: Enter or Space, which place at once as they always have.
                  if (event.detail > 0 && by !== null && by !== 'mouse') arm(type);
                  else placeOnTarget(type);
                }}
              >
                <span className="ed-palette-swatch" aria-hidden="true" />
                {text.fieldTypes[type]}
              </button>
            </li>
          ))}
        </ul>
        {paletteError && (
          <p className="ws-field-error" role="alert">
            {paletteError}
          </p>
        )}
        <div className="ed-keys" id="ed-keys-help">
          <h4>{text.keysHeading}</h4>
          <ul>
            {text.keys.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      </aside>
      <div className="ed-pages-column">
        <EditorPages
          workflowId={props.workflowId}
          documents={documents}
          revision={props.revision}
          fields={store.fields}
          recipients={recipients}
          sizes={sizes}
          onSize={props.onSize}
          mode="edit"
          selectedId={selectedId}
          onSelect={setSelectedId}
          nameOf={props.nameOf}
          onChange={store.change}
          onDelete={(id) => void remove(id)}
          onOpenProperties={(id) => {
            setSelectedId(id);
            window.setTimeout(
              () =>
                document
                  .getElementById('ed-properties')
                  ?.querySelector<HTMLElement>('select, input, textarea')
                  ?.focus(),
              0,
            );
          }}
          announce={announce}
          erroredIds={erroredIds}
          placing={armed !== null}
          onPlaceAt={(documentId, pageNo, point) => {
            if (!armed) return;
            setArmed(null);
            placeAround(armed, documentId, pageNo, point);
          }}
        />
      </div>
      <aside className="ed-properties" id="ed-properties" aria-labelledby="ed-properties-heading">
        <h3 id="ed-properties-heading" ref={propertiesHeading}>
          {selected ? text.propertiesOf(props.nameOf(selected)) : text.propertiesHeading}
        </h3>
        {selected ? (
          <FieldProperties
            key={selected.id}
            field={selected}
            documents={documents}
            candidates={candidates}
            sizes={sizes}
            error={store.errors[selected.id] ?? null}
            onChange={(patch) => store.change(selected.id, patch)}
            onDelete={() => void remove(selected.id)}
          />
        ) : (
          <p>{text.noFieldSelected}</p>
        )}
      </aside>
      {armed && (
        <div className="ed-placing">
          <p className="ed-placing-hint">{text.placingHint(text.fieldTypes[armed], owner.name)}</p>
          <div className="ed-placing-actions">
            {targetPage && (
              <button
                type="button"
                className="ws-button"
                onClick={() => {
                  setArmed(null);
                  placeOnTarget(armed);
                }}
              >
                {text.placeAtTop(
                  documents.length > 1
                    ? (documents.find((d) => d.id === targetPage.documentId)?.documentName ?? null)
                    : null,
                  targetPage.pageNo,
                )}
              </button>
            )}
            <button
              type="button"
              className="ws-button"
              onClick={() => {
                // The bar goes: the focus returns to the type that was armed.
                document.getElementById(`ed-palette-${armed}`)?.focus({ preventScroll: true });
                setArmed(null);
              }}
            >
              {text.cancel}
            </button>
          </div>
        </div>
      )}
      {drag?.active && <Ghost label={text.fieldTypes[drag.type]} colour={owner.recipientColor} start={drag} />}
    </div>
  );
}

/** What follows the pointer while a field type is dragged from the palette. */
function Ghost({ label, colour, start }: { label: string; colour: string; start: { x: number; y: number } }) {
  const [at, setAt] = useState({ x: start.x, y: start.y });
  useEffect(() => {
    const move = (event: PointerEvent) => setAt({ x: event.clientX, y: event.clientY });
    window.addEventListener('pointermove', move);
    return () => window.removeEventListener('pointermove', move);
  }, []);
  return (
    <div className="ed-ghost" aria-hidden="true" style={{ left: at.x, top: at.y, ['--field-color' as string]: colour }}>
      {label}
    </div>
  );
}
