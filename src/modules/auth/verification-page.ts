/** The small page a browser gets from the mailed verification link (no script, nothing loaded from elsewhere). */

/** HTML when the browser names it; JSON for API clients and anything else. */
export function wantsHtml(accept: string | undefined): boolean {
  return (accept ?? '').toLowerCase().includes('text/html');
}

function page(title: string, text: string): string {
  return '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">'
    + `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>`
    + '<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}</style>'
    + `</head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;
}

export const verificationPage = {
  headers: {
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'x-robots-tag': 'noindex',
  },
  render(verified: boolean): string {
    return verified
      ? page('Email address confirmed', 'Thank you. Documents sent to this address now also appear in your account. You can close this page.')
      : page('This link has expired', 'This confirmation link is not valid any more. Sign in and ask for a new one, or use the link of the most recent mail.');
  },
};
