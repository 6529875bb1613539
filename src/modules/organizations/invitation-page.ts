import { escapeHtml } from '../../platform/html.ts';
import { PERSON_NAME_PATTERN } from '../users/person-names.ts';

/** The small pages behind the mailed invitation link (no script, nothing loaded from elsewhere; the form posts to the same address). */

export const invitationPageHeaders = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
  'x-robots-tag': 'noindex',
};

function page(title: string, body: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">' +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>` +
    '<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}label{display:block;margin:1rem 0 .25rem}input{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}button{font:inherit;margin-top:1rem;padding:.5rem 1rem}</style>' +
    `</head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`
  );
}

export function invitationFormPage(input: { orgName: string; name: string; emailAddress: string }): string {
  return page(
    `Join ${input.orgName}`,
    `<p>Create your account for <strong>${escapeHtml(input.emailAddress)}</strong>; you will be a member of ${escapeHtml(input.orgName)} at once.</p>` +
      '<form method="post">' +
      `<label for="name">Your name</label><input id="name" name="name" required minlength="3" maxlength="20" pattern="${escapeHtml(PERSON_NAME_PATTERN)}" value="${escapeHtml(input.name)}" autocomplete="name">` +
      '<label for="password">Password (at least 8 characters)</label><input id="password" name="password" type="password" required minlength="8" maxlength="128" autocomplete="new-password">' +
      '<button type="submit">Create account and join</button></form>',
  );
}

export function invitationDonePage(orgName: string, publicUrl: string): string {
  return page(
    'Welcome',
    `<p>Your account is ready and you are a member of ${escapeHtml(orgName)}.</p><p><a href="${escapeHtml(publicUrl)}/">Sign in</a></p>`,
  );
}

export function invitationErrorPage(description: string): string {
  return page(
    'This invitation cannot be used',
    `<p>${escapeHtml(description)}</p><p>Ask the organization's owner to invite you again.</p>`,
  );
}
