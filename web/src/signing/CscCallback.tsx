import { useEffect, useState } from 'react';
import { t } from '../i18n/signing/index.ts';

/** Where the signing page keeps the address to come back to before it sends the signer to the CSC provider. */
export const CSC_RETURN_KEY = 'csc:return-to';
/** Where this page leaves the provider's answer ({code, state} or {error}) for the signing page. */
export const CSC_RESULT_KEY = 'csc:result';

/**
 * $PUBLIC_URL/csc/callback: the CSC provider's redirect after the signer authorized a signature. Hands the
 * authorization code back to the signing page of this tab and returns there, where CscReturn (RemoteSigning.tsx)
 * reads CSC_RESULT_KEY and completes the signature.
 */
export function CscCallback() {
  const [lost, setLost] = useState(false);
  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    const returnTo = sessionStorage.getItem(CSC_RETURN_KEY);
    sessionStorage.setItem(
      CSC_RESULT_KEY,
      JSON.stringify({ code: query.get('code'), state: query.get('state'), error: query.get('error') }),
    );
    if (returnTo?.startsWith('/sign/')) window.location.replace(returnTo);
    else setLost(true);
  }, []);
  return (
    <main id="main" className="message">
      <h1>{t.appName}</h1>
      <p role="status">{lost ? t.cscNoSession : t.cscReturning}</p>
    </main>
  );
}
