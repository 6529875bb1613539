import { useCallback, useEffect, useId, useRef, useState } from 'react';
import '@fontsource/dancing-script/latin-400.css';
import { t } from '../i18n/signing/index.ts';

const HANDWRITING_FONT = '"Dancing Script"';
const DRAW_WIDTH = 600;
const DRAW_HEIGHT = 200;

type Props = {
  /** SIGNATURE or INITIALS wording. */
  kind: 'signature' | 'initials';
  /** Suggested text for typing: the signer's name, or its initials. */
  suggestion: string;
  onAdopt(dataUrl: string): void;
};

/**
 * A signature or initials made by drawing (mouse, pen, finger through pointer events) or by typing, the
 * typed text drawn in a handwriting font onto a canvas. Either way the result is a PNG data URL. Typing is the
 * alternative for people who cannot draw (keyboard only, WCAG 2.5.7).
 */
export function SignatureCapture({ kind, suggestion, onAdopt }: Props) {
  const [mode, setMode] = useState<'draw' | 'type'>('draw');
  const [error, setError] = useState<string | null>(null);
  const name = useId();
  const errorId = useId();
  const drawRef = useRef<DrawPadHandle>({ isEmpty: () => true, toDataUrl: () => '', clear: () => {} });
  const [typed, setTyped] = useState(suggestion);
  const [typedImage, setTypedImage] = useState<string | null>(null);
  const clearError = useCallback(() => setError(null), []);

  useEffect(() => {
    let cancelled = false;
    renderTyped(typed).then((image) => !cancelled && setTypedImage(image));
    return () => {
      cancelled = true;
    };
  }, [typed]);

  const adopt = () => {
    if (mode === 'draw') {
      if (drawRef.current.isEmpty()) return setError(t.drawEmpty);
      onAdopt(drawRef.current.toDataUrl());
    } else {
      if (!typed.trim() || !typedImage) return setError(t.typeEmpty);
      onAdopt(typedImage);
    }
    setError(null);
  };

  return (
    <div className="signature-capture">
      <fieldset className="segmented">
        <legend>{t.signatureHow}</legend>
        <label>
          <input
            type="radio"
            name={name}
            checked={mode === 'draw'}
            onChange={() => {
              setMode('draw');
              setError(null);
            }}
          />{' '}
          {t.signatureDraw}
        </label>
        <label>
          <input
            type="radio"
            name={name}
            checked={mode === 'type'}
            onChange={() => {
              setMode('type');
              setError(null);
            }}
          />{' '}
          {t.signatureType}
        </label>
      </fieldset>
      {mode === 'draw' ? (
        <div className="draw">
          <DrawPad handle={drawRef} label={t.drawAreaLabel(kind)} onStroke={clearError} />
          <p className="hint">{t.drawHint}</p>
        </div>
      ) : (
        <div className="type">
          <label className="stacked">
            {t.typeLabel(kind)}
            <input
              type="text"
              value={typed}
              maxLength={kind === 'signature' ? 60 : 8}
              autoComplete="name"
              onChange={(e) => {
                setTyped(e.target.value);
                setError(null);
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
            />
          </label>
          {typedImage && <img className="typed-preview" src={typedImage} alt={t.typePreviewAlt(kind)} />}
        </div>
      )}
      {error && (
        <p className="error" id={errorId} role="alert">
          {error}
        </p>
      )}
      {/* One row, held in view at the bottom of a phone's sheet (shared/styles.css). */}
      <div className="capture-actions">
        {mode === 'draw' && (
          <button type="button" className="secondary" onClick={() => drawRef.current.clear()}>
            {t.clearValue}
          </button>
        )}
        <button type="button" className="primary" onClick={adopt}>
          {t.adoptSignature(kind)}
        </button>
      </div>
    </div>
  );
}

/** Also the profile's signature library's drawing area (web/src/profile). */
export type DrawPadHandle = { isEmpty(): boolean; toDataUrl(): string; clear(): void };

export function DrawPad({
  handle,
  label,
  onStroke,
}: {
  handle: React.RefObject<DrawPadHandle>;
  label: string;
  onStroke(): void;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const strokes = useRef(0);

  useEffect(() => {
    const canvas = canvasRef.current!;
    const context = canvas.getContext('2d')!;
    context.lineWidth = 3;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.strokeStyle = '#1a1a6e';
    let drawing = false;
    const point = (event: PointerEvent) => {
      const rect = canvas.getBoundingClientRect();
      return {
        x: ((event.clientX - rect.left) / rect.width) * DRAW_WIDTH,
        y: ((event.clientY - rect.top) / rect.height) * DRAW_HEIGHT,
      };
    };
    const down = (event: PointerEvent) => {
      event.preventDefault();
      canvas.setPointerCapture(event.pointerId);
      drawing = true;
      const p = point(event);
      context.beginPath();
      context.moveTo(p.x, p.y);
      context.lineTo(p.x + 0.1, p.y + 0.1);
      context.stroke();
    };
    const move = (event: PointerEvent) => {
      if (!drawing) return;
      const p = point(event);
      context.lineTo(p.x, p.y);
      context.stroke();
    };
    const up = () => {
      if (!drawing) return;
      drawing = false;
      strokes.current += 1;
      onStroke();
    };
    canvas.addEventListener('pointerdown', down);
    canvas.addEventListener('pointermove', move);
    canvas.addEventListener('pointerup', up);
    canvas.addEventListener('pointercancel', up);
    handle.current = {
      isEmpty: () => strokes.current === 0,
      toDataUrl: () => canvas.toDataURL('image/png'),
      clear: () => {
        context.clearRect(0, 0, DRAW_WIDTH, DRAW_HEIGHT);
        strokes.current = 0;
      },
    };
    return () => {
      canvas.removeEventListener('pointerdown', down);
      canvas.removeEventListener('pointermove', move);
      canvas.removeEventListener('pointerup', up);
      canvas.removeEventListener('pointercancel', up);
    };
  }, [handle, onStroke]);

  return (
    <canvas
      ref={canvasRef}
      className="draw-pad"
      width={DRAW_WIDTH}
      height={DRAW_HEIGHT}
      role="img"
      aria-label={label}
    />
  );
}

/** The typed text in the handwriting font, as a PNG sized to the text. */
async function renderTyped(text: string): Promise<string | null> {
  const value = text.trim();
  if (!value) return null;
  const size = 72;
  await document.fonts.load(`${size}px ${HANDWRITING_FONT}`, value).catch(() => []);
  const measure = document.createElement('canvas').getContext('2d')!;
  measure.font = `${size}px ${HANDWRITING_FONT}`;
  const width = Math.ceil(measure.measureText(value).width) + 24;
  const canvas = document.createElement('canvas');
  canvas.width = Math.min(Math.max(width, 40), 4000);
  canvas.height = Math.round(size * 1.5);
  const context = canvas.getContext('2d')!;
  context.font = `${size}px ${HANDWRITING_FONT}`;
  context.fillStyle = '#1a1a6e';
  context.textBaseline = 'middle';
  context.fillText(value, 12, canvas.height / 2);
  return canvas.toDataURL('image/png');
}
