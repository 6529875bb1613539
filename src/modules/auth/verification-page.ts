import { WEB_PAGE_HEADERS, webShellWithNotice } from '../webapp/webapp-shell.ts';

/** HTML when the browser names it; JSON for API clients and anything else. */
export function wantsHtml(accept: string | undefined): boolean {
  return (accept ?? '').toLowerCase().includes('text/html');
}

function page(title: string, text: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">' +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>` +
    '<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}</style>' +
    `</head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`
  );
}

const NOTICES = {
  confirm: {
    title: 'Confirm your email address',
    text: 'Confirming needs JavaScript: open this link in a browser with JavaScript on and press "Confirm my address".',
  },
  verified: {
    title: 'Email address confirmed',
    text: 'Thank you. Documents sent to this address now also appear in your account. You can close this page.',
  },
  expired: {
    title: 'This link has expired',
    text: 'This confirmation link is not valid any more. Sign in and ask for a new one, or use the link of the most recent mail.',
  },
};

/**
 * What a browser gets from the mailed verification link: the web app's page (web/src/workspace/VerifyEmailPage.tsx,
 * which confirms with POST /auth/v1/verify-email once the person presses its button, and offers a signed-in user a
 * new link), with the state of the code as its <noscript> text; the small static page below when the web app has not
 * been built.
 */
export function verificationResponse(state: 'confirm' | 'verified' | 'expired'): {
  headers: Record<string, string>;
  html: string;
} {
  const shell = webShellWithNotice(NOTICES[state]);
  if (shell !== null) return { headers: WEB_PAGE_HEADERS, html: shell };
  return { headers: verificationPage.headers, html: verificationPage.render(state) };
}

export const verificationPage = {
  headers: {
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'x-robots-tag': 'noindex',
  },
  render(state: 'confirm' | 'verified' | 'expired'): string {
    const notice = NOTICES[state];
    return page(notice.title, notice.text);
  },
};
