/**
 * Placing fields: a palette of every field type (drag one onto a page, or press it to place it on the chosen
 * page), the pages with their fields, and the selected field's properties. Every change is saved on its own.
 */
import { useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { errorText, type FieldInput } from './editor-api.ts';
import { EditorPages, pageKey, sizeOf, type PageSizes } from './EditorPages.tsx';
import { FieldProperties } from './FieldProperties.tsx';
import { DEFAULT_SIZE, clampBox, fillers, freeSpot } from './field-kinds.ts';
import { editorText as text } from './messages.ts';
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

type Drag = { type: FieldType; pointerId: number; startX: number; startY: number; active: boolean };

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

  // Dragging from the palette: the pointer is followed on the window (the drop lands on a page, not on the button).
  function startDrag(event: ReactPointerEvent<HTMLButtonElement>, type: FieldType) {
    if (event.button !== 0 || !owner) return;
    dragRef.current = { type, pointerId: event.pointerId, startX: event.clientX, startY: event.clientY, active: false };
    setDrag({ type, active: false, x: event.clientX, y: event.clientY });
  }

  useEffect(() => {
    if (!drag) return;
    const move = (event: PointerEvent) => {
      const current = dragRef.current;
      if (!current || event.pointerId !== current.pointerId) return;
      if (current.active) {
        event.preventDefault();
        return;
      }
      if (Math.abs(event.clientX - current.startX) + Math.abs(event.clientY - current.startY) <= 5) return;
      current.active = true;
      setDrag({ type: current.type, active: true, x: event.clientX, y: event.clientY });
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
      const dimensions = DEFAULT_SIZE[current.type];
      // The drop point is the field's centre, as the preview under the pointer shows it.
      const box = clampBox(
        {
          x: (event.clientX - rect.left) / scale - dimensions.width / 2,
          y: (event.clientY - rect.top) / scale - dimensions.height / 2,
          ...dimensions,
        },
        size,
      );
      void place(current.type, documentId, pageNo, box);
    };
    const cancel = () => {
      dragRef.current = null;
      setDrag(null);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', cancel);
    return () => {
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
    <div className={`ed-fields${drag?.active ? ' ed-fields--dragging' : ''}`}>
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
        <ul className="ed-palette-list" style={{ ['--field-color' as string]: owner.recipientColor }}>
          {FIELD_TYPES.map((type) => (
            <li key={type}>
              <button
                type="button"
                className="ed-palette-item"
                aria-describedby="ed-palette-hint"
                onPointerDown={(event) => startDrag(event, type)}
                onClick={() => {
                  if (!suppressClick.current) placeOnTarget(type);
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
