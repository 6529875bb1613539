import { useId, useState } from 'react';
import { formattingLocale } from '../i18n/language.ts';
import { t } from '../i18n/signing/index.ts';
import { ApiError, type Api } from '../shared/api.ts';
import { fieldLabel } from './field-rules.ts';
import type { Comment, Field } from './types.ts';

/** The workflow's comments, visible to every participant, and a form to add one (about the current field when there is one). */
export function Comments({
  api,
  workflowId,
  comments,
  fields,
  currentField,
  readOnly,
  onAdded,
}: {
  api: Api;
  workflowId: number;
  comments: Comment[];
  fields: Field[];
  currentField: Field | null;
  readOnly: boolean;
  onAdded(comment: Comment): void;
}) {
  const [body, setBody] = useState('');
  const [aboutField, setAboutField] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  const labelOf = (fieldId: number | null) => {
    const field = fields.find((f) => f.id === fieldId);
    return field ? fieldLabel(field) : null;
  };
  return (
    <section className="comments" aria-labelledby="comments-heading">
      <h2 id="comments-heading">{t.commentsHeading}</h2>
      {comments.length === 0 ? (
        <p className="hint">{t.commentsEmpty}</p>
      ) : (
        <ul className="comment-list">
          {comments.map((comment) => {
            const about = labelOf(comment.fieldId);
            return (
              <li key={comment.id}>
                <p className="comment-meta">
                  {t.commentBy(comment.authorName, new Date(comment.createdAt).toLocaleString(formattingLocale()))}
                  {about ? ` · ${t.commentAboutField(about)}` : ''}
                </p>
                <p className="comment-body">{comment.body}</p>
              </li>
            );
          })}
        </ul>
      )}
      {!readOnly && (
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            if (!body.trim()) return setError(t.commentEmpty);
            setBusy(true);
            try {
              const fieldId = currentField && aboutField ? currentField.id : null;
              onAdded(await api.post<Comment>(`/workflow/v1/${workflowId}/comments`, { body: body.trim(), fieldId }));
              setBody('');
              setError(null);
            } catch (failure) {
              setError(failure instanceof ApiError ? failure.message : t.genericErrorText);
            } finally {
              setBusy(false);
            }
          }}
        >
          <label className="stacked" htmlFor="comment-body">
            {t.commentLabel}
          </label>
          <textarea
            id="comment-body"
            rows={2}
            maxLength={3000}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
          {currentField && (
            <label className="checkbox">
              <input type="checkbox" checked={aboutField} onChange={(e) => setAboutField(e.target.checked)} />{' '}
              {t.commentOnField(fieldLabel(currentField))}
            </label>
          )}
          {error && (
            <p className="error" id={errorId} role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="secondary" disabled={busy}>
            {t.commentSend}
          </button>
        </form>
      )}
    </section>
  );
}
