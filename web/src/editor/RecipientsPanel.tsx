/**
 * Who signs: the sequence (only me, everyone at once, one after another) and the recipients with their role,
 * colour, order, identity step-up, access password and digital certificate. Existing recipients save as they are
 * edited; a new one is added with its form's button. The service's refusals show beside the input they concern.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type PointerEvent as ReactPointerEvent } from 'react';
import type { Me } from '../workspace/session-api.ts';
import { ConfirmDialog } from '../workspace/ui.tsx';
import {
  addRecipients,
  changeSequence,
  errorCode,
  errorPlace,
  errorText,
  removeRecipient,
  updateRecipients,
  type RecipientInput,
} from './editor-api.ts';
import { nextColour, validEmail, validName } from './field-kinds.ts';
import { editorText as text } from '../i18n/editor/index.ts';
import type { SaveTracker } from './saving.ts';
import { ROLES, type Recipient, type Role, type Sequence } from './types.ts';

type Props = {
  workflowId: number;
  sequence: Sequence;
  recipients: Recipient[];
  me: Me | null;
  tracker: SaveTracker;
  onRecipients(recipients: Recipient[]): void;
  /** Reads recipients and fields again (a sequence change renumbers, a removal takes fields along). */
  reload(): Promise<void>;
  onSequence(sequence: Sequence): void;
  announce(message: string): void;
  /**
   * Registers what must happen before the step is left: a recipient typed into the new-recipient form but not
   * added is added (or, incomplete, its errors shown and the step kept). Answers the unregister function.
   */
  onBeforeLeave(guard: () => Promise<boolean>): () => void;
};

/** Input names as the service names them in `responseBody.field` / schema paths. */
type ErrorKey =
  | 'name'
  | 'emailAddress'
  | 'recipientRole'
  | 'recipientColor'
  | 'recipientOrder'
  | 'recipientPassword'
  | 'form';
type Errors = Partial<Record<ErrorKey, string>>;

const KEYS: ErrorKey[] = [
  'name',
  'emailAddress',
  'recipientRole',
  'recipientColor',
  'recipientOrder',
  'recipientPassword',
];

/** Maps a refusal onto the input that caused it; anything else goes to the form as a whole. */
function errorsOf(error: unknown): Errors {
  const place = errorPlace(error);
  const key = KEYS.find((k) => k === place.field);
  let message = errorText(error);
  if (errorCode(error) === 'DUPLICATE_RECIPIENT' && key === 'emailAddress') message = text.duplicateEmail;
  return key ? { [key]: message } : { form: message };
}

type Draft = {
  name: string;
  emailAddress: string;
  recipientRole: Role;
  recipientColor: string;
  enforceIdentity: boolean;
  useDigitalCert: boolean;
};

function draftOf(r: Recipient): Draft {
  return {
    name: r.name,
    emailAddress: r.emailAddress,
    recipientRole: r.recipientRole,
    recipientColor: r.recipientColor,
    enforceIdentity: r.enforceIdentity,
    useDigitalCert: r.useDigitalCert,
  };
}

/** The options' summary line names those switched on, so a closed section hides nothing that matters. */
function moreSummary(draft: Draft, password = false): string {
  const on = [
    draft.enforceIdentity ? text.optionIdentity : '',
    draft.useDigitalCert ? text.optionCertificate : '',
    password ? text.optionPassword : '',
  ].filter(Boolean);
  return on.length > 0 ? `${text.moreOptions} (${on.join(', ')})` : text.moreOptions;
}

function checkDraft(draft: Draft): Errors {
  const errors: Errors = {};
  if (!validName(draft.name)) errors.name = text.nameRequired;
  if (!validEmail(draft.emailAddress)) errors.emailAddress = text.emailInvalid;
  return errors;
}

/**
 * The other recipient (and its place in the list) with this email, compared as the service stores it (trimmed,
 * lower-cased). SPEC allows the same email twice except one after another; either way the sender is told.
 */
