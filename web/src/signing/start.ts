/**
 * The signing page's first requests, started by main.tsx as soon as the app's first script runs: the link's
 * redemption, the workflow's reads and the first document's bytes. They run while the browser is still fetching
 * and compiling the signing page's own chunk (with the PDF engine), instead of after it: on a long document that
 * is the difference between the first page in about one second and in two (test/e2e/signing-page.test.ts).
 * Nothing here imports pdf.js, so it stays in the small first chunk.
 */
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { Api, loadSession, type GuestSession } from '../shared/api.ts';
import type { Comment, Disclosure, DocumentItem, Field, Overview, Recipient } from './types.ts';
import { currentLanguage } from '../i18n/language.ts';

export type Loaded = {
  session: GuestSession;
  overview: Overview;
  documents: DocumentItem[];
  recipients: Recipient[];
  fields: Field[];
  comments: Comment[];
  disclosure: Disclosure;
};

export type SigningStart = {
  api: Api;
  /** The guest session: the one this tab stored, or a fresh redemption of the code. */
  session: Promise<GuestSession>;
  /** The workflow's reads with that session (rejects with IDENTITY_NOT_VERIFIED while a recipient password is owed). */
  loaded: Promise<Loaded>;
};

let started: { code: string; start: SigningStart } | null = null;

/**
 * Starts (once per code and page load) what the page needs. Redeemed by the page's script, never by the server
 * answering the link: a mail scanner that fetches the link runs no script, so it neither opens the envelope nor
 * records Opened.
 */
export function startSigning(code: string): SigningStart {
  if (started?.code === code) return started.start;
  const api = new Api();
  const stored = loadSession(code);
  const session = (stored ? Promise.resolve(stored) : api.redeem(code)).then((s) => {
    api.token = s.accessToken;
    return s;
  });
  // The first page's picture is asked for with the session, in parallel with the reads (it does not need them).
  const loaded = session.then((s) => {
    fetchFirstPicture(s.workflowId, s.accessToken);
    return loadAll(api, s);
  });
  // Whoever reads these handles their failure; an unread rejection must not reach the console as unhandled.
  loaded.catch(() => {});
  const start = { api, session, loaded };
  started = { code, start };
  return start;
}

/** The disclosure in the page's language (the service answers English for a language it does not have). */
export function disclosurePath(language: string): string {
  return `/workflow/v1/signing/disclosure?lang=${encodeURIComponent(language)}`;
}

export async function loadAll(api: Api, session: GuestSession): Promise<Loaded> {
  const id = session.workflowId;
  const [overview, documents, recipients, fields, comments, disclosure] = await Promise.all([
    api.get<Overview>(`/workflow/v1/${id}/signing/overview`),
    // The first document's bytes start downloading as soon as its id is known (its first page is what the signer waits for).
    api.get<DocumentItem[]>(`/document/v1/docs-detail/${id}`).then((list) => {
      const first = list.slice().sort((a, b) => a.position - b.position)[0];
      if (first) fetchDocument(documentUrl(id, first.id), api.token).catch(() => {});
      return list;
    }),
    api.get<Recipient[]>(`/workflow/v1/${id}/recipients`),
    api.get<Field[]>(`/workflow/v1/${id}/all-fields`),
    api.get<Comment[]>(`/workflow/v1/${id}/comments`),
    api.get<Disclosure>(disclosurePath(currentLanguage())),
  ]);
  return {
    session,
    overview,
    documents: documents.slice().sort((a, b) => a.position - b.position),
    recipients,
    fields,
    comments,
    disclosure,
  };
}

/** A picture of a page (an object URL) and the page's size in points. */
export type PagePicture = { url: string; width: number; height: number };

let picture: Promise<(PagePicture & { documentId: number }) | null> = Promise.resolve(null);

/**
 * The server's picture of the first page of the workflow's first document (GET /document/v1/page-image, a JPEG
 * drawn on the first ask and stored), shown until pdf.js has drawn the page itself: pdf.js and its worker take about
 * a second to load and compile on a modest machine, the picture tens of milliseconds to draw once and a few to read
 * after. Null when it cannot be had, which only means the page waits for pdf.js.
 */
function fetchFirstPicture(workflowId: number, token: string): void {
  // The document column is narrower than the window on a desktop; the stored picture is 800 pixels wide.
  const wanted = Math.min(800, Math.round(window.innerWidth * (window.devicePixelRatio || 1)));
  picture = (async () => {
    try {
      const response = await fetch(`/document/v1/page-image/${workflowId}?page=1&width=${wanted}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const documentId = Number(response.headers.get('x-document-id'));
      // The page in points: the space the fields' boxes are in (the picture's pixels are not).
      const width = Number(response.headers.get('x-page-width'));
      const height = Number(response.headers.get('x-page-height'));
      if (!response.ok || !documentId || !(width > 0) || !(height > 0)) return null;
      const url = URL.createObjectURL(await response.blob());
      const image = new Image();
      image.src = url;
      await image.decode();
      return { documentId, url, width, height };
    } catch {
      return null;
    }
  })();
}

/** The first page's picture of a document, when it is the one start.ts asked for. */
export async function firstPicture(documentId: number): Promise<PagePicture | null> {
  const found = await picture;
  return found?.documentId === documentId ? found : null;
}

let worker: Worker | null = null;

/**
 * pdf.js's worker, one per page, started on first use (when pdf.ts loads). The worker is one of the app's own
 * hashed files: the Content-Security-Policy allows workers from 'self'.
 */
export function pdfWorker(): Worker {
  worker ??= new Worker(workerUrl, { type: 'module' });
  return worker;
}

export function documentUrl(workflowId: number, documentId: number): string {
  return `/document/v1/download/${workflowId}?selectedOption=downloadDocument&documentId=${documentId}`;
}

const downloads = new Map<string, Promise<Uint8Array>>();

/**
 * A document's bytes, memoized by URL until taken (pdf.ts opens them with pdf.js). Fetched here rather than by
 * pdf.js so the download runs while the engine is still loading; the download route answers whole files, so
 * pdf.js could not stream it in ranges anyway.
 */
export function fetchDocument(url: string, token: string | null): Promise<Uint8Array> {
  let pending = downloads.get(url);
  if (!pending) {
    pending = (async () => {
      const response = await fetch(url, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
        cache: 'no-store',
      });
      if (!response.ok) throw new Error(`document download answered ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    })();
    downloads.set(url, pending);
    pending.catch(() => downloads.delete(url));
  }
  return pending;
}

/** Hands over a prefetched document's bytes once (the caller keeps the opened document; the bytes need not stay here). */
export function takeDocument(url: string, token: string | null): Promise<Uint8Array> {
  const bytes = fetchDocument(url, token);
  downloads.delete(url);
  return bytes;
}
