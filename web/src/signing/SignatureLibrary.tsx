import { useEffect, useState } from 'react';
import type { Mark } from '../i18n/signing/en.ts';
import { t } from '../i18n/signing/index.ts';
import type { LibraryEntry, Recipient } from './types.ts';

/**
 * The signature library of the person signing, when they are signed in to the service in this browser as the
 * recipient: the web session's cookie (never the signing link's token) reads `/bff/auth/me` and the library,
 * so a forwarded signing link shows nobody's saved signatures. Null when there is no such session (or it is
 * someone else's); the page then offers drawing and typing only, and a way to sign in.
 */
export function useSignatureLibrary(me: Recipient, enabled: boolean): LibraryEntry[] | null {
  const [entries, setEntries] = useState<LibraryEntry[] | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    (async () => {
      const session = await fetch('/bff/auth/me', {
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
        cache: 'no-store',
      });
      if (!session.ok) return;
      const identity = (await session.json()) as { email: string };
      if (identity.email.trim().toLowerCase() !== me.emailAddress.trim().toLowerCase()) return;
      const library = await fetch('/user/v1/settings/signatures/library', {
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
        cache: 'no-store',
      });
      if (!library.ok) return;
      const list = (await library.json()) as LibraryEntry[];
      if (!cancelled) setEntries(list);
    })().catch(() => {
      // The library is a convenience: without it the signer draws or types.
    });
    return () => {
      cancelled = true;
    };
  }, [enabled, me.emailAddress]);
  return entries;
}

/** The saved entries of one kind, each adoptable with one button (its image and name shown). */
export function LibraryChoices({
  entries,
  kind,
  onChoose,
}: {
  entries: LibraryEntry[];
  kind: Mark;
  onChoose(entry: LibraryEntry): void;
}) {
  if (entries.length === 0) return null;
  const headingId = `library-${kind}`;
  return (
    <section className="library" aria-labelledby={headingId}>
      <h3 id={headingId}>{t.libraryHeading(kind)}</h3>
      <ul className="library-entries">
        {entries.map((entry) => (
          <li key={entry.id}>
            <img src={entry.image} alt={t.libraryImageAlt(entry.name)} className="signature-preview" />
            <button type="button" className="secondary" onClick={() => onChoose(entry)}>
              {t.libraryUse(entry.name)}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Where a signer who is not signed in goes to use their saved signatures: sign-in, then back to this page. */
export function librarySignInHref(): string {
  return `/bff/auth/authorize?returnTo=${encodeURIComponent(window.location.pathname)}`;
}