function sameEmail(
  recipients: Recipient[],
  email: string,
  except?: number,
): { recipient: Recipient; position: number } | null {
  const wanted = email.trim().toLowerCase();
  if (!wanted) return null;
  const index = recipients.findIndex((r) => r.id !== except && r.emailAddress.trim().toLowerCase() === wanted);
  return index < 0 ? null : { recipient: recipients[index], position: index + 1 };
}

function inputOf(draft: Draft, order: number | null): RecipientInput {
  return { ...draft, name: draft.name.trim(), emailAddress: draft.emailAddress.trim(), recipientOrder: order };
}

export function RecipientsPanel(props: Props) {
  const { workflowId, sequence, recipients, me, tracker, announce } = props;
  const [sequenceError, setSequenceError] = useState<string | null>(null);
  const [sequenceBusy, setSequenceBusy] = useState(false);
  // The choice shows at once; refused, it goes back to what the service holds.
  const [pendingSequence, setPendingSequence] = useState<Sequence | null>(null);
  const [removing, setRemoving] = useState<Recipient | null>(null);
  const [removeBusy, setRemoveBusy] = useState(false);
  const [rowErrors, setRowErrors] = useState<Record<number, Errors>>({});
  const [drag, setDrag] = useState<{ id: number; from: number; over: number } | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const moveButtons = useRef(new Map<string, HTMLButtonElement>());
  const sequenceName = useId();
  const ordered = sequence === 'ORDERED';
  const visible = recipients.filter((r) => r.status !== 'DELEGATED');

  async function pickSequence(next: Sequence) {
    setSequenceError(null);
    setSequenceBusy(true);
    setPendingSequence(next);
    try {
      const settings = await tracker.track(changeSequence(workflowId, next));
      props.onSequence(settings.sequence);
      await props.reload();
    } catch (error) {
      setSequenceError(errorText(error));
    } finally {
      setPendingSequence(null);
      setSequenceBusy(false);
    }
  }

  /** The whole list saved with orders 1..n in `ids` order (one call: the service checks uniqueness over the result). */
  async function reorder(ids: number[], moved: number) {
    const byId = new Map(visible.map((r) => [r.id, r]));
    const entries = ids.map((id, index) => ({ id, ...inputOf(draftOf(byId.get(id)!), index + 1) }));
    try {
      const saved = await tracker.track(updateRecipients(workflowId, entries));
      const savedById = new Map(saved.map((r) => [r.id, r]));
      props.onRecipients(ids.map((id) => savedById.get(id)!).concat(recipients.filter((r) => !savedById.has(r.id))));
      const position = ids.indexOf(moved) + 1;
      announce(text.orderSaved(byId.get(moved)!.name, position));
      setRowErrors((current) => ({ ...current, [moved]: {} }));
    } catch (error) {
      setRowErrors((current) => ({ ...current, [moved]: { form: errorText(error) } }));
    }
  }

  function move(index: number, delta: -1 | 1) {
    const ids = visible.map((r) => r.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + delta, 0, moved);
    void reorder(ids, moved).then(() => {
      // The focus follows the recipient to its new place.
      window.setTimeout(() => {
        const same = moveButtons.current.get(`${moved}:${delta}`);
        (same && !same.disabled ? same : moveButtons.current.get(`${moved}:${-delta}`))?.focus();
      }, 0);
    });
  }

  // Pointer reordering by the handle; the Move up / Move down buttons do the same for keyboard and single taps.
  function startDrag(event: ReactPointerEvent<HTMLElement>, id: number, index: number) {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrag({ id, from: index, over: index });
  }
  function dragMove(event: ReactPointerEvent<HTMLElement>) {
    if (!drag || !listRef.current) return;
    const cards = [...listRef.current.querySelectorAll<HTMLElement>(':scope > li')];
    let over = cards.length - 1;
    for (const [i, card] of cards.entries()) {
      const rect = card.getBoundingClientRect();
      if (event.clientY < rect.top + rect.height / 2) {
        over = i;
        break;
      }
    }
    if (over !== drag.over) setDrag({ ...drag, over });
  }
  function endDrag() {
    if (!drag) return;
    const { id, from, over } = drag;
    setDrag(null);
    if (over === from) return;
    const ids = visible.map((r) => r.id);
    ids.splice(from, 1);
    ids.splice(over, 0, id);
    void reorder(ids, id);
  }

  async function confirmRemove() {
    if (!removing) return;
    setRemoveBusy(true);
    try {
      await tracker.track(removeRecipient(workflowId, removing.id));
      setRemoving(null);
      await props.reload();
    } catch (error) {
      setRowErrors((current) => ({ ...current, [removing.id]: { form: errorText(error) } }));
      setRemoving(null);
    } finally {
      setRemoveBusy(false);
    }
  }

  return (
    <section className="ws-card ed-recipients" aria-labelledby="ed-recipients-heading">
      <h3 id="ed-recipients-heading">{text.recipientsHeading}</h3>
      {sequence === 'SURVEY' ? (
        <p>{text.surveyNotEditable}</p>
      ) : (
        <fieldset
          className="ed-choice"
          disabled={sequenceBusy}
          aria-describedby={sequenceError ? `${sequenceName}-error` : undefined}
        >
          <legend>{text.sequenceLegend}</legend>
          {(['SELF', 'UNORDERED', 'ORDERED'] as const).map((value) => (
            <label key={value} className="ed-choice-option ed-choice-option--inline">
              <input
                type="radio"
                name={sequenceName}
                value={value}
                checked={(pendingSequence ?? sequence) === value}
                onChange={() => void pickSequence(value)}
              />
              <span>{text.sequence[value]}</span>
            </label>
          ))}
          {sequenceError && (
            <p id={`${sequenceName}-error`} className="ws-field-error" role="alert">
              {sequenceError}
            </p>
          )}
        </fieldset>
      )}

      {sequence === 'SELF' ? (
        <p>{me ? text.selfOnly(me.name, me.email) : ''}</p>
      ) : (
        sequence !== 'SURVEY' && (
          <>
            {visible.length === 0 && <p>{text.noRecipients}</p>}
            <ol className={`ed-list ed-recipient-list${drag ? ' ed-dragging' : ''}`} ref={listRef}>
              {visible.map((recipient, index) => (
                <li
                  key={recipient.id}
                  className={`ed-recipient${drag?.id === recipient.id ? ' ed-recipient--dragged' : ''}${drag && drag.over === index && drag.from !== index ? (drag.over < drag.from ? ' ed-drop-before' : ' ed-drop-after') : ''}`}
                >
                  {ordered && visible.length > 1 && (
                    <div
                      className="ed-handle"
                      aria-hidden="true"
                      title={text.dragToReorder}
                      onPointerDown={(event) => startDrag(event, recipient.id, index)}
                      onPointerMove={dragMove}
                      onPointerUp={endDrag}
                      onPointerCancel={() => setDrag(null)}
                    >
                      <span className="ed-handle-grip">⋮⋮</span>
                    </div>
                  )}
                  <RecipientCard
                    key={`${recipient.id}:${recipient.recipientOrder}`}
                    workflowId={workflowId}
                    recipient={recipient}
                    position={index + 1}
                    twin={sameEmail(visible, recipient.emailAddress, recipient.id)}
                    ordered={ordered}
                    tracker={tracker}
                    serverErrors={rowErrors[recipient.id] ?? {}}
                    onSaved={(saved) => props.onRecipients(recipients.map((r) => (r.id === saved.id ? saved : r)))}
                    onRemove={() => setRemoving(recipient)}
                    announce={announce}
                    moveControls={
                      ordered && visible.length > 1 ? (
                        <div className="ed-row-actions">
                          <span className="ws-muted">{text.orderNumber(index + 1)}</span>
                          <button
                            type="button"
                            className="ws-button ws-button--small"
                            disabled={index === 0}
                            aria-label={text.moveUp(recipient.name)}
                            ref={(el) => {
                              if (el) moveButtons.current.set(`${recipient.id}:-1`, el);
                            }}
                            onClick={() => move(index, -1)}
                          >
                            ↑
                          </button>
                          <button
                            type="button"
                            className="ws-button ws-button--small"
                            disabled={index === visible.length - 1}
                            aria-label={text.moveDown(recipient.name)}
                            ref={(el) => {
                              if (el) moveButtons.current.set(`${recipient.id}:1`, el);
                            }}
                            onClick={() => move(index, 1)}
                          >
                            ↓
                          </button>
                        </div>
                      ) : null
                    }
                  />
                </li>
              ))}
            </ol>
            <NewRecipientForm
              workflowId={workflowId}
              recipients={visible}
              ordered={ordered}
              tracker={tracker}
              onAdded={(added) => {
                props.onRecipients([...recipients, ...added]);
                announce(text.recipientAdded(added[0].name));
              }}
              onBeforeLeave={props.onBeforeLeave}
            />
          </>
        )
      )}
      <ConfirmDialog
        open={removing !== null}
        title={text.removeRecipientTitle}
        confirmLabel={text.remove}
        cancelLabel={text.cancel}
        danger
        busy={removeBusy}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(null)}
      >
        <p>{removing ? text.removeRecipientText(removing.name) : ''}</p>
      </ConfirmDialog>
    </section>
  );
}

