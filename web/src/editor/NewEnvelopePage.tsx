/**
 * `/envelopes/new`: choose who signs, upload the documents, then go on to the editor of the new draft.
 * `/templates/new`: the same upload for a template: the editor then ends in "Save as template" (`?for=template`).
 */
import { useId, useState } from 'react';
import type { PageProps } from '../workspace/routes.tsx';
import { Link, navigate } from '../workspace/router.tsx';
import { useTitle } from '../workspace/ui.tsx';
import { DOCUMENT_TYPES, DropZone } from './DropZone.tsx';
import { editorText as text } from '../i18n/editor/index.ts';
import { useUploader } from './upload.ts';
import './editor.css';

export function NewEnvelopePage(_props: PageProps) {
  return <NewUpload forTemplate={false} />;
}

export function NewTemplatePage(_props: PageProps) {
  return <NewUpload forTemplate />;
}

function NewUpload({ forTemplate }: { forTemplate: boolean }) {
  useTitle(forTemplate ? text.newTemplateTitle : text.newTitle);
  const [who, setWho] = useState<'UNORDERED' | 'SELF'>('UNORDERED');
  const [partial, setPartial] = useState<number | null>(null);
  const uploader = useUploader();
  const name = useId();

  async function start(files: File[]) {
    // A template is never self-signed: its recipients are the people (or placeholders) who will sign each copy.
    const outcome = await uploader.upload(files, { sequence: forTemplate ? 'UNORDERED' : who });
    if (outcome.error === null && outcome.workflowId !== null) {
      navigate(`/envelopes/${outcome.workflowId}/edit${forTemplate ? '?for=template' : ''}`);
      return;
    }
    // Some files went in before one was refused: the draft exists; the sender may carry on with it.
    if (outcome.workflowId !== null && outcome.uploaded > 0) setPartial(outcome.workflowId);
  }

  return (
    <div className="ws-page ed-new">
      <h1>{forTemplate ? text.newTemplateTitle : text.newTitle}</h1>
      <p>{forTemplate ? text.newTemplateIntro : text.newIntro}</p>
      <fieldset className="ed-choice" disabled={uploader.progress !== null} hidden={forTemplate}>
        <legend>{text.whoSigns}</legend>
        {(['UNORDERED', 'SELF'] as const).map((value) => (
          <label key={value} className="ed-choice-option">
            <input
              type="radio"
              name={name}
              value={value}
              checked={who === value}
              onChange={() => setWho(value)}
              aria-describedby={`${name}-${value}-hint`}
            />
            <span>
              <span className="ed-choice-title">{value === 'SELF' ? text.whoSelf : text.whoOthers}</span>
              <span className="hint ed-choice-hint" id={`${name}-${value}-hint`}>
                {value === 'SELF' ? text.whoSelfHint : text.whoOthersHint}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <DropZone
        heading={text.dropHeading}
        hint={text.dropHint}
        buttonLabel={text.chooseFiles}
        accept={DOCUMENT_TYPES}
        multiple
        progress={uploader.progress}
        error={uploader.error}
        onFiles={(files) => void start(files)}
      />
      {partial !== null && (
        <p>
          <Link to={`/envelopes/${partial}/edit${forTemplate ? '?for=template' : ''}`}>{text.uploadedContinue}</Link>
        </p>
      )}
    </div>
  );
}
