/** The last step of an envelope others sign: who gets it, reminders, the mail's subject and message, and Send. */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { navigate } from '../workspace/router.tsx';
import { useEmailVerified, VerifyToSend } from '../workspace/VerifyToSend.tsx';
import { commence, configureReminder, errorPlace, errorText, loadSettings } from './editor-api.ts';
import { fillers, signersWithoutSignature } from './field-kinds.ts';
import { editorText as text } from '../i18n/editor/index.ts';
import type { SaveTracker } from './saving.ts';
import type { Field, Recipient, Reminder, Sequence } from './types.ts';

type Props = {
  workflowId: number;
  name: string;
  sequence: Sequence;
  recipients: Recipient[];
  fields: Field[];
  tracker: SaveTracker;
  /** Saves what is still waiting (field moves) before the envelope leaves. */
  flush(): Promise<void>;
  goToFields(): void;
};

export function SendStep({ workflowId, name, sequence, recipients, fields, tracker, flush, goToFields }: Props) {
  const [title, setTitle] = useState(name);
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const id = useId();
  const visible = recipients.filter((r) => r.status !== 'DELEGATED');
  const missing = signersWithoutSignature(visible, fields);
  const actors = fillers(visible);
  const address = useEmailVerified();
  const unverified = address.verified === false;

  async function send(event: FormEvent) {
    event.preventDefault();
    setSending(true);
    setSendError(null);
    try {
      await flush();
      await tracker.track(commence(workflowId, { title: title.trim(), message: message.trim() }));
      navigate(`/envelopes/${workflowId}`);
    } catch (error) {
      // The address was found unverified only now (another tab, a stale page): show the notice instead.
      if ((error as { code?: string }).code === 'EMAIL_NOT_VERIFIED') address.recheck();
      setSendError(errorText(error));
      setSending(false);
    }
  }

  return (
    <form className="ed-send" onSubmit={send} aria-labelledby="ed-step-heading" noValidate>
      <section className="ws-card" aria-labelledby={`${id}-summary`}>
        <h3 id={`${id}-summary`}>{text.summaryHeading}</h3>
        <p className="ws-muted">{sequence === 'ORDERED' ? text.orderedNote : text.unorderedNote}</p>
        {sequence === 'ORDERED' ? (
          <ol className="ed-summary">
            {visible.map((r) => (
              <SummaryLine key={r.id} recipient={r} fields={fields} />
            ))}
          </ol>
        ) : (
          <ul className="ed-summary">
            {visible.map((r) => (
              <SummaryLine key={r.id} recipient={r} fields={fields} />
            ))}
          </ul>
        )}
        {actors.length === 0 && <p className="ws-field-error">{text.noActionRecipient}</p>}
        {missing.length > 0 && (
          <div className="ed-warning">
            <ul>
              {missing.map((r) => (
                <li key={r.id}>{text.noSignatureField(r.name)}</li>
              ))}
            </ul>
            <button type="button" className="ws-button ws-button--small" onClick={goToFields}>
              {text.back(text.steps.fields)}
            </button>
          </div>
        )}
      </section>
      <Reminders workflowId={workflowId} sequence={sequence} tracker={tracker} />
      <section className="ws-card" aria-labelledby={`${id}-mail`}>
        <h3 id={`${id}-mail`}>{text.mailHeading}</h3>
        <label htmlFor={`${id}-title`}>{text.subject}</label>
        <input
          id={`${id}-title`}
          type="text"
          maxLength={200}
          value={title}
          aria-describedby={`${id}-title-hint`}
          onChange={(e) => setTitle(e.target.value)}
        />
        <p className="hint" id={`${id}-title-hint`}>
          {text.subjectHint}
        </p>
        <label htmlFor={`${id}-message`}>{text.message}</label>
        <textarea
          id={`${id}-message`}
          rows={5}
          maxLength={5000}
          value={message}
          aria-describedby={`${id}-message-hint`}
          onChange={(e) => setMessage(e.target.value)}
        />
        <p className="hint" id={`${id}-message-hint`}>
          {text.messageHint}
        </p>
      </section>
      {unverified && <VerifyToSend email={address.email} recheck={address.recheck} />}
      <div className="ws-actions">
        <button
          type="submit"
          className="ws-button ws-button--primary"
          disabled={sending || unverified}
          aria-describedby={sendError ? `${id}-send-error` : unverified ? 'verify-to-send-heading' : undefined}
        >
          {sending ? text.sending : text.send}
        </button>
      </div>
      {sendError && (
        <div className="ws-error" role="alert" id={`${id}-send-error`}>
          <p>
            {text.sendFailed} {sendError}
          </p>
        </div>
      )}
    </form>
  );
}

function SummaryLine({ recipient, fields }: { recipient: Recipient; fields: Field[] }) {
  const count = fields.filter((f) => f.recipientId === recipient.id).length;
  return (
    <li style={{ ['--recipient-color' as string]: recipient.recipientColor }}>
      <span className="ed-swatch" aria-hidden="true" />
      {text.summaryLine(
        recipient.name,
        recipient.emailAddress,
        text.roles[recipient.recipientRole] ?? recipient.recipientRole,
        count,
      )}
    </li>
  );
}

