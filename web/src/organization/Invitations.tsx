/** Invitations addressed to the signed-in user (from any organization), accepted or declined in place. */
import { useState } from 'react';
import { formatDateTime } from '../workspace/ui.tsx';
import { ApiErrorText, StatusLine, useResource } from './kit.tsx';
import { orgText as text } from '../i18n/organization/index.ts';
import { orgApi, type Invitation } from './org-api.ts';

export function Invitations() {
  const invitations = useResource(() => orgApi.myInvitations(), []);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const pending = (invitations.data ?? []).filter((i) => i.status === 'INVITED');

  async function answer(invitation: Invitation, status: 'ACCEPTED' | 'DECLINED') {
    setBusy(invitation.orgName);
    setError(null);
    try {
      await orgApi.answerInvitation(invitation, status);
      setDone(
        status === 'ACCEPTED'
          ? text.invitationAccepted(invitation.orgName)
          : text.invitationDeclined(invitation.orgName),
      );
      invitations.reload();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  }

  if (pending.length === 0 && !done && !error) return null;
  return (
    <section className="ws-card st-invitations" aria-labelledby="st-invitations-title">
      <h2 id="st-invitations-title">{text.invitationsTitle}</h2>
      <ul className="ws-list-plain">
        {pending.map((invitation) => (
          <li key={invitation.organizationId}>
            <p>
              {text.invitationLine(
                invitation.orgName,
                invitation.invitedBy,
                invitation.roleName,
                invitation.invitedByEmail,
              )}
            </p>
            {invitation.expiresAt && (
              <p className="ws-muted">{text.invitationExpires(formatDateTime(invitation.expiresAt))}</p>
            )}
            <div className="ws-actions">
              <button
                type="button"
                className="ws-button ws-button--primary"
                disabled={busy !== null}
                onClick={() => answer(invitation, 'ACCEPTED')}
              >
                {text.acceptInvitation(invitation.orgName)}
              </button>
              <button
                type="button"
                className="ws-button"
                disabled={busy !== null}
                onClick={() => answer(invitation, 'DECLINED')}
              >
                {text.declineInvitation(invitation.orgName)}
              </button>
            </div>
          </li>
        ))}
      </ul>
      {error ? <ApiErrorText error={error} /> : null}
      <StatusLine message={done} />
    </section>
  );
}
