/**
 * `/envelopes/:id/edit`: a DRAFT envelope prepared in three steps: documents and recipients, fields, then
 * review and send (or, for an envelope only its owner signs, fill in and sign). Everything is saved as it is
 * changed; the indicator in the header says when it is. The step is in the address (?step=), so a reload stays.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Skeleton } from '../shared/Skeleton.tsx';
import type { PageProps } from '../workspace/routes.tsx';
import { Link, navigate, useSearchParams } from '../workspace/router.tsx';
import { ApiError, useMe } from '../workspace/session-api.ts';
import { useTitle } from '../workspace/ui.tsx';
import { errorText, loadDocuments, loadFields, loadRecipients, renameWorkflow } from './editor-api.ts';
import { DocumentsPanel } from './DocumentsPanel.tsx';
import { FieldsStep } from './FieldsStep.tsx';
import { pageKey, type PageSizes } from './EditorPages.tsx';
import { RecipientsPanel } from './RecipientsPanel.tsx';
import { SelfSignStep } from './SelfSignStep.tsx';
import { SaveTemplateStep } from './SaveTemplateStep.tsx';
import { SendStep } from './SendStep.tsx';
import { editorText as text } from '../i18n/editor/index.ts';
import { useFieldStore, useSaveTracker, type SaveState } from './saving.ts';
import type { EnvelopeDocument, Field, PageSize, Recipient, Sequence } from './types.ts';
import './editor.css';

type Loaded = { documents: EnvelopeDocument[]; recipients: Recipient[]; fields: Field[] };
type Phase =
  | { kind: 'loading' }
  | { kind: 'missing' }
  | { kind: 'failed'; error: unknown }
  | { kind: 'ready'; data: Loaded };

async function loadAll(workflowId: number): Promise<Loaded> {
  const [documents, recipients, fields] = await Promise.all([
    loadDocuments(workflowId),
    loadRecipients(workflowId),
    loadFields(workflowId),
  ]);
  return { documents, recipients, fields };
}

export function EditorPage({ params }: PageProps) {
  const workflowId = Number(params.id);
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const forTemplate = useSearchParams().get('for') === 'template';
  useTitle(forTemplate ? text.editTemplateTitle : text.editTitle);

  useEffect(() => {
    if (!Number.isInteger(workflowId) || workflowId <= 0) {
      setPhase({ kind: 'missing' });
      return;
    }
    let live = true;
    loadAll(workflowId).then(
      (data) => live && setPhase(data.documents.length === 0 ? { kind: 'missing' } : { kind: 'ready', data }),
      (error: unknown) =>
        live &&
        setPhase(error instanceof ApiError && error.status === 404 ? { kind: 'missing' } : { kind: 'failed', error }),
    );
    return () => {
      live = false;
    };
  }, [workflowId]);

  if (phase.kind === 'loading')
    return (
      <div className="ws-page">
        <h1>{forTemplate ? text.editTemplateTitle : text.editTitle}</h1>
        <Skeleton shape="document" label={text.loadingEnvelope} withHeading={false} />
      </div>
    );
  if (phase.kind === 'missing') {
    return (
      <div className="ws-page">
        <h1>{text.notFoundTitle}</h1>
        <p>{text.notFoundText}</p>
        <p>
          <Link to="/">{text.backToDocuments}</Link>
        </p>
      </div>
    );
  }
  if (phase.kind === 'failed') {
    return (
      <div className="ws-page">
        <h1>{text.editTitle}</h1>
        <div className="ws-error" role="alert">
          <p>
            {text.loadFailed} {errorText(phase.error)}
          </p>
        </div>
        <button type="button" className="ws-button" onClick={() => window.location.reload()}>
          {text.reload}
        </button>
      </div>
    );
  }
  const status = phase.data.documents[0].status;
  if (status !== 'DRAFT') {
    return (
      <div className="ws-page">
        <h1>{text.notDraftTitle}</h1>
        <p>{text.notDraftText(status)}</p>
        <p>
          <Link to={`/envelopes/${workflowId}`}>{text.openEnvelope}</Link>
        </p>
      </div>
    );
  }
  return <Editor workflowId={workflowId} initial={phase.data} />;
}

type Step = 'prepare' | 'fields' | 'send';

function Editor({ workflowId, initial }: { workflowId: number; initial: Loaded }) {
  const tracker = useSaveTracker();
  const store = useFieldStore(workflowId, initial.fields, tracker);
  const saveState: SaveState = store.waiting && tracker.state === 'saved' ? 'saving' : tracker.state;
  // Closing the tab or leaving the site with a change not yet saved asks first, as a document editor does.
  useEffect(() => {
    if (saveState !== 'saving') return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [saveState]);
  const { me } = useMe();
  const [documents, setDocuments] = useState(initial.documents);
  const [recipients, setRecipients] = useState(initial.recipients);
  const [sequence, setSequence] = useState<Sequence>(initial.documents[0].sequence);
  const [name, setName] = useState(initial.documents[0].name);
  const [revision, setRevision] = useState(0);
  const [sizes, setSizes] = useState<PageSizes>({});
  const [announcement, setAnnouncement] = useState('');
  const search = useSearchParams();
  const requested = search.get('step');
  const step: Step = requested === 'fields' || requested === 'send' ? requested : 'prepare';
  const self = sequence === 'SELF';
  // A draft made for a template (New template, ?for=template) ends in saving it as one instead of sending.
  const forTemplate = search.get('for') === 'template' && !self;
  const stepNames: [Step, string][] = [
    ['prepare', text.steps.prepare],
    ['fields', text.steps.fields],
    ['send', forTemplate ? text.steps.template : self ? text.steps.sign : text.steps.send],
  ];

  const announce = useCallback((message: string) => setAnnouncement(message), []);
  const onSize = useCallback((documentId: number, pageNo: number, size: PageSize) => {
    setSizes((current) => {
      const known = current[pageKey(documentId, pageNo)];
      return known && known.width === size.width && known.height === size.height
        ? current
        : { ...current, [pageKey(documentId, pageNo)]: size };
    });
  }, []);

  const reloadRecipientsAndFields = useCallback(async () => {
    const [nextRecipients, nextFields] = await Promise.all([loadRecipients(workflowId), loadFields(workflowId)]);
    setRecipients(nextRecipients);
    await store.flush();
    store.replaceAll(nextFields);
  }, [store, workflowId]);

  const reloadDocuments = useCallback(async () => {
    const next = await loadDocuments(workflowId);
    if (next.length === 0) {
      navigate('/');
      return;
    }
    setDocuments(next);
    setRevision((n) => n + 1);
    await store.flush();
    store.replaceAll(await loadFields(workflowId));
  }, [store, workflowId]);

  const nameOf = useCallback(
    (field: Field) => {
      const owner = recipients.find((r) => r.id === field.recipientId);
      return text.fieldName(
        text.fieldTypes[field.fieldType] ?? field.fieldType,
        owner?.name ?? text.unassigned,
        field.label?.trim() || null,
      );
    },
    [recipients],
  );

  // What a step asks before it is left (the new-recipient form adds what was typed); one refusal keeps the step.
  const leaveGuards = useRef(new Set<() => Promise<boolean>>());
  const onBeforeLeave = useCallback((guard: () => Promise<boolean>) => {
    leaveGuards.current.add(guard);
    return () => {
      leaveGuards.current.delete(guard);
    };
  }, []);

  const goTo = useCallback(
    async (next: Step) => {
      for (const guard of leaveGuards.current) if (!(await guard())) return;
      await store.flush();
      const query = [next === 'prepare' ? '' : `step=${next}`, forTemplate ? 'for=template' : '']
        .filter(Boolean)
        .join('&');
      navigate(`/envelopes/${workflowId}/edit${query ? `?${query}` : ''}`);
      // The new step's heading takes the focus (a screen reader starts reading there).
      window.setTimeout(() => document.getElementById('ed-step-heading')?.focus(), 0);
    },
    [store, workflowId, forTemplate],
  );

  // Unsaved moves are written before the tab closes (a debounced save would otherwise be lost).
  const flushRef = useRef(store.flush);
  flushRef.current = store.flush;
  useEffect(() => {
    const leave = () => void flushRef.current();
    window.addEventListener('pagehide', leave);
    return () => window.removeEventListener('pagehide', leave);
  }, []);

  const stepIndex = stepNames.findIndex(([key]) => key === step);
  const nextStep = stepNames[stepIndex + 1];
  const previousStep = stepNames[stepIndex - 1];

  return (
    <div className="ed-editor">
      <div className="ed-head">
        <h1>{forTemplate ? text.editTemplateTitle : text.editTitle}</h1>
        <EnvelopeName workflowId={workflowId} name={name} onName={setName} tracker={tracker} />
        <SaveIndicator state={saveState} retry={() => void store.flush()} />
      </div>
      <nav aria-label={text.stepsNav} className="ed-steps">
        <ol>
          {stepNames.map(([key, label], index) => (
            <li key={key}>
              <button
                type="button"
                className="ed-step"
                aria-current={key === step ? 'step' : undefined}
                onClick={() => void goTo(key)}
              >
                {text.stepLabel(index + 1, label)}
              </button>
            </li>
          ))}
        </ol>
      </nav>
      <div role="status" className="visually-hidden">
        {announcement}
      </div>
      <h2 id="ed-step-heading" className="visually-hidden" tabIndex={-1}>
        {text.stepLabel(stepIndex + 1, stepNames[stepIndex][1])}
      </h2>

      {step === 'prepare' && (
        <div className="ed-prepare">
          <DocumentsPanel
            workflowId={workflowId}
            documents={documents}
            tracker={tracker}
            onChanged={reloadDocuments}
            onDocuments={setDocuments}
            announce={announce}
          />
          <RecipientsPanel
            workflowId={workflowId}
            sequence={sequence}
            recipients={recipients}
            me={me}
            tracker={tracker}
            onRecipients={setRecipients}
            reload={reloadRecipientsAndFields}
            onSequence={setSequence}
            announce={announce}
            onBeforeLeave={onBeforeLeave}
          />
        </div>
      )}
      {step === 'fields' && (
        <FieldsStep
          workflowId={workflowId}
          documents={documents}
          revision={revision}
          recipients={recipients}
          store={store}
          sizes={sizes}
          onSize={onSize}
          nameOf={nameOf}
          announce={announce}
          goToRecipients={() => void goTo('prepare')}
        />
      )}
      {step === 'send' && forTemplate && (
        <SaveTemplateStep
          workflowId={workflowId}
          name={name}
          recipients={recipients}
          flush={store.flush}
          goToRecipients={() => void goTo('prepare')}
        />
      )}
      {step === 'send' && !self && !forTemplate && (
        <SendStep
          workflowId={workflowId}
          name={name}
          sequence={sequence}
          recipients={recipients}
          fields={store.fields}
          tracker={tracker}
          flush={store.flush}
          goToFields={() => void goTo('fields')}
        />
      )}
      {step === 'send' && self && (
        <SelfSignStep
          workflowId={workflowId}
          documents={documents}
          revision={revision}
          recipients={recipients}
          fields={store.fields}
          sizes={sizes}
          onSize={onSize}
          me={me}
          tracker={tracker}
          flush={store.flush}
          nameOf={nameOf}
          goToFields={() => void goTo('fields')}
        />
      )}

      <div className="ed-step-buttons">
        {previousStep && (
          <button type="button" className="ws-button" onClick={() => void goTo(previousStep[0])}>
            {text.back(previousStep[1])}
          </button>
        )}
        {nextStep && (
          <button type="button" className="ws-button ws-button--primary" onClick={() => void goTo(nextStep[0])}>
            {text.next(nextStep[1])}
          </button>
        )}
      </div>
    </div>
  );
}

function SaveIndicator({ state, retry }: { state: SaveState; retry(): void }) {
  return (
    <p className={`ed-save ed-save--${state}`} role="status">
      <span>{text.saveState[state]}</span>
      {state === 'failed' && (
        <button type="button" className="ws-link-button" onClick={retry}>
          {text.retrySave}
        </button>
      )}
    </p>
  );
}

/** The envelope's name (what recipients see), renamed when the input is left. */
function EnvelopeName({
  workflowId,
  name,
  onName,
  tracker,
}: {
  workflowId: number;
  name: string;
  onName(name: string): void;
  tracker: ReturnType<typeof useSaveTracker>;
}) {
  const [value, setValue] = useState(name);
  const [error, setError] = useState<string | null>(null);
  const id = useMemo(() => `ed-name-${workflowId}`, [workflowId]);
  const shortened = value === name && name.endsWith('…');

  async function save() {
    const trimmed = value.trim();
    if (trimmed === name) return;
    if (trimmed.length < 1 || trimmed.length > 50) {
      setError(text.envelopeNameInvalid);
      return;
    }
    try {
      const settings = await tracker.track(renameWorkflow(workflowId, trimmed));
      onName(settings.name);
      setValue(settings.name);
      setError(null);
    } catch (failure) {
      setError(errorText(failure));
    }
  }

  return (
    <div className="ed-name">
      <label htmlFor={id}>{text.envelopeName}</label>
      <input
        id={id}
        type="text"
        value={value}
        maxLength={50}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${shortened ? ` ${id}-shortened` : ''}${error ? ` ${id}-error` : ''}`}
        onChange={(e) => setValue(e.target.value)}
        onBlur={() => void save()}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void save();
        }}
      />
      <p className="hint" id={`${id}-hint`}>
        {text.envelopeNameHint}
      </p>
      {/* The service cuts a file name over 50 characters at a word and ends it with "…": the sender is told, once. */}
      {shortened && (
        <p className="hint" role="status" id={`${id}-shortened`}>
          {text.envelopeNameShortened}
        </p>
      )}
      {error && (
        <p className="ws-field-error" role="alert" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