/** SPEC.md's reminder settings: off, every N days after a recipient's turn begins, or N minutes after they received it. */
function Reminders({
  workflowId,
  sequence,
  tracker,
}: {
  workflowId: number;
  sequence: Sequence;
  tracker: SaveTracker;
}) {
  const [stored, setStored] = useState<Reminder | null>(null);
  const [enabled, setEnabled] = useState(false);
  const [mode, setMode] = useState<'days' | 'minutes'>('days');
  const [days, setDays] = useState('3');
  const [minutes, setMinutes] = useState('60');
  const [error, setError] = useState<{ key: 'days' | 'minutes' | 'form'; text: string } | null>(null);
  // Saves go one after another: two in flight could commit out of order and leave the earlier value stored.
  const lastSave = useRef<Promise<unknown>>(Promise.resolve());
  const id = useId();

  useEffect(() => {
    let live = true;
    loadSettings(workflowId, sequence).then(
      (settings) => {
        if (!live) return;
        const reminder = settings.reminder;
        setStored(reminder);
        setEnabled(reminder.enabled);
        if (reminder.offsetMinutes !== null) {
          setMode('minutes');
          setMinutes(String(reminder.offsetMinutes));
        } else if (reminder.intervalDays !== null) {
          setDays(String(reminder.intervalDays));
        }
      },
      (failure: unknown) => live && setError({ key: 'form', text: errorText(failure) }),
    );
    return () => {
      live = false;
    };
  }, [workflowId, sequence]);

  async function save(next: { enabled: boolean; mode: 'days' | 'minutes'; days: string; minutes: string }) {
    setError(null);
    if (next.enabled) {
      const raw = next.mode === 'days' ? next.days : next.minutes;
      const value = Number(raw);
      const [min, max] = next.mode === 'days' ? [1, 30] : [1, 1439];
      if (raw.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
        setError({ key: next.mode, text: next.mode === 'days' ? text.intervalInvalid : text.offsetInvalid });
        return;
      }
    }
    const body = !next.enabled
      ? { enabled: false }
      : next.mode === 'days'
        ? { enabled: true, intervalDays: Number(next.days), offsetMinutes: null }
        : { enabled: true, offsetMinutes: Number(next.minutes), intervalDays: null };
    try {
      const saved = lastSave.current.then(() => configureReminder(workflowId, body));
      lastSave.current = saved.catch(() => undefined);
      setStored(await tracker.track(saved));
    } catch (failure) {
      const field = errorPlace(failure).field;
      setError({
        key: field === 'intervalDays' ? 'days' : field === 'offsetMinutes' ? 'minutes' : 'form',
        text: errorText(failure),
      });
    }
  }

  const current = { enabled, mode, days, minutes };
  if (sequence === 'SELF') return null;
  return (
    <section className="ws-card" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{text.remindersHeading}</h3>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={enabled}
          disabled={stored === null && error === null}
          onChange={(e) => {
            setEnabled(e.target.checked);
            void save({ ...current, enabled: e.target.checked });
          }}
        />
        {text.remindersEnabled}
      </label>
      {enabled && (
        <fieldset className="ed-choice">
          <legend>{text.reminderWhen}</legend>
          <div className="ed-reminder-option">
            <label className="checkbox">
              <input
                type="radio"
                name={`${id}-mode`}
                checked={mode === 'days'}
                onChange={() => {
                  setMode('days');
                  void save({ ...current, mode: 'days' });
                }}
              />
              {text.reminderDays}
            </label>
            <label htmlFor={`${id}-days`} className="ed-inline-label">
              {text.intervalDays}
            </label>
            <input
              id={`${id}-days`}
              type="number"
              min={1}
              max={30}
              step={1}
              className="ed-number"
              value={days}
              disabled={mode !== 'days'}
              aria-invalid={error?.key === 'days' ? true : undefined}
              aria-describedby={error?.key === 'days' ? `${id}-days-error` : undefined}
              onChange={(e) => setDays(e.target.value)}
              onBlur={() => void save(current)}
            />
            {error?.key === 'days' && (
              <p className="ws-field-error" role="alert" id={`${id}-days-error`}>
                {error.text}
              </p>
            )}
          </div>
          <div className="ed-reminder-option">
            <label className="checkbox">
              <input
                type="radio"
                name={`${id}-mode`}
                checked={mode === 'minutes'}
                onChange={() => {
                  setMode('minutes');
                  void save({ ...current, mode: 'minutes' });
                }}
              />
              {text.reminderMinutes}
            </label>
            <label htmlFor={`${id}-minutes`} className="ed-inline-label">
              {text.offsetMinutes}
            </label>
            <input
              id={`${id}-minutes`}
              type="number"
              min={1}
              max={1439}
              step={1}
              className="ed-number"
              value={minutes}
              disabled={mode !== 'minutes'}
              aria-invalid={error?.key === 'minutes' ? true : undefined}
              aria-describedby={error?.key === 'minutes' ? `${id}-minutes-error` : undefined}
              onChange={(e) => setMinutes(e.target.value)}
              onBlur={() => void save(current)}
            />
            {error?.key === 'minutes' && (
              <p className="ws-field-error" role="alert" id={`${id}-minutes-error`}>
                {error.text}
              </p>
            )}
          </div>
        </fieldset>
      )}
      {error?.key === 'form' && (
        <p className="ws-field-error" role="alert">
          {error.text}
        </p>
      )}
    </section>
  );
}
