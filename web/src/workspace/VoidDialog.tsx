/**
 * Voiding a sent envelope behind a confirmation that asks for the reason: the owner's "Void envelope" (POST void,
 * the reason mailed to the recipients, up to 500 characters) or a recipient's "Decline and void" (POST decline, up
 * to 1000). Shared by the envelope page and the dashboard's row menu.
 */
import { useEffect, useId, useState } from 'react';
import { envelopeText as text } from '../i18n/workspace/index.ts';
import { api } from './session-api.ts';
import { ConfirmDialog } from './ui.tsx';

export type VoidKind = 'cancel' | 'decline';

export function VoidDialog({
  workflowId,
  kind,
  envelopeName,
  onClose,
  onDone,
  onFailed,
}: {
  workflowId: number;
  /** Which dialog is open; null: none. */
  kind: VoidKind | null;
  /** Named in the title when the dialog is opened away from the envelope's own page. */
  envelopeName?: string;
  onClose: () => void;
  onDone: (message: string) => void;
  onFailed: (error: unknown) => void;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (kind === null) return;
    setReason('');
    setReasonError(null);
  }, [kind]);

  async function confirm() {
    if (!reason.trim()) {
      setReasonError(text.voidReasonRequired);
      return;
    }
    setBusy(true);
    try {
      await api.post(`/workflow/v1/${workflowId}/${kind === 'cancel' ? 'void' : 'decline'}`, { reason: reason.trim() });
      onClose();
      onDone(text.voided);
    } catch (failure) {
      onClose();
      onFailed(failure);
    } finally {
      setBusy(false);
    }
  }
  const cancel = kind === 'cancel';
  const title = cancel ? text.cancelEnvelopeTitle : text.voidTitle;
  return (
    <ConfirmDialog
      open={kind !== null}
      // The name goes before the question mark, keeping the language's own spacing (French writes « … ? »).
      title={envelopeName ? title.replace(/(\s*\?)$/, `: ${envelopeName}$1`) : title}
      confirmLabel={cancel ? text.cancelEnvelope : text.void}
      cancelLabel={text.cancel}
      danger
      busy={busy}
      onConfirm={confirm}
      onCancel={onClose}
    >
      <p>{cancel ? text.cancelEnvelopeText : text.voidText}</p>
      <div className="ws-form">
        <label htmlFor={`${id}-reason`}>{cancel ? text.cancelEnvelopeReason : text.voidReason}</label>
        <textarea
          id={`${id}-reason`}
          rows={3}
          maxLength={cancel ? 500 : 1000}
          value={reason}
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={reasonError ? `${id}-reason-error` : undefined}
          onChange={(event) => {
            setReason(event.target.value);
            if (reasonError && event.target.value.trim()) setReasonError(null);
          }}
        />
        {reasonError && (
          <p id={`${id}-reason-error`} className="ws-field-error" role="alert">
            {reasonError}
          </p>
        )}
      </div>
    </ConfirmDialog>
  );
}
