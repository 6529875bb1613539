/**
 * /templates/:id/dispatch: who receives an envelope made from the template. Placeholder slots (those with a
 * label) must be filled; the others show the template's recipient and may be changed. Send now (dispatch: the
 * envelope page follows) or make a draft to edit first (apply: the editor follows). A refusal that names a
 * recipient (recipientIndex, field) is shown on that recipient's field.
 */
import { useState } from 'react';
import { ApiError } from '../shared/api.ts';
import { Link, navigate } from '../workspace/router.tsx';
import type { PageProps } from '../workspace/routes.tsx';
import { useTitle } from '../workspace/ui.tsx';
import { useEmailVerified, VerifyToSend } from '../workspace/VerifyToSend.tsx';
import { ApiErrorText, TextField, useResource } from '../organization/kit.tsx';
import { templatesText as text } from '../i18n/templates/index.ts';
import { templatesApi, type Override, type Slot, type Template } from './templates-api.ts';
import './templates.css';
import { isPersonName } from '../shared/person-name.ts';
import { Skeleton } from '../shared/Skeleton.tsx';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function DispatchPage({ params }: PageProps) {
  const id = Number(params.id);
  const loaded = useResource(async () => {
    const [template, slots] = await Promise.all([templatesApi.get(id), templatesApi.slots(id)]);
    return { template, slots };
  }, [id]);
  useTitle(loaded.data ? text.dispatchTitle(loaded.data.template.name) : text.send);
  return (
    <div className="ws-page">
      <p>
        <Link to="/templates">{text.backToTemplates}</Link>
      </p>
      <h1>{loaded.data ? text.dispatchTitle(loaded.data.template.name) : text.send}</h1>
      {loaded.error ? <ApiErrorText error={loaded.error} /> : null}
      {!loaded.data && !loaded.error && <Skeleton shape="form" label={text.loading} withHeading={false} />}
      {loaded.data && <DispatchForm template={loaded.data.template} slots={loaded.data.slots} />}
    </div>
  );
}

type Entry = { name: string; email: string };

function DispatchForm({ template, slots }: { template: Template; slots: Slot[] }) {
  const [entries, setEntries] = useState<Entry[]>(() =>
    slots.map((s) => (s.label ? { name: '', email: '' } : { name: s.name, email: s.emailAddress })),
  );
  const [busy, setBusy] = useState<'dispatch' | 'apply' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  // Sending now needs a verified address; making a draft does not.
  const address = useEmailVerified();
  const unverified = address.verified === false;
  const set = (index: number, key: keyof Entry, value: string) => {
    setEntries((all) => all.map((e, i) => (i === index ? { ...e, [key]: value } : e)));
    setLocal((l) => ({ ...l, [`${slots[index].order}.${key === 'email' ? 'emailAddress' : 'name'}`]: '' }));
    setError(null);
  };

  /** Client checks first (the same rules the API applies), keyed "<order>.name" / "<order>.emailAddress". */
  function check(): Record<string, string> {
    const problems: Record<string, string> = {};
    slots.forEach((slot, i) => {
      const entry = entries[i];
      const changed = slot.label || entry.name.trim() !== slot.name || entry.email.trim() !== slot.emailAddress;
      if (!changed) return;
      const name = entry.name.trim().replace(/\s+/g, ' ');
      if (name.length < 3 || name.length > 50 || !isPersonName(name))
        problems[`${slot.order}.name`] = text.nameRuleError;
      if (!EMAIL.test(entry.email.trim()) || entry.email.trim().length > 255)
        problems[`${slot.order}.emailAddress`] = text.emailRuleError;
    });
    return problems;
  }

  function overrides(): Override[] {
    return slots.flatMap((slot, i) => {
      const entry = entries[i];
      if (!slot.label && entry.name.trim() === slot.name && entry.email.trim() === slot.emailAddress) return [];
      return [
        { recipientIndex: slot.order, name: entry.name.trim().replace(/\s+/g, ' '), emailAddress: entry.email.trim() },
      ];
    });
  }

  async function submit(mode: 'dispatch' | 'apply') {
    const problems = check();
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    setBusy(mode);
    setError(null);
    try {
      const created =
        mode === 'dispatch'
          ? await templatesApi.dispatch(template.id, overrides())
          : await templatesApi.apply(template.id, overrides());
      navigate(mode === 'dispatch' ? `/envelopes/${created.id}` : `/envelopes/${created.id}/edit`);
    } catch (failure) {
      setError(failure);
      setBusy(null);
    }
  }

  // A refusal naming one recipient's field is shown there; any other in the form's error line.
  const named =
    error instanceof ApiError
      ? (error.responseBody as { recipientIndex?: number; field?: string } | undefined)
      : undefined;
  const namedKey = named?.recipientIndex
    ? `${named.recipientIndex}.${named.field === 'emailAddress' ? 'emailAddress' : 'name'}`
    : null;
  const issues = { ...local, ...(namedKey && error instanceof ApiError ? { [namedKey]: error.message } : {}) };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void submit('dispatch');
      }}
      noValidate
    >
      <p>{text.dispatchIntro}</p>
      {template.description && <p className="ws-muted">{template.description}</p>}
      {slots.map((slot, i) => (
        <fieldset key={slot.id} className="st-fieldset tp-slot">
          <legend>{text.recipientLegend(slot.order, text.roles[slot.role] ?? slot.role, slot.label)}</legend>
          {slot.label && <p className="tp-placeholder">{text.placeholder}</p>}
          <div className="tp-slot-fields">
            <TextField
              label={text.recipientName}
              value={entries[i].name}
              onChange={(v) => set(i, 'name', v)}
              required={Boolean(slot.label)}
              autoComplete="off"
              maxLength={50}
              hint={text.recipientNameRule}
              error={issues[`${slot.order}.name`]}
            />
            <TextField
              label={text.recipientEmail}
              type="email"
              value={entries[i].email}
              onChange={(v) => set(i, 'email', v)}
              required={Boolean(slot.label)}
              autoComplete="off"
              maxLength={255}
              error={issues[`${slot.order}.emailAddress`]}
            />
          </div>
        </fieldset>
      ))}
      {error && !namedKey ? <ApiErrorText error={error} /> : null}
      {error && namedKey ? (
        <p role="alert" className="visually-hidden">
          {(error as Error).message}
        </p>
      ) : null}
      {unverified && <VerifyToSend email={address.email} recheck={address.recheck} />}
      <div className="ws-actions">
        <button
          type="submit"
          className="ws-button ws-button--primary"
          disabled={busy !== null || unverified}
          aria-describedby={unverified ? 'verify-to-send-heading' : undefined}
        >
          {busy === 'dispatch' ? text.sending : text.sendNow}
        </button>
        <button type="button" className="ws-button" disabled={busy !== null} onClick={() => void submit('apply')}>
          {busy === 'apply' ? text.saving : text.makeDraft}
        </button>
      </div>
    </form>
  );
}
