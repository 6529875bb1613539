import { useId, useState } from 'react';
import { t } from '../i18n/signing/index.ts';
import {
  displayValue,
  fieldLabel,
  isCertificateSignature,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_DIMENSION,
  TEXT_LIMITS,
} from './field-rules.ts';
import { SignatureCapture } from './SignatureCapture.tsx';
import { SigningPassword } from './SigningPassword.tsx';
import { LibraryChoices, librarySignInHref } from './SignatureLibrary.tsx';
import type { Draft, Field, LibraryEntry, Recipient, SignerContext } from './types.ts';

type Props = {
  field: Field;
  draft: Draft | undefined;
  me: Recipient;
  /** The inline error to show (after the signer tried to move on), or null. */
  error: string | null;
  onChange(draft: Draft): void;
  /** An image was adopted (signature, stamp, picture): the guide may move on at once. */
  onAdopted(draft: Draft): void;
  /** Whether the signer signs DIGITAL_SIGNATURE fields with a personal certificate, and whether its key exists. */
  context?: SignerContext;
  /** The signed-in signer's saved signatures, initials and stamps; null when the page knows of none. */
  library?: LibraryEntry[] | null;
};

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase())
    .join('');
}

/** The input of one field, by its type, with its label and its inline error tied to it. */
export function FieldEditor({ field, draft, me, error, onChange, onAdopted, context, library = null }: Props) {
  const inputId = `field-input-${field.id}`;
  const errorId = useId();
  const hintId = useId();
  const label = `${fieldLabel(field)} (${field.fieldRequired ? t.required : t.optional})`;
  const value = draft?.value ?? null;
  const text = typeof value === 'string' ? value : '';
  const invalid = error ? true : undefined;
  const describedBy = [error ? errorId : '', hintId].filter(Boolean).join(' ') || undefined;
  const errorLine = error ? (
    <p className="error" id={errorId} role="alert">
      {error}
    </p>
  ) : null;
  const set = (next: Draft['value']) => onChange({ ...draft, value: next });

  switch (field.fieldType) {
    case 'SIGNATURE':
    case 'INITIALS':
    case 'DIGITAL_SIGNATURE': {
      const kind = field.fieldType === 'INITIALS' ? 'initials' : 'signature';
      const image = typeof value === 'string' && value.startsWith('data:image/') ? value : null;
      const certificate = isCertificateSignature(field, context);
      const saved =
        field.fieldType === 'DIGITAL_SIGNATURE'
          ? []
          : (library ?? []).filter((entry) => entry.kind === field.fieldType);
      return (
        <div className="field-editor">
          {image ? (
            <AdoptedImage
              image={image}
              alt={t.signaturePreviewAlt(kind)}
              onChange={() => onChange({ ...draft, value: null, signatureAssetId: undefined })}
            />
          ) : (
            <>
              <LibraryChoices
                entries={saved}
                kind={kind}
                onChoose={(entry) => onAdopted({ ...draft, value: entry.image, signatureAssetId: entry.id })}
              />
              <SignatureCapture
                kind={kind}
                suggestion={kind === 'initials' ? initials(me.name) : me.name}
                onAdopt={(dataUrl) =>
                  (field.fieldType === 'DIGITAL_SIGNATURE' ? onChange : onAdopted)({
                    ...draft,
                    value: dataUrl,
                    signatureAssetId: undefined,
                  })
                }
              />
              {field.fieldType !== 'DIGITAL_SIGNATURE' && library === null && (
                <p className="hint">
                  <a href={librarySignInHref()}>{t.librarySignIn}</a>
                </p>
              )}
            </>
          )}
          {certificate && (
            <SigningPassword
              inputId={inputId}
              signingKey={context!.signingKey!}
              keyReset={context!.keyReset}
              draft={draft}
              invalid={invalid}
              errorId={error ? errorId : undefined}
              onChange={onChange}
            />
          )}
          {errorLine}
        </div>
      );
    }
    case 'IMAGE':
    case 'STAMP':
      return (
        <div className="field-editor">
          {field.fieldType === 'STAMP' && (
            <LibraryChoices
              entries={(library ?? []).filter((entry) => entry.kind === 'STAMP')}
              kind="stamp"
              onChoose={(entry) => onAdopted({ ...draft, value: entry.image, signatureAssetId: entry.id })}
            />
          )}
          {field.fieldType === 'STAMP' && (
            <p className="hint" id={hintId}>
              {t.stampFromFile}
            </p>
          )}
          {typeof value === 'string' && value.startsWith('data:image/') && (
            <img className="image-preview" src={value} alt={t.imagePreviewAlt} />
          )}
          <ImageInput
            id={inputId}
            label={label}
            describedBy={describedBy}
            invalid={invalid}
            onImage={(dataUrl) => onAdopted({ ...draft, value: dataUrl, signatureAssetId: undefined })}
            onError={(message) => onChange({ ...draft, value: null, error: message } as Draft)}
          />
          {errorLine}
        </div>
      );
    case 'CHECKBOX':
      return (
        <div className="field-editor">
          <label className="checkbox" htmlFor={inputId}>
            <input
              id={inputId}
              type="checkbox"
              checked={value === true || value === 'true'}
              onChange={(e) => set(e.target.checked)}
              aria-invalid={invalid}
              aria-describedby={error ? errorId : undefined}
            />
            {label}
          </label>
          {errorLine}
        </div>
      );
    case 'DROPDOWN':
      return (
        <div className="field-editor">
          <label className="stacked" htmlFor={inputId}>
            {label}
          </label>
          <select
            id={inputId}
            value={text}
            onChange={(e) => set(e.target.value)}
            aria-invalid={invalid}
            aria-describedby={error ? errorId : undefined}
          >
            <option value="">{t.choosePlaceholder}</option>
            {(field.options ?? []).map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
          {errorLine}
        </div>
      );
    case 'TEXTAREA':
      return (
        <div className="field-editor">
          <label className="stacked" htmlFor={inputId}>
            {label}
          </label>
          <textarea
            id={inputId}
            value={text}
            rows={4}
            maxLength={TEXT_LIMITS.TEXTAREA}
            placeholder={field.styling?.placeholder}
            onChange={(e) => set(e.target.value)}
            aria-invalid={invalid}
            aria-describedby={error ? errorId : undefined}
          />
          {errorLine}
        </div>
      );
    case 'DATE': {
      const language = field.styling?.dateLang;
      return (
        <div className="field-editor">
          <label className="stacked" htmlFor={inputId}>
            {label}
          </label>
          <div className="date-input">
            <input
              id={inputId}
              type="date"
              lang={language}
              value={text}
              onChange={(e) => set(e.target.value)}
              aria-invalid={invalid}
              aria-describedby={describedBy}
            />
            <button type="button" className="secondary" onClick={() => set(localToday())}>
              {t.today}
            </button>
          </div>
          <p className="hint" id={hintId} aria-live="polite">
            {text ? t.dateShownAs(displayValue(field, text)) : ''}
          </p>
          {errorLine}
        </div>
      );
    }
    default: {
      // TEXT, NUMBER, EMAIL, NAME
      const type = field.fieldType === 'EMAIL' ? 'email' : 'text';
      const autoComplete = field.fieldType === 'NAME' ? 'name' : field.fieldType === 'EMAIL' ? 'email' : 'off';
      return (
        <div className="field-editor">
          <label className="stacked" htmlFor={inputId}>
            {label}
          </label>
          <input
            id={inputId}
            type={type}
            value={text}
            autoComplete={autoComplete}
            inputMode={field.fieldType === 'NUMBER' ? 'decimal' : undefined}
            maxLength={TEXT_LIMITS[field.fieldType]}
            placeholder={field.styling?.placeholder}
            onChange={(e) => set(e.target.value)}
            aria-invalid={invalid}
            aria-describedby={error ? errorId : undefined}
          />
          {errorLine}
        </div>
      );
    }
  }
}

function AdoptedImage({ image, alt, onChange }: { image: string; alt: string; onChange(): void }) {
  return (
    <div className="adopted">
      <img src={image} alt={alt} className="signature-preview" />
      <button type="button" className="secondary" onClick={onChange}>
        {t.changeSignature}
      </button>
    </div>
  );
}

/** A picture file, turned into a PNG (the only image type the service stores) within the service's limits. */
function ImageInput({
  id,
  label,
  describedBy,
  invalid,
  onImage,
  onError,
}: {
  id: string;
  label: string;
  describedBy?: string;
  invalid?: boolean;
  onImage(dataUrl: string): void;
  onError(message: string): void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <label className="stacked" htmlFor={id}>
      {t.imageChoose}: {label}
      <input
        id={id}
        type="file"
        accept="image/png,image/jpeg,image/webp"
        disabled={busy}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        onChange={async (event) => {
          const file = event.target.files?.[0];
          if (!file) return;
          setBusy(true);
          try {
            const bitmap = await createImageBitmap(file);
            if (bitmap.width > MAX_IMAGE_DIMENSION || bitmap.height > MAX_IMAGE_DIMENSION)
              return onError(t.imageTooLarge);
            const canvas = document.createElement('canvas');
            canvas.width = bitmap.width;
            canvas.height = bitmap.height;
            canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
            const dataUrl = canvas.toDataURL('image/png');
            if ((dataUrl.length - 22) * 0.75 > MAX_IMAGE_BYTES) return onError(t.imageTooLarge);
            onImage(dataUrl);
          } catch {
            onError(t.imageUnreadable);
          } finally {
            setBusy(false);
          }
        }}
      />
    </label>
  );
}

/** Today on the signer's own calendar (not UTC's), as the date input writes it: YYYY-MM-DD. */
function localToday(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}
