/**
 * The selected field's properties: type, recipient, required, label, the type's own settings (dropdown choices,
 * date format, placeholder), text styling, and its page, position and size as numbers (the way to place it
 * exactly, and without dragging). Saved as they change; the service's refusals show beside what they concern.
 */
import { useEffect, useId, useState } from 'react';
import { formatDate } from '../signing/field-rules.ts';
import { errorPlace } from './editor-api.ts';
import {
  ALWAYS_REQUIRED,
  DROPDOWN_OPTIONS,
  FONT_SIZE,
  PLACEHOLDER_TYPES,
  TEXT_TYPES,
  clampBox,
} from './field-kinds.ts';
import { sizeOf, type PageSizes } from './EditorPages.tsx';
import { editorText as text } from '../i18n/editor/index.ts';
import type { FieldError } from './saving.ts';
import {
  FIELD_TYPES,
  type Box,
  type EnvelopeDocument,
  type Field,
  type FieldType,
  type Recipient,
  type Styling,
} from './types.ts';

type Props = {
  field: Field;
  documents: EnvelopeDocument[];
  candidates: Recipient[];
  sizes: PageSizes;
  error: FieldError | null;
  onChange(patch: Partial<Field>): void;
  onDelete(): void;
};

const DATE_LANGUAGES = ['en', 'en-GB', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'ja'];
const FONT_FAMILIES = ['Helvetica', 'Times-Roman', 'Courier'];
const EXAMPLE_DATE = '2026-03-14';

/** Which group of inputs a refusal belongs to, from the service's `responseBody` place. */
function errorGroup(
  error: FieldError | null,
): 'position' | 'options' | 'recipient' | 'label' | 'styling' | 'other' | null {
  if (!error) return null;
  const place = errorPlace(error.error);
  const field = place.field ?? '';
  if (field === 'box' || field === 'pageNo') return 'position';
  if (field === 'options') return 'options';
  if (field === 'recipientId') return 'recipient';
  if (field === 'label') return 'label';
  if (field === 'styling') return 'styling';
  return 'other';
}

