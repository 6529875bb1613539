import { useEffect, useState } from 'react';
import { t } from '../i18n/signing/index.ts';

/** The message the page posts to the window that opened it. */
export type SsoCallbackMessage = {
  type: 'sso-callback';
  code: string | null;
  state: string | null;
  error: string | null;
};

/**
 * $PUBLIC_URL/auth/sso/callback: where GET /auth/v1/signin without a redirectUri returns (RUNTIME.md "Request shapes"). It
 * hands code and state to the window that opened it, as /csc/callback does for remote signing, and only to a window of
 * this origin: the code signs in whoever exchanges it, so another site that opened the sign-in must not receive it. A
 * native client reads code and state from the redirect itself; this page then only says to return to it.
 */
export function SsoCallback() {
  const [outcome, setOutcome] = useState<'handed' | 'alone' | null>(null);
  // Read once, as the page loads: the address bar loses the query right after.
  const [message] = useState<SsoCallbackMessage>(() => {
    const query = new URLSearchParams(window.location.search);
    return { type: 'sso-callback', code: query.get('code'), state: query.get('state'), error: query.get('error') };
  });
  const error = message.error;
  useEffect(() => {
    // The code is not kept in this tab's history once it is handed on.
    window.history.replaceState(null, '', window.location.pathname);
    const opener = openerOfThisOrigin();
    if (opener) {
      opener.postMessage(message, window.location.origin);
      setOutcome('handed');
      window.close();
    } else {
      setOutcome('alone');
    }
  }, [message]);
  const text = error ? t.ssoFailed(error) : outcome === 'handed' ? t.ssoHandedBack : t.ssoReturnToApp;
  return (
    <main id="main" className="message">
      <h1>{t.ssoTitle}</h1>
      <p role="status">{outcome === null ? '' : text}</p>
    </main>
  );
}

/** The window that opened this one when it is of this origin; reading another origin's location throws. */
function openerOfThisOrigin(): Window | null {
  const opener = window.opener as Window | null;
  try {
    return opener && !opener.closed && opener.location.origin === window.location.origin ? opener : null;
  } catch {
    return null;
  }
}
