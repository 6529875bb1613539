/**
 * The last step of a draft made for a template (New template): name it, say which recipients are placeholders, save
 * it as a template (POST /organization/v1/templates copies the draft's documents, recipients and fields), then
 * delete the draft, which was only the template's workbench, and go to the templates list.
 */
import { useId, useState, type FormEvent } from 'react';
import { slotOrder, templatesApi } from '../templates/templates-api.ts';
import { navigate } from '../workspace/router.tsx';
import { api } from '../workspace/session-api.ts';
import { errorText } from './editor-api.ts';
import { editorText as text } from '../i18n/editor/index.ts';
import type { Recipient } from './types.ts';

const NAME_MAX = 50;

export function SaveTemplateStep({
  workflowId,
  name,
  recipients,
  flush,
  goToRecipients,
}: {
  workflowId: number;
  name: string;
  recipients: Recipient[];
  flush: () => Promise<void>;
  goToRecipients: () => void;
}) {
  const id = useId();
  const slots = slotOrder(recipients);
  const [templateName, setTemplateName] = useState(name.slice(0, NAME_MAX));
  const [description, setDescription] = useState('');
  const [labels, setLabels] = useState<Record<number, string>>({});
  const [nameError, setNameError] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!templateName.trim()) {
      setNameError(text.templateNameRequired);
      document.getElementById(`${id}-name`)?.focus();
      return;
    }
    setSaving(true);
    setSaveError(null);
    try {
      await flush();
      const template = await templatesApi.create({
        name: templateName.trim(),
        description: description.trim(),
        workflowId,
        folderId: null,
        recipientLabels: slots
          .map((r, i) => ({ order: i + 1, label: (labels[r.id] ?? '').trim() }))
          .filter((l) => l.label),
        reminderEnabled: false,
        reminderIntervalDays: null,
      });
      // The template holds its own copy; the draft would otherwise sit in the documents list as an envelope.
      await api.delete(`/document/v1/${workflowId}`).catch(() => undefined);
      navigate(`/templates?created=${encodeURIComponent(template.name)}`);
    } catch (error) {
      setSaveError(errorText(error));
      setSaving(false);
    }
  }

  return (
    <form className="ed-send" onSubmit={save} aria-labelledby="ed-step-heading" noValidate>
      <section className="ws-card" aria-labelledby={`${id}-about`}>
        <h3 id={`${id}-about`}>{text.templateHeading}</h3>
        <p className="ws-muted">{text.templateIntro}</p>
        <label htmlFor={`${id}-name`}>{text.templateName}</label>
        <input
          id={`${id}-name`}
          type="text"
          required
          maxLength={NAME_MAX}
          value={templateName}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={`${id}-name-hint${nameError ? ` ${id}-name-error` : ''}`}
          onChange={(e) => {
            setTemplateName(e.target.value);
            if (nameError && e.target.value.trim()) setNameError(null);
          }}
        />
        <p className="hint" id={`${id}-name-hint`}>
          {text.templateNameHint}
        </p>
        {nameError && (
          <p id={`${id}-name-error`} className="ws-field-error">
            {nameError}
          </p>
        )}
        <label htmlFor={`${id}-description`}>{text.templateDescription}</label>
        <textarea
          id={`${id}-description`}
          rows={2}
          maxLength={500}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </section>
      <fieldset className="ws-card">
        <legend>{text.placeholdersLegend}</legend>
        <p className="ws-muted">{text.placeholdersHint}</p>
        {slots.length === 0 && (
          <p className="ws-field-error">
            {text.templateNeedsRecipient}{' '}
            <button type="button" className="ws-link-button" onClick={goToRecipients}>
              {text.goToRecipients}
            </button>
          </p>
        )}
        {slots.map((r, i) => (
          <div key={r.id} className="ed-placeholder">
            <label htmlFor={`${id}-slot-${r.id}`}>
              {text.placeholderLabel(i + 1, r.name, text.roles[r.recipientRole] ?? r.recipientRole)}
            </label>
            <input
              id={`${id}-slot-${r.id}`}
              type="text"
              maxLength={50}
              value={labels[r.id] ?? ''}
              onChange={(e) => setLabels((all) => ({ ...all, [r.id]: e.target.value }))}
            />
          </div>
        ))}
      </fieldset>
      <div className="ws-actions">
        <button
          type="submit"
          className="ws-button ws-button--primary"
          disabled={saving || slots.length === 0}
          aria-describedby={saveError ? `${id}-save-error` : undefined}
        >
          {saving ? text.savingTemplate : text.saveTemplate}
        </button>
      </div>
      {saveError && (
        <p id={`${id}-save-error`} className="ws-field-error" role="alert">
          {saveError}
        </p>
      )}
    </form>
  );
}