export function FieldProperties({ field, documents, candidates, sizes, error, onChange, onDelete }: Props) {
  const id = useId();
  const styling: Styling = field.styling ?? {};
  const group = errorGroup(error);
  const doc = documents.find((d) => d.id === field.documentId);
  const size = sizeOf(sizes, field.documentId, field.pageNo);
  const type = field.fieldType as FieldType;
  const always = ALWAYS_REQUIRED.includes(type);
  // Inputs keep what the sender types; only valid values reach the field (and the service).
  const [optionsText, setOptionsText] = useState((field.options ?? []).join('\n'));
  const [optionsError, setOptionsError] = useState<string | null>(null);
  const [fontSizeText, setFontSizeText] = useState(styling.fontSize !== undefined ? String(styling.fontSize) : '');
  const [fontSizeError, setFontSizeError] = useState<string | null>(null);

  function style(patch: Partial<Styling>) {
    const next: Styling = { ...styling, ...patch };
    for (const key of Object.keys(next) as (keyof Styling)[])
      if (next[key] === undefined || next[key] === '') delete next[key];
    onChange({ styling: Object.keys(next).length > 0 ? next : null });
  }

  function setOptions(value: string) {
    setOptionsText(value);
    const options = value.split('\n').map((line) => line.trim());
    const kept = options.filter((line, index) => line !== '' || index < options.length - 1);
    if (kept.length < DROPDOWN_OPTIONS.min || kept.length > DROPDOWN_OPTIONS.max || kept.some((line) => line === '')) {
      setOptionsError(text.optionsInvalid);
      return;
    }
    setOptionsError(null);
    onChange({ options: kept });
  }

  function setType(next: FieldType) {
    const patch: Partial<Field> = { fieldType: next };
    if (next === 'DROPDOWN' && !(field.options && field.options.length > 0)) {
      patch.options = ['Option 1', 'Option 2'];
      setOptionsText(patch.options.join('\n'));
    }
    if (ALWAYS_REQUIRED.includes(next)) patch.fieldRequired = true;
    onChange(patch);
  }

  const errorLine = (which: typeof group) =>
    group === which && error ? (
      <p className="ws-field-error" role="alert" id={`${id}-${which}-error`}>
        {text.notSaved(error.text)}
      </p>
    ) : null;
  const describedBy = (which: typeof group, hint?: string) =>
    [hint, group === which ? `${id}-${which}-error` : ''].filter(Boolean).join(' ') || undefined;

  return (
    <div className="ed-props">
      <div className="ed-prop">
        <label htmlFor={`${id}-type`}>{text.fieldType}</label>
        <select id={`${id}-type`} value={type} onChange={(e) => setType(e.target.value as FieldType)}>
          {FIELD_TYPES.map((t) => (
            <option key={t} value={t}>
              {text.fieldTypes[t]}
            </option>
          ))}
        </select>
      </div>
      <div className="ed-prop">
        <label htmlFor={`${id}-recipient`}>{text.fieldRecipient}</label>
        <select
          id={`${id}-recipient`}
          value={field.recipientId ?? ''}
          aria-invalid={group === 'recipient' ? true : undefined}
          aria-describedby={describedBy('recipient')}
          onChange={(e) => onChange({ recipientId: Number(e.target.value) })}
        >
          {field.recipientId !== null && !candidates.some((r) => r.id === field.recipientId) && (
            <option value={field.recipientId}>{text.unassigned}</option>
          )}
          {candidates.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </select>
        {errorLine('recipient')}
      </div>
      {type !== 'NOTE' && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={always || field.fieldRequired}
            disabled={always}
            aria-describedby={always ? `${id}-always` : undefined}
            onChange={(e) => onChange({ fieldRequired: e.target.checked })}
          />
          {text.fieldRequired}
        </label>
      )}
      {always && (
        <p className="hint" id={`${id}-always`}>
          {text.fieldRequiredAlways}
        </p>
      )}
      <div className="ed-prop">
        <label htmlFor={`${id}-label`}>{type === 'NOTE' ? text.noteText : text.fieldLabel}</label>
        {type === 'NOTE' ? (
          <textarea
            id={`${id}-label`}
            rows={3}
            maxLength={255}
            value={field.label ?? ''}
            aria-describedby={describedBy('label', `${id}-label-hint`)}
            onChange={(e) => onChange({ label: e.target.value === '' ? null : e.target.value })}
          />
        ) : (
          <input
            id={`${id}-label`}
            type="text"
            maxLength={255}
            value={field.label ?? ''}
            aria-describedby={describedBy('label', `${id}-label-hint`)}
            onChange={(e) => onChange({ label: e.target.value === '' ? null : e.target.value })}
          />
        )}
        <p className="hint" id={`${id}-label-hint`}>
          {type === 'NOTE' ? text.noteHint : text.fieldLabelHint}
        </p>
        {errorLine('label')}
      </div>
      {PLACEHOLDER_TYPES.includes(type) && (
        <div className="ed-prop">
          <label htmlFor={`${id}-placeholder`}>{text.placeholder}</label>
          <input
            id={`${id}-placeholder`}
            type="text"
            maxLength={255}
            value={styling.placeholder ?? ''}
            onChange={(e) => style({ placeholder: e.target.value })}
          />
        </div>
      )}
      {type === 'DROPDOWN' && (
        <div className="ed-prop">
          <label htmlFor={`${id}-options`}>{text.options}</label>
          <textarea
            id={`${id}-options`}
            rows={4}
            value={optionsText}
            aria-invalid={optionsError || group === 'options' ? true : undefined}
            aria-describedby={
              [optionsError ? `${id}-options-local` : '', group === 'options' ? `${id}-options-error` : '']
                .filter(Boolean)
                .join(' ') || undefined
            }
            onChange={(e) => setOptions(e.target.value)}
          />
          {optionsError && (
            <p className="ws-field-error" role="alert" id={`${id}-options-local`}>
              {optionsError}
            </p>
          )}
          {errorLine('options')}
        </div>
      )}
      {type === 'DATE' && (
        <div className="ed-prop">
          <label htmlFor={`${id}-date`}>{text.dateLang}</label>
          <select
            id={`${id}-date`}
            value={styling.dateLang ?? 'en'}
            aria-describedby={`${id}-date-example`}
            onChange={(e) => style({ dateLang: e.target.value })}
          >
            {DATE_LANGUAGES.map((lang) => (
              <option key={lang} value={lang}>
                {text.dateLanguages[lang]}
              </option>
            ))}
          </select>
          <p className="hint" id={`${id}-date-example`}>
            {text.dateExample(formatDate(EXAMPLE_DATE, styling.dateLang ?? 'en'))}
          </p>
        </div>
      )}
      {TEXT_TYPES.includes(type) && (
        <fieldset className="ed-prop-group">
          <legend>{text.styleHeading}</legend>
          <div className="ed-prop">
            <label htmlFor={`${id}-font`}>{text.fontFamily}</label>
            <select
              id={`${id}-font`}
              value={styling.fontFamily ?? 'Helvetica'}
              onChange={(e) => style({ fontFamily: e.target.value })}
            >
              {FONT_FAMILIES.map((font) => (
                <option key={font} value={font}>
                  {text.fontFamilies[font]}
                </option>
              ))}
            </select>
          </div>
          <div className="ed-prop">
            <label htmlFor={`${id}-size`}>{text.fontSize}</label>
            <input
              id={`${id}-size`}
              type="number"
              min={FONT_SIZE.min}
              max={FONT_SIZE.max}
              step={1}
              value={fontSizeText}
              className="ed-number"
              aria-invalid={fontSizeError ? true : undefined}
              aria-describedby={fontSizeError ? `${id}-size-error` : undefined}
              onChange={(e) => {
                setFontSizeText(e.target.value);
                if (e.target.value === '') {
                  setFontSizeError(null);
                  style({ fontSize: undefined });
                  return;
                }
                const value = Number(e.target.value);
                if (!Number.isFinite(value) || value < FONT_SIZE.min || value > FONT_SIZE.max)
                  return setFontSizeError(text.fontSizeInvalid);
                setFontSizeError(null);
                style({ fontSize: value });
              }}
            />
            {fontSizeError && (
              <p className="ws-field-error" role="alert" id={`${id}-size-error`}>
                {fontSizeError}
              </p>
            )}
          </div>
          <div className="ed-checks">
            {(['bold', 'italic', 'underline', 'strikethrough'] as const).map((key) => (
              <label key={key} className="checkbox">
                <input
                  type="checkbox"
                  checked={styling[key] === true}
                  onChange={(e) => style({ [key]: e.target.checked ? true : undefined })}
                />
                {text[key]}
              </label>
            ))}
          </div>
          <div className="ed-prop">
            <label htmlFor={`${id}-align`}>{text.textAlign}</label>
            <select
              id={`${id}-align`}
              value={styling.textAlign ?? 'left'}
              onChange={(e) => style({ textAlign: e.target.value as Styling['textAlign'] })}
            >
              {(['left', 'center', 'right'] as const).map((align) => (
                <option key={align} value={align}>
                  {text.aligns[align]}
                </option>
              ))}
            </select>
          </div>
          <div className="ed-colours">
            <div className="ed-prop">
              <label htmlFor={`${id}-color`}>{text.textColor}</label>
              <input
                id={`${id}-color`}
                type="color"
                className="ed-colour"
                value={styling.textColor ?? '#000000'}
                onChange={(e) => style({ textColor: e.target.value.toUpperCase() })}
              />
            </div>
            <div className="ed-prop">
              <label htmlFor={`${id}-background`}>{text.backgroundColor}</label>
              <input
                id={`${id}-background`}
                type="color"
                className="ed-colour"
                value={styling.backgroundColor ?? '#FFFFFF'}
                onChange={(e) => style({ backgroundColor: e.target.value.toUpperCase() })}
              />
              {styling.backgroundColor && (
                <button type="button" className="ws-link-button" onClick={() => style({ backgroundColor: undefined })}>
                  {text.noBackground}
                </button>
              )}
            </div>
          </div>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={styling.useAsLabel === true}
              onChange={(e) => style({ useAsLabel: e.target.checked ? true : undefined })}
            />
            {text.useAsLabel}
          </label>
          {errorLine('styling')}
        </fieldset>
      )}
      <fieldset className="ed-prop-group">
        <legend>{text.positionHeading}</legend>
        <div className="ed-prop">
          <label htmlFor={`${id}-page`}>{text.page}</label>
          <select
            id={`${id}-page`}
            value={field.pageNo}
            aria-invalid={group === 'position' ? true : undefined}
            aria-describedby={describedBy('position')}
            onChange={(e) => {
              const pageNo = Number(e.target.value);
              onChange({ pageNo, box: clampBox(field.box, sizeOf(sizes, field.documentId, pageNo)) });
            }}
          >
            {Array.from({ length: doc?.pages ?? field.pageNo }, (_, i) => (
              <option key={i} value={i + 1}>
                {i + 1}
              </option>
            ))}
          </select>
        </div>
        <div className="ed-position">
          {(['x', 'y', 'width', 'height'] as const).map((key) => (
            <NumberInput
              key={key}
              id={`${id}-${key}`}
              label={text[key]}
              value={field.box[key]}
              accept={(value) => {
                const box: Box = { ...field.box, [key]: value };
                const kept = clampBox(box, size);
                return kept[key] === Math.round(value * 10) / 10 ? kept : null;
              }}
              onValue={(box) => onChange({ box })}
              describedBy={describedBy('position')}
            />
          ))}
        </div>
        {errorLine('position')}
      </fieldset>
      {errorLine('other')}
      <div className="ws-actions">
        <button type="button" className="ws-button ws-button--danger" onClick={onDelete}>
          {text.deleteField}
        </button>
      </div>
    </div>
  );
}