type CardProps = {
  workflowId: number;
  recipient: Recipient;
  position: number;
  /** Another recipient with the same email. */
  twin: { recipient: Recipient; position: number } | null;
  ordered: boolean;
  tracker: SaveTracker;
  serverErrors: Errors;
  moveControls: React.ReactNode;
  onSaved(recipient: Recipient): void;
  onRemove(): void;
  announce(message: string): void;
};

/** One recipient, saved as it is edited: text inputs when left, choices at once. */
function RecipientCard({
  workflowId,
  recipient,
  position,
  twin,
  ordered,
  tracker,
  serverErrors,
  moveControls,
  onSaved,
  onRemove,
  announce,
}: CardProps) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(recipient));
  const [errors, setErrors] = useState<Errors>({});
  const [password, setPassword] = useState('');
  const [passwordNote, setPasswordNote] = useState<string | null>(null);
  const colourTimer = useRef<number | undefined>(undefined);
  const id = useId();
  const shown = { ...serverErrors, ...errors };

  async function save(next: Draft, extra: { recipientPassword?: string } = {}) {
    const problems = checkDraft(next);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return false;
    try {
      const order = ordered
        ? Number(recipient.recipientOrder ?? position)
        : recipient.recipientOrder
          ? Number(recipient.recipientOrder)
          : null;
      const [saved] = await tracker.track(
        updateRecipients(workflowId, [{ id: recipient.id, ...inputOf(next, order), ...extra }]),
      );
      onSaved(saved);
      setErrors({});
      return true;
    } catch (error) {
      setErrors(errorsOf(error));
      return false;
    }
  }

  /** `now`: a choice, saved at once; refused, it goes back to what the service holds (the reason stays shown). */
  function set<K extends keyof Draft>(key: K, value: Draft[K], now: boolean) {
    const next = { ...draft, [key]: value };
    setDraft(next);
    if (now) {
      void save(next).then((ok) => {
        if (!ok) setDraft((current) => ({ ...current, [key]: draftOf(recipient)[key] }));
      });
    }
  }

  const changed = (key: keyof Draft) => draft[key] !== draftOf(recipient)[key];
  const errorId = (key: ErrorKey) => `${id}-${key}-error`;
  const described = (key: ErrorKey, hint?: string) =>
    [hint, shown[key] ? errorId(key) : ''].filter(Boolean).join(' ') || undefined;
  const twinId = `${id}-same-email`;

  return (
    <fieldset className="ed-recipient-card" style={{ ['--recipient-color' as string]: recipient.recipientColor }}>
      <legend>
        <span className="ed-swatch" aria-hidden="true" />
        {text.recipientCard(position, recipient.name)}
      </legend>
      {moveControls}
      <div className="ed-grid">
        <div>
          <label htmlFor={`${id}-name`}>{text.name}</label>
          <input
            id={`${id}-name`}
            type="text"
            autoComplete="off"
            value={draft.name}
            aria-invalid={shown.name ? true : undefined}
            aria-describedby={described('name')}
            onChange={(e) => set('name', e.target.value, false)}
            onBlur={() => changed('name') && void save(draft)}
          />
          {shown.name && (
            <p id={errorId('name')} className="ws-field-error" role="alert">
              {shown.name}
            </p>
          )}
        </div>
        <div>
          <label htmlFor={`${id}-email`}>{text.email}</label>
          <input
            id={`${id}-email`}
            type="email"
            autoComplete="off"
            value={draft.emailAddress}
            aria-invalid={shown.emailAddress ? true : undefined}
            aria-describedby={described('emailAddress', twin ? twinId : undefined)}
            onChange={(e) => set('emailAddress', e.target.value, false)}
            onBlur={() => changed('emailAddress') && void save(draft)}
          />
          {shown.emailAddress && (
            <p id={errorId('emailAddress')} className="ws-field-error" role="alert">
              {shown.emailAddress}
            </p>
          )}
          {twin && !shown.emailAddress && (
            <p id={twinId} className="ed-warning">
              {text.sameEmailWarning(twin.recipient.name, twin.position, ordered)}
            </p>
          )}
        </div>
        <div>
          <label htmlFor={`${id}-role`}>{text.role}</label>
          <select
            id={`${id}-role`}
            value={draft.recipientRole}
            aria-invalid={shown.recipientRole ? true : undefined}
            aria-describedby={described('recipientRole')}
            onChange={(e) => set('recipientRole', e.target.value as Role, true)}
          >
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {text.roles[role]}
              </option>
            ))}
          </select>
          {shown.recipientRole && (
            <p id={errorId('recipientRole')} className="ws-field-error" role="alert">
              {shown.recipientRole}
            </p>
          )}
        </div>
        <div>
          <label htmlFor={`${id}-colour`}>{text.colour}</label>
          <input
            id={`${id}-colour`}
            type="color"
            className="ed-colour"
            value={draft.recipientColor}
            onChange={(e) => {
              const value = e.target.value.toUpperCase();
              setDraft((current) => ({ ...current, recipientColor: value }));
              window.clearTimeout(colourTimer.current);
              colourTimer.current = window.setTimeout(() => void save({ ...draft, recipientColor: value }), 500);
            }}
          />
        </div>
      </div>
      <details className="ed-more">
        <summary>{moreSummary(draft)}</summary>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.enforceIdentity}
            onChange={(e) => set('enforceIdentity', e.target.checked, true)}
          />
          {text.enforceIdentity}
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.useDigitalCert}
            onChange={(e) => set('useDigitalCert', e.target.checked, true)}
          />
          {text.useDigitalCert}
        </label>
        <div>
          <label htmlFor={`${id}-password`}>{text.accessPassword}</label>
          <input
            id={`${id}-password`}
            type="password"
            autoComplete="new-password"
            value={password}
            maxLength={128}
            aria-describedby={`${id}-password-hint${shown.recipientPassword ? ` ${errorId('recipientPassword')}` : ''}`}
            onChange={(e) => setPassword(e.target.value)}
            onBlur={async () => {
              if (!password) return;
              if (await save(draft, { recipientPassword: password })) {
                setPassword('');
                setPasswordNote(text.accessPasswordSaved);
                announce(text.accessPasswordSaved);
              }
            }}
          />
          <p className="hint" id={`${id}-password-hint`}>
            {text.accessPasswordHint} {text.accessPasswordKeep}
          </p>
          {shown.recipientPassword && (
            <p id={errorId('recipientPassword')} className="ws-field-error" role="alert">
              {shown.recipientPassword}
            </p>
          )}
          {passwordNote && <p className="ws-muted">{passwordNote}</p>}
        </div>
        <button
          type="button"
          className="ws-button ws-button--small ws-button--quiet"
          onClick={async () => {
            if (await save(draft, { recipientPassword: '' })) {
              setPasswordNote(text.accessPasswordRemoved);
              announce(text.accessPasswordRemoved);
            }
          }}
        >
          {text.removeAccessPassword}
        </button>
      </details>
      <div className="ed-row-actions">
        <button type="button" className="ws-button ws-button--small ws-button--danger" onClick={onRemove}>
          {text.removeRecipient(recipient.name)}
        </button>
      </div>
      {shown.form && (
        <p className="ws-field-error" role="alert">
          {shown.form}
        </p>
      )}
      {shown.recipientOrder && (
        <p className="ws-field-error" role="alert">
          {shown.recipientOrder}
        </p>
      )}
    </fieldset>
  );
}

