/**
 * /verify-email/:code, the mailed confirmation link: confirms with POST /auth/v1/verify-email when the person presses
 * "Confirm my address" (the service's GET of the link uses nothing: mail scanners open every link, and must not confirm
 * an address someone else signed up with; confirming twice answers the same). An expired link offers a signed-in user
 * a new one (POST /auth/v1/verify-email/resend); a signed-out one signs in and comes back here.
 */
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../shared/api.ts';
import { verifyText as text } from '../i18n/workspace/index.ts';
import type { PageProps } from './routes.tsx';
import { peekMe, publicRequest, signInUrl, type Me } from './session-api.ts';
import { Link } from './router.tsx';
import { useTitle } from './ui.tsx';

type Outcome = 'ready' | 'checking' | 'verified' | 'expired' | 'failed';

export function VerifyEmailPage({ params }: PageProps) {
  const [outcome, setOutcome] = useState<Outcome>('ready');
  const [me, setMe] = useState<Me | null>(null);
  const [resend, setResend] = useState<{ busy: boolean; message: string | null; error: boolean }>({
    busy: false,
    message: null,
    error: false,
  });
  const heading = useRef<HTMLHeadingElement>(null);
  useTitle(outcome === 'verified' ? text.verifiedTitle : outcome === 'expired' ? text.expiredTitle : text.title);

  useEffect(() => {
    let live = true;
    peekMe().then((found) => live && setMe(found));
    return () => {
      live = false;
    };
  }, [params.code]);
  useEffect(() => {
    if (outcome !== 'checking' && outcome !== 'ready') heading.current?.focus();
  }, [outcome]);

  async function confirm() {
    setOutcome('checking');
    try {
      await publicRequest('POST', '/auth/v1/verify-email', { code: params.code });
      setOutcome('verified');
    } catch (failure) {
      setOutcome(failure instanceof ApiError && failure.status === 400 ? 'expired' : 'failed');
    }
  }

  async function sendAgain() {
    if (!me) return;
    setResend({ busy: true, message: null, error: false });
    try {
      const answer = await publicRequest<{ verified: boolean; mailed: boolean }>(
        'POST',
        '/auth/v1/verify-email/resend',
        undefined,
        me.csrfToken,
      );
      setResend({ busy: false, message: answer.verified ? text.alreadyVerified : text.resent(me.email), error: false });
    } catch (failure) {
      const limited = failure instanceof ApiError && failure.code === 'OPERATION_IS_NOT_ALLOWED';
      setResend({
        busy: false,
        message: limited ? text.resendLimited : failure instanceof Error ? failure.message : String(failure),
        error: true,
      });
    }
  }

  if (outcome === 'ready') {
    return (
      <div className="ws-page">
        <h1>{text.title}</h1>
        <p>{text.confirmText}</p>
        <div className="ws-actions">
          <button type="button" className="ws-button ws-button--primary" onClick={() => void confirm()}>
            {text.confirm}
          </button>
        </div>
      </div>
    );
  }
  if (outcome === 'checking') {
    return (
      <div className="ws-page">
        <h1>{text.title}</h1>
        <p role="status">{text.checking}</p>
      </div>
    );
  }
  if (outcome === 'verified') {
    return (
      <div className="ws-page">
        <h1 ref={heading} tabIndex={-1}>
          {text.verifiedTitle}
        </h1>
        <p>{text.verifiedText}</p>
        <p>
          {me ? (
            <Link to="/" className="ws-button ws-button--primary">
              {text.goToDocuments}
            </Link>
          ) : (
            <a href={signInUrl('/')} className="ws-button ws-button--primary">
              {text.goToDocuments}
            </a>
          )}
        </p>
      </div>
    );
  }
  return (
    <div className="ws-page">
      <h1 ref={heading} tabIndex={-1}>
        {outcome === 'expired' ? text.expiredTitle : text.title}
      </h1>
      <p>{outcome === 'expired' ? text.expiredText : text.failed}</p>
      {outcome === 'expired' &&
        (me ? (
          <div className="ws-actions">
            <button type="button" className="ws-button ws-button--primary" onClick={sendAgain} disabled={resend.busy}>
              {resend.busy ? text.resending : text.resend}
            </button>
          </div>
        ) : (
          <p>
            <a href={signInUrl()} className="ws-button ws-button--primary">
              {text.signInToResend}
            </a>
          </p>
        ))}
      <div role="status">
        {resend.message && <p className={resend.error ? 'ws-field-error' : 'ws-success'}>{resend.message}</p>}
      </div>
    </div>
  );
}
