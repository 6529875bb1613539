/**
 * The envelope page's documents: every page as the service draws it (GET /document/v1/page-image, the sealed file
 * once sealed) and, until the envelope is finished, each field as a box in its recipient's colour naming its type
 * and its recipient (a finished envelope's pages carry the values themselves). A page's picture is fetched when it
 * comes near the screen, at the width it is shown, so a long contract costs only what is looked at.
 */
import { useEffect, useRef, useState } from 'react';
import { initialsOf } from '../editor/field-kinds.ts';
import { editorText } from '../i18n/editor/index.ts';
import { envelopeText as text } from '../i18n/workspace/index.ts';
import { api } from './session-api.ts';
import type { DocumentDetail, Recipient } from './types.ts';

type PageField = {
  id: number;
  documentId: number;
  recipientId: number | null;
  pageNo: number;
  box: { x: number; y: number; width: number; height: number };
  fieldType: string;
  fieldRequired: boolean;
};

/** Statuses whose pages already hold every value: no boxes over them. */
const FINISHED = new Set(['COMPLETED', 'APPROVED']);
/** Widths the service draws (multiples of 200 up to 2000); 800 is stored for a first page. */
const STEP = 200;
const MAX_WIDTH = 1600;

export function DocumentPages({
  workflowId,
  status,
  documents,
  recipients,
}: {
  workflowId: number;
  status: string;
  documents: DocumentDetail[];
  recipients: Recipient[];
}) {
  const showFields = !FINISHED.has(status);
  const [fields, setFields] = useState<PageField[]>([]);
  useEffect(() => {
    if (!showFields) return;
    let live = true;
    api.get<PageField[]>(`/workflow/v1/${workflowId}/all-fields`).then(
      (list) => live && setFields(list),
      () => live && setFields([]),
    );
    return () => {
      live = false;
    };
  }, [workflowId, showFields]);
  const byId = new Map(recipients.map((r) => [r.id, r]));
  return (
    <section className="ws-card" aria-labelledby="ws-pages-heading">
      <h2 id="ws-pages-heading">{text.pagesHeading}</h2>
      {!showFields && <p className="ws-muted">{text.pagesSealed}</p>}
      {documents.map((document) => (
        <section key={document.id} className="ws-doc" aria-label={document.documentName}>
          <h3 className="ws-doc-name">
            {document.documentName} <span className="ws-muted">· {text.pageCount(document.pages)}</span>
          </h3>
          <ol className="ws-doc-pages">
            {Array.from({ length: document.pages }, (_, i) => (
              <li key={i}>
                <PagePicture
                  workflowId={workflowId}
                  document={document}
                  pageNo={i + 1}
                  fields={fields.filter((f) => f.documentId === document.id && f.pageNo === i + 1)}
                  recipientOf={(id) => (id === null ? undefined : byId.get(id))}
                />
              </li>
            ))}
          </ol>
        </section>
      ))}
    </section>
  );
}

function PagePicture({
  workflowId,
  document,
  pageNo,
  fields,
  recipientOf,
}: {
  workflowId: number;
  document: DocumentDetail;
  pageNo: number;
  fields: PageField[];
  recipientOf: (id: number | null) => Recipient | undefined;
}) {
  const frame = useRef<HTMLElement>(null);
  const [picture, setPicture] = useState<{ url: string; width: number; height: number } | 'failed' | null>(null);
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    let url: string | null = null;
    let live = true;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        const wanted = Math.min(
          MAX_WIDTH,
          Math.ceil((element.clientWidth * window.devicePixelRatio) / STEP) * STEP || STEP * 4,
        );
        api
          .download(`/document/v1/page-image/${workflowId}?documentId=${document.id}&page=${pageNo}&width=${wanted}`)
          .then(
            (file) => {
              if (!live) return;
              url = URL.createObjectURL(file.blob);
              setPicture({
                url,
                width: Number(file.headers.get('X-Page-Width')) || 612,
                height: Number(file.headers.get('X-Page-Height')) || 792,
              });
            },
            () => live && setPicture('failed'),
          );
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(element);
    return () => {
      live = false;
      observer.disconnect();
      if (url) URL.revokeObjectURL(url);
    };
  }, [workflowId, document.id, pageNo]);

  const described = fields.map((f) => {
    const who = recipientOf(f.recipientId);
    const type = editorText.fieldTypes[f.fieldType as keyof typeof editorText.fieldTypes] ?? f.fieldType;
    return {
      field: f,
      who,
      label: who ? text.fieldFor(type, who.name) : type,
      short: who ? `${type} · ${initialsOf(who.name)}` : type,
    };
  });
  const ratio = picture && picture !== 'failed' ? `${picture.width} / ${picture.height}` : '1 / 1.294';
  const alt = text.pagePicture(pageNo, document.pages, document.documentName);
  return (
    <figure className="ws-page-picture" ref={frame}>
      <div className="ws-page-sheet" style={{ aspectRatio: ratio }}>
        {picture === null && <span className="ws-page-wait" role="img" aria-label={`${alt}: ${text.pageLoading}`} />}
        {picture === 'failed' && <p className="ws-muted ws-page-failed">{text.pagePictureFailed(alt)}</p>}
        {picture && picture !== 'failed' && (
          <>
            <img src={picture.url} alt={alt} />
            {/* Drawn for the eye; the same fields are listed below for screen readers. */}
            {described.map(({ field, who, label, short }) => (
              <span
                key={field.id}
                className="ws-page-field"
                aria-hidden="true"
                title={label}
                style={{
                  left: `${(field.box.x / picture.width) * 100}%`,
                  top: `${(field.box.y / picture.height) * 100}%`,
                  width: `${(field.box.width / picture.width) * 100}%`,
                  height: `${(field.box.height / picture.height) * 100}%`,
                  borderColor: who?.recipientColor ?? '#4b5563',
                  background: `${who?.recipientColor ?? '#4b5563'}1f`,
                }}
              >
                {/* The full label where it fits, else the type and the recipient's initials (a container query). */}
                <span className="ws-page-field-label ws-page-field-long">{label}</span>
                <span className="ws-page-field-label ws-page-field-short">{short}</span>
              </span>
            ))}
          </>
        )}
      </div>
      {described.length > 0 && (
        <figcaption className="visually-hidden">
          {text.fieldsOnPage(described.length)}{' '}
          {described
            .map(({ field, label }) => `${label}${field.fieldRequired ? ` (${text.required})` : ''}`)
            .join('; ')}
        </figcaption>
      )}
    </figure>
  );
}