/** The form that adds one recipient at a time; it stays, emptied, for the next one. */
function NewRecipientForm({
  workflowId,
  recipients,
  ordered,
  tracker,
  onAdded,
  onBeforeLeave,
}: {
  workflowId: number;
  recipients: Recipient[];
  ordered: boolean;
  tracker: SaveTracker;
  onAdded(added: Recipient[]): void;
  onBeforeLeave(guard: () => Promise<boolean>): () => void;
}) {
  const blank = (): Draft => ({
    name: '',
    emailAddress: '',
    recipientRole: 'SIGNER',
    recipientColor: nextColour(recipients.map((r) => r.recipientColor)),
    enforceIdentity: false,
    useDigitalCert: false,
  });
  const [draft, setDraft] = useState<Draft>(blank);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const id = useId();
  const headingId = `${id}-heading`;
  // Said once the sender stopped typing the address (on leaving the input), not at every keystroke.
  const [emailLeft, setEmailLeft] = useState(false);
  const twin = emailLeft ? sameEmail(recipients, draft.emailAddress) : null;
  // Leaving the step with a typed recipient whose email another recipient has stops once, to say so.
  const [twinKept, setTwinKept] = useState(false);
  // A colour already taken by a recipient added meanwhile moves on to a free one.
  const colour = recipients.some((r) => r.recipientColor.toUpperCase() === draft.recipientColor.toUpperCase())
    ? nextColour(recipients.map((r) => r.recipientColor))
    : draft.recipientColor;

  /** Adds the typed recipient; answers whether it was added (false: the form shows why, focus on the first error). */
  async function add(): Promise<boolean> {
    const next = { ...draft, recipientColor: colour };
    const problems = checkDraft(next);
    setErrors(problems);
    if (problems.name) {
      nameInput.current?.focus();
      return false;
    }
    if (problems.emailAddress) {
      emailInput.current?.focus();
      return false;
    }
    setBusy(true);
    try {
      const orders = recipients.map((r) => Number(r.recipientOrder ?? 0));
      const order = ordered ? Math.max(0, ...orders) + 1 : null;
      const added = await tracker.track(
        addRecipients(workflowId, [{ ...inputOf(next, order), ...(password ? { recipientPassword: password } : {}) }]),
      );
      onAdded(added);
      setDraft({ ...blank(), recipientColor: nextColour([...recipients, ...added].map((r) => r.recipientColor)) });
      setPassword('');
      setErrors({});
      setEmailLeft(false);
      setTwinKept(false);
      nameInput.current?.focus();
      return true;
    } catch (error) {
      const mapped = errorsOf(error);
      setErrors(mapped);
      if (mapped.name) nameInput.current?.focus();
      else if (mapped.emailAddress) emailInput.current?.focus();
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    await add();
  }

  // Leaving the step with a recipient typed but not added adds it (what a person typed counts); an empty form lets
  // the step go.
  const typed = draft.name.trim() !== '' || draft.emailAddress.trim() !== '';
  const leaveRef = useRef<() => Promise<boolean>>(async () => true);
  const stopForTwin = async () => {
    setEmailLeft(true);
    setTwinKept(true);
    emailInput.current?.focus();
    return false;
  };
  leaveRef.current = !typed
    ? async () => true
    : sameEmail(recipients, draft.emailAddress) && !twinKept
      ? stopForTwin
      : add;
  useEffect(() => onBeforeLeave(() => leaveRef.current()), [onBeforeLeave]);

  const errorId = (key: ErrorKey) => `${id}-${key}-error`;
  const described = (key: ErrorKey, hint?: string) =>
    [hint, errors[key] ? errorId(key) : ''].filter(Boolean).join(' ') || undefined;
  const twinId = `${id}-same-email`;

  return (
    <form
      className="ed-recipient-card ed-new-recipient"
      aria-labelledby={headingId}
      onSubmit={submit}
      noValidate
      style={{ ['--recipient-color' as string]: colour }}
    >
      <h4 id={headingId}>{recipients.length === 0 ? text.newRecipientHeading : text.addAnother}</h4>
      <div className="ed-grid">
        <div>
          <label htmlFor={`${id}-name`}>{text.name}</label>
          <input
            id={`${id}-name`}
            ref={nameInput}
            type="text"
            autoComplete="off"
            value={draft.name}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={described('name', `${id}-name-hint`)}
            onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          />
          <p className="hint" id={`${id}-name-hint`}>
            {text.nameHint}
          </p>
          {errors.name && (
            <p id={errorId('name')} className="ws-field-error" role="alert">
              {errors.name}
            </p>
          )}
        </div>
        <div>
          <label htmlFor={`${id}-email`}>{text.email}</label>
          <input
            id={`${id}-email`}
            ref={emailInput}
            type="email"
            autoComplete="off"
            value={draft.emailAddress}
            aria-invalid={errors.emailAddress ? true : undefined}
            aria-describedby={described('emailAddress', twin ? twinId : undefined)}
            onChange={(e) => {
              setDraft({ ...draft, emailAddress: e.target.value });
              setTwinKept(false);
            }}
            onBlur={() => setEmailLeft(true)}
          />
          {errors.emailAddress && (
            <p id={errorId('emailAddress')} className="ws-field-error" role="alert">
              {errors.emailAddress}
            </p>
          )}
          {twin && !errors.emailAddress && (
            <p id={twinId} className="ed-warning" role="status">
              {text.sameEmailWarning(twin.recipient.name, twin.position, ordered)}
              {twinKept ? ` ${text.sameEmailKept}` : ''}
            </p>
          )}
        </div>
        <div>
          <label htmlFor={`${id}-role`}>{text.role}</label>
          <select
            id={`${id}-role`}
            value={draft.recipientRole}
            onChange={(e) => setDraft({ ...draft, recipientRole: e.target.value as Role })}
            aria-describedby={described('recipientRole')}
          >
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {text.roles[role]}
              </option>
            ))}
          </select>
          {errors.recipientRole && (
            <p id={errorId('recipientRole')} className="ws-field-error" role="alert">
              {errors.recipientRole}
            </p>
          )}
        </div>
        <div>
          <label htmlFor={`${id}-colour`}>{text.colour}</label>
          <input
            id={`${id}-colour`}
            type="color"
            className="ed-colour"
            value={colour}
            onChange={(e) => setDraft({ ...draft, recipientColor: e.target.value.toUpperCase() })}
          />
        </div>
      </div>
      <details className="ed-more">
        <summary>{moreSummary(draft, password !== '')}</summary>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.enforceIdentity}
            onChange={(e) => setDraft({ ...draft, enforceIdentity: e.target.checked })}
          />
          {text.enforceIdentity}
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.useDigitalCert}
            onChange={(e) => setDraft({ ...draft, useDigitalCert: e.target.checked })}
          />
          {text.useDigitalCert}
        </label>
        <div>
          <label htmlFor={`${id}-password`}>{text.accessPassword}</label>
          <input
            id={`${id}-password`}
            type="password"
            autoComplete="new-password"
            value={password}
            maxLength={128}
            aria-describedby={`${id}-password-hint`}
            onChange={(e) => setPassword(e.target.value)}
          />
          <p className="hint" id={`${id}-password-hint`}>
            {text.accessPasswordHint}
          </p>
        </div>
      </details>
      {errors.form && (
        <p className="ws-field-error" role="alert">
          {errors.form}
        </p>
      )}
      {errors.recipientOrder && (
        <p className="ws-field-error" role="alert">
          {errors.recipientOrder}
        </p>
      )}
      <div className="ws-actions">
        <button type="submit" className="ws-button ws-button--primary" disabled={busy}>
          {text.addRecipient}
        </button>
      </div>
    </form>
  );
}