/** A coordinate in points: applied when it keeps the field on its page, else explained where it was typed. */
function NumberInput({
  id,
  label,
  value,
  accept,
  onValue,
  describedBy,
}: {
  id: string;
  label: string;
  value: number;
  accept(value: number): Box | null;
  onValue(box: Box): void;
  describedBy?: string;
}) {
  const [raw, setRaw] = useState(String(value));
  const [invalid, setInvalid] = useState(false);
  // Moved by the pointer or the arrow keys meanwhile: show the new value (what is typed and valid already equals it).
  useEffect(() => {
    if (Number(raw) !== value) {
      setRaw(String(value));
      setInvalid(false);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);
  return (
    <div className="ed-prop">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        step={1}
        className="ed-number"
        value={raw}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={[invalid ? `${id}-error` : '', describedBy ?? ''].filter(Boolean).join(' ') || undefined}
        onChange={(e) => {
          setRaw(e.target.value);
          const number = Number(e.target.value);
          const box = e.target.value.trim() !== '' && Number.isFinite(number) ? accept(number) : null;
          setInvalid(box === null);
          if (box) onValue(box);
        }}
      />
      {invalid && (
        <p className="ws-field-error" role="alert" id={`${id}-error`}>
          {text.numberInvalid}
        </p>
      )}
    </div>
  );
}
