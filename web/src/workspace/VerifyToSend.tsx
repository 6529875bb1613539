/**
 * Where a sender would send to others: an account whose address is not verified cannot (the service answers 403
 * EMAIL_NOT_VERIFIED), so the page says so before Send is pressed, offers a new link, and keeps Send off until the
 * address is confirmed. Reads the profile's emailVerified; a verified account sees nothing.
 */
import { useCallback, useEffect, useState } from 'react';
import { api, ApiError } from './session-api.ts';
import { sendVerifyText as text } from '../i18n/workspace/index.ts';

type Profile = { email: string; emailVerified: boolean };

/** null while unknown (the page keeps Send as it is until the answer), then whether the address is verified. */
export function useEmailVerified(): { verified: boolean | null; email: string; recheck(): void } {
  const [profile, setProfile] = useState<Profile | null>(null);
  const load = useCallback(() => {
    api.get<Profile>('/user/v1/settings/profile').then(setProfile, () => setProfile(null));
  }, []);
  useEffect(load, [load]);
  return { verified: profile ? profile.emailVerified : null, email: profile?.email ?? '', recheck: load };
}

export function VerifyToSend({ email, recheck }: { email: string; recheck(): void }) {
  const [state, setState] = useState<{ busy: boolean; message: string | null }>({ busy: false, message: null });
  async function resend() {
    setState({ busy: true, message: null });
    try {
      const answer = await api.post<{ verified: boolean; mailed: boolean }>('/auth/v1/verify-email/resend');
      setState({ busy: false, message: answer.verified ? text.alreadyVerified : text.resent(email) });
      if (answer.verified) recheck();
    } catch (failure) {
      const limited = failure instanceof ApiError && failure.code === 'OPERATION_IS_NOT_ALLOWED';
      setState({
        busy: false,
        message: limited ? text.resendLimited : failure instanceof Error ? failure.message : String(failure),
      });
    }
  }
  return (
    <section className="ws-card ed-warning" aria-labelledby="verify-to-send-heading">
      <h3 id="verify-to-send-heading">{text.heading}</h3>
      <p>{text.body(email)}</p>
      <button type="button" className="ws-button ws-button--small" disabled={state.busy} onClick={() => void resend()}>
        {state.busy ? text.resending : text.resend}
      </button>
      {state.message && <p role="status">{state.message}</p>}
    </section>
  );
}
