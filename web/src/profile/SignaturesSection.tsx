/**
 * The signature library: signatures, initials and stamps, each kind with its default. New entries are drawn (the
 * signing page's drawing area), typed (the service writes the name in the chosen font) or, for stamps, uploaded (a
 * PNG or JPEG, turned into the PNG the service takes).
 */
import { useId, useMemo, useRef, useState } from 'react';
import '@fontsource/dancing-script/latin-400.css';
import { DrawPad, type DrawPadHandle } from '../signing/SignatureCapture.tsx';
import { ApiErrorText, StatusLine, TextField, fieldIssues, useResource } from '../organization/kit.tsx';
import { ConfirmAction } from '../organization/MembersSection.tsx';
import { profileText as text } from '../i18n/profile/index.ts';
import {
  ASSET_KINDS,
  SIGNATURE_FONTS,
  profileApi,
  type AssetKind,
  type CaptureMode,
  type LibraryEntry,
  type Profile,
  type SignatureFont,
} from './profile-api.ts';

const IMAGE_MAX_BYTES = 1024 * 1024;

export function SignaturesSection({ profile }: { profile: Profile }) {
  const library = useResource(() => profileApi.library(), []);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [rowError, setRowError] = useState<{ id: number; error: unknown } | null>(null);
  const [deleting, setDeleting] = useState<LibraryEntry | null>(null);

  async function makeDefault(entry: LibraryEntry) {
    setBusy(entry.id);
    setRowError(null);
    try {
      await profileApi.makeDefault(entry.id);
      setDone(text.defaultSet(entry.name));
      library.reload();
    } catch (failure) {
      setRowError({ id: entry.id, error: failure });
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      <section className="ws-card" aria-labelledby="st-library-title">
        <h2 id="st-library-title">{text.libraryTitle}</h2>
        <p className="ws-muted">{text.libraryIntro}</p>
        <StatusLine message={done} />
        {library.error ? <ApiErrorText error={library.error} /> : null}
        {library.data &&
          ASSET_KINDS.map((kind) => {
            const entries = library.data!.filter((e) => e.kind === kind);
            return (
              <div key={kind} className="st-library-kind">
                <h3>{text.kinds[kind]}</h3>
                {entries.length === 0 ? (
                  <p className="ws-muted">{text.noEntries(text.kinds[kind])}</p>
                ) : (
                  <ul className="st-library">
                    {entries.map((entry) => (
                      <li key={entry.id} className={entry.isDefault ? 'st-entry st-entry--default' : 'st-entry'}>
                        <img
                          src={entry.image}
                          alt={text.entryAlt(text.kindOne[kind], entry.name)}
                          className="st-entry-image"
                        />
                        <p className="st-entry-name">
                          {entry.name}
                          {entry.isDefault && <span className="st-badge">{text.defaultBadge}</span>}
                        </p>
                        <p className="ws-muted">{text.captureModes[entry.captureMode]}</p>
                        <div className="st-row-actions">
                          {!entry.isDefault && (
                            <button
                              type="button"
                              className="ws-button ws-button--small"
                              disabled={busy === entry.id}
                              aria-label={text.makeDefaultOf(entry.name)}
                              onClick={() => makeDefault(entry)}
                            >
                              {text.makeDefault}
                            </button>
                          )}
                          <button
                            type="button"
                            className="ws-button ws-button--small ws-button--quiet"
                            aria-label={text.deleteEntryOf(entry.name)}
                            onClick={() => setDeleting(entry)}
                          >
                            {text.delete}
                          </button>
                        </div>
                        {rowError?.id === entry.id && <ApiErrorText error={rowError.error} />}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            );
          })}
      </section>
      <AddEntry
        suggestion={profile.name}
        onAdded={(entry) => {
          setDone(text.entryAdded(text.kindOne[entry.kind], entry.name));
          library.reload();
        }}
      />
      {deleting && (
        <ConfirmAction
          title={text.deleteEntryTitle(deleting.name)}
          description={text.deleteEntryText}
          submitLabel={text.delete}
          run={() => profileApi.deleteEntry(deleting.id)}
          onClose={() => setDeleting(null)}
          onDone={() => {
            setDone(text.entryDeleted(deleting.name));
            setDeleting(null);
            library.reload();
          }}
        />
      )}
    </>
  );
}

/** Initials of a name: "Ada Lovelace" → "AL". */
function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase())
    .join('')
    .slice(0, 4);
}

function AddEntry({ suggestion, onAdded }: { suggestion: string; onAdded: (entry: LibraryEntry) => void }) {
  const [kind, setKind] = useState<AssetKind>('SIGNATURE');
  const [mode, setMode] = useState<CaptureMode>('DRAW');
  const [name, setName] = useState(suggestion);
  const [font, setFont] = useState<SignatureFont>('DANCING_SCRIPT');
  const [image, setImage] = useState<{ dataUrl: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const pad = useRef<DrawPadHandle>({ isEmpty: () => true, toDataUrl: () => '', clear: () => {} });
  const modeName = useId();
  const fileId = useId();
  const fileHint = useId();
  const fileError = useId();
  const issues = { ...fieldIssues(error), ...local };
  const onStroke = useMemo(() => () => setLocal((l) => ({ ...l, draw: '' })), []);

  // Uploading is for stamps only (the API's rule): another kind falls back to drawing. Initials suggest the name's initials.
  function changeKind(next: AssetKind) {
    setKind(next);
    if (next !== 'STAMP' && mode === 'UPLOAD') setMode('DRAW');
    if (next === 'INITIALS' && name === suggestion) setName(initialsOf(suggestion));
    if (next !== 'INITIALS' && name === initialsOf(suggestion)) setName(suggestion);
  }

  async function chooseFile(file: File | null) {
    setImage(null);
    setLocal((l) => ({ ...l, image: '' }));
    if (!file) return;
    if (!['image/png', 'image/jpeg'].includes(file.type)) return setLocal((l) => ({ ...l, image: text.imageType }));
    if (file.size > IMAGE_MAX_BYTES) return setLocal((l) => ({ ...l, image: text.imageSize }));
    try {
      setImage({ dataUrl: await asPngDataUrl(file) });
    } catch {
      setLocal((l) => ({ ...l, image: text.imageUnreadable }));
    }
  }

  async function save() {
    const problems: Record<string, string> = {};
    if (!name.trim()) problems.name = text.entryNameRequired;
    else if (mode === 'TYPE' && name.trim().length > 50) problems.name = text.typedTooLong;
    if (mode === 'DRAW' && pad.current.isEmpty()) problems.draw = text.drawEmpty;
    if (mode === 'UPLOAD' && !image) problems.image = local.image || text.imageRequired;
    setLocal(problems);
    if (Object.values(problems).some(Boolean)) return;
    setBusy(true);
    setError(null);
    try {
      const body =
        mode === 'DRAW'
          ? { kind, name: name.trim(), captureMode: mode, image: pad.current.toDataUrl() }
          : mode === 'TYPE'
            ? { kind, name: name.trim(), captureMode: mode, font }
            : { kind, name: name.trim(), captureMode: mode, image: image!.dataUrl };
      const added = await profileApi.addEntry(body);
      pad.current.clear();
      setImage(null);
      // Ready for the next one: the name goes back to the suggestion.
      setName(kind === 'INITIALS' ? initialsOf(suggestion) : suggestion);
      onAdded(added);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="ws-card" aria-labelledby="st-add-entry-title">
      <h2 id="st-add-entry-title">{text.addTitle}</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        noValidate
      >
        <div className="st-field">
          <label htmlFor="st-entry-kind" className="st-label">
            {text.kind}
          </label>
          <select id="st-entry-kind" value={kind} onChange={(e) => changeKind(e.target.value as AssetKind)}>
            {ASSET_KINDS.map((k) => (
              <option key={k} value={k}>
                {text.kindOne[k]}
              </option>
            ))}
          </select>
        </div>
        <TextField
          label={text.entryName}
          value={name}
          onChange={(v) => {
            setName(v);
            setLocal((l) => ({ ...l, name: '' }));
          }}
          maxLength={100}
          hint={text.entryNameHint}
          error={issues.name}
          required
        />
        <fieldset className="segmented">
          <legend>{text.how}</legend>
          <label>
            <input type="radio" name={modeName} checked={mode === 'DRAW'} onChange={() => setMode('DRAW')} />{' '}
            {text.draw}
          </label>
          <label>
            <input type="radio" name={modeName} checked={mode === 'TYPE'} onChange={() => setMode('TYPE')} />{' '}
            {text.type}
          </label>
          {kind === 'STAMP' && (
            <label>
              <input type="radio" name={modeName} checked={mode === 'UPLOAD'} onChange={() => setMode('UPLOAD')} />{' '}
              {text.upload}
            </label>
          )}
        </fieldset>
        {mode === 'DRAW' && (
          <div>
            <DrawPad handle={pad} label={text.drawLabel(text.kindOne[kind])} onStroke={onStroke} />
            <p className="st-hint">{text.drawHint}</p>
            {issues.draw && (
              <p className="ws-field-error" role="alert">
                {issues.draw}
              </p>
            )}
            <button type="button" className="ws-button ws-button--small" onClick={() => pad.current.clear()}>
              {text.clear}
            </button>
          </div>
        )}
        {mode === 'TYPE' && (
          <div className="st-field">
            <label htmlFor="st-entry-font" className="st-label">
              {text.font}
            </label>
            <select id="st-entry-font" value={font} onChange={(e) => setFont(e.target.value as SignatureFont)}>
              {SIGNATURE_FONTS.map((f) => (
                <option key={f} value={f}>
                  {text.fonts[f]}
                </option>
              ))}
            </select>
            <p className="st-hint">{text.typedPreview}:</p>
            <p className={`st-typed st-typed--${font}`} aria-hidden="true">
              {name.trim()}
            </p>
          </div>
        )}
        {mode === 'UPLOAD' && (
          <div className="st-field">
            <label htmlFor={fileId} className="st-label">
              {text.image}
            </label>
            <input
              id={fileId}
              type="file"
              accept="image/png,image/jpeg"
              aria-describedby={`${fileHint}${issues.image ? ` ${fileError}` : ''}`}
              aria-invalid={issues.image ? true : undefined}
              onChange={(e) => void chooseFile(e.target.files?.[0] ?? null)}
            />
            <p id={fileHint} className="st-hint">
              {text.imageHint}
            </p>
            {issues.image && (
              <p id={fileError} className="ws-field-error">
                {issues.image}
              </p>
            )}
            {image && <img src={image.dataUrl} alt={text.imagePreviewAlt} className="st-entry-image" />}
          </div>
        )}
        {error ? <ApiErrorText error={error} /> : null}
        <button type="submit" className="ws-button ws-button--primary" disabled={busy}>
          {busy ? text.saving : text.save}
        </button>
      </form>
    </section>
  );
}

/** A PNG or JPEG file as a PNG data URL (the library takes PNG), drawn once onto a canvas of its own size. */
async function asPngDataUrl(file: File): Promise<string> {
  const bitmap = await createImageBitmap(file);
  try {
    const canvas = document.createElement('canvas');
    const scale = Math.min(1, 2048 / Math.max(bitmap.width, bitmap.height));
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return canvas.toDataURL('image/png');
  } finally {
    bitmap.close();
  }
}
