/**
 * Self-signing in place (RUNTIME.md, the signing ceremony, SELF rules): the owner fills and signs their own
 * fields here, with the session, and one save finishes them: the draft becomes COMPLETED and is sealed, without
 * commence and without mail. The inputs are the signing page's own (signing/FieldEditor.tsx).
 */
import { useEffect, useMemo, useState } from 'react';
import { navigate } from '../workspace/router.tsx';
import type { Me } from '../workspace/session-api.ts';
import { FieldEditor } from '../signing/FieldEditor.tsx';
import { isFilled, mustFill, saveEntry, validate, walkOrder } from '../signing/field-rules.ts';
import { useSignatureLibrary } from '../signing/SignatureLibrary.tsx';
import type { Disclosure, Draft, SignerContext, Field as SigningField } from '../signing/types.ts';
import { errorText, loadDisclosure, loadSigningKey, saveValues } from './editor-api.ts';
import { EditorPages, type PageSizes } from './EditorPages.tsx';
import { editorText as text } from '../i18n/editor/index.ts';
import type { SaveTracker } from './saving.ts';
import type { EnvelopeDocument, Field, PageSize, Recipient } from './types.ts';

/** Stands in for the owner's row while there is none (the library hook then does nothing). */
const NOBODY: Recipient = {
  id: 0,
  name: '',
  emailAddress: '',
  recipientRole: 'SIGNER',
  recipientOrder: null,
  recipientColor: '#000000',
  useDigitalCert: false,
  enforceIdentity: false,
  status: 'PENDING',
};

type Props = {
  workflowId: number;
  documents: EnvelopeDocument[];
  revision: number;
  recipients: Recipient[];
  fields: Field[];
  sizes: PageSizes;
  onSize(documentId: number, pageNo: number, size: PageSize): void;
  me: Me | null;
  tracker: SaveTracker;
  flush(): Promise<void>;
  nameOf(field: Field): string;
  goToFields(): void;
};

export function SelfSignStep(props: Props) {
  const { workflowId, documents, recipients, fields, me, tracker } = props;
  // The owner's own row: the one with the session's email (a SELF workflow has only that one).
  const mine =
    recipients.find((r) => me && r.emailAddress.toLowerCase() === me.email.toLowerCase()) ?? recipients[0] ?? null;
  const own = useMemo(
    () => (mine ? (fields.filter((f) => f.recipientId === mine.id) as unknown as SigningField[]) : []),
    [fields, mine],
  );
  const walk = useMemo(
    () =>
      walkOrder(
        own,
        documents.map((d) => d.id),
      ),
    [own, documents],
  );
  const [drafts, setDrafts] = useState<Record<number, Draft>>(() => {
    const initial: Record<number, Draft> = {};
    for (const field of own) {
      if (field.value !== null) initial[field.id] = { value: field.value };
      else if (field.fieldType === 'NAME' && mine) initial[field.id] = { value: mine.name };
      else if (field.fieldType === 'EMAIL' && mine) initial[field.id] = { value: mine.emailAddress };
    }
    return initial;
  });
  const [errors, setErrors] = useState<Record<number, string | null>>({});
  const [disclosure, setDisclosure] = useState<Disclosure | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [context, setContext] = useState<SignerContext>({ signingKey: null });
  // The owner's saved signatures, initials and stamps (the session is theirs), offered beside drawing and typing.
  const library = useSignatureLibrary(mine ?? NOBODY, mine !== null);

  useEffect(() => {
    loadDisclosure().then(setDisclosure, (error: unknown) => setFailure(errorText(error)));
    // Whether a DIGITAL_SIGNATURE is signed with the owner's personal certificate (then it takes the signing password).
    loadSigningKey(workflowId).then(
      (signingKey) => setContext({ signingKey }),
      () => {},
    );
  }, [workflowId]);

  function update(field: SigningField, draft: Draft) {
    setDrafts((current) => ({ ...current, [field.id]: draft }));
    if (errors[field.id]) setErrors((current) => ({ ...current, [field.id]: validate(field, draft, context) }));
  }

  async function finish() {
    setFailure(null);
    const problems = Object.fromEntries(walk.map((f) => [f.id, validate(f, drafts[f.id], context)]));
    setErrors(problems);
    const first = walk.find((f) => problems[f.id]);
    if (first) {
      document.getElementById(`field-input-${first.id}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      await props.flush();
      const entries = walk
        .filter((f) => drafts[f.id] && (isFilled(f, drafts[f.id].value) || !mustFill(f)))
        .map((f) => saveEntry(f, drafts[f.id]));
      const result = await tracker.track(saveValues(documents[0].id, entries));
      if (result.workflowStatus === 'COMPLETED') {
        navigate(`/envelopes/${workflowId}`);
        return;
      }
      setFailure(text.signFailed);
    } catch (error) {
      setFailure(`${text.signFailed} ${errorText(error)}`);
    }
    setBusy(false);
  }

  const count = Object.values(errors).filter(Boolean).length;
  const hasSignature = walk.some((f) => f.fieldType === 'SIGNATURE' || f.fieldType === 'INITIALS');
  return (
    <div className="ed-sign">
      <div className="ed-pages-column">
        <EditorPages
          workflowId={workflowId}
          documents={documents}
          revision={props.revision}
          fields={fields}
          recipients={recipients}
          sizes={props.sizes}
          onSize={props.onSize}
          mode="fill"
          selectedId={selectedId}
          nameOf={props.nameOf}
          drafts={drafts}
          onSelect={(id) => {
            setSelectedId(id);
            if (id !== null) window.setTimeout(() => document.getElementById(`field-input-${id}`)?.focus(), 0);
          }}
        />
      </div>
      <section className="ed-sign-panel" aria-labelledby="ed-sign-heading">
        <h3 id="ed-sign-heading">{text.yourFields}</h3>
        {!hasSignature ? (
          <>
            <p>{text.noOwnFields}</p>
            <button type="button" className="ws-button" onClick={props.goToFields}>
              {text.back(text.steps.fields)}
            </button>
          </>
        ) : (
          <>
            <p>{text.signIntro}</p>
            <ol className="ed-sign-fields">
              {walk
                .filter((f) => f.fieldType !== 'NOTE')
                .map((field) => (
                  <li
                    key={field.id}
                    className={selectedId === field.id ? 'ed-sign-field--current' : undefined}
                    onFocus={() => setSelectedId(field.id)}
                  >
                    <FieldEditor
                      field={field}
                      draft={drafts[field.id]}
                      me={mine!}
                      error={errors[field.id] ?? null}
                      context={context}
                      library={library ?? []}
                      onChange={(draft) => update(field, draft)}
                      onAdopted={(draft) => update(field, draft)}
                    />
                  </li>
                ))}
            </ol>
            {disclosure && (
              <section aria-labelledby="ed-disclosure-heading">
                <h4 id="ed-disclosure-heading">{text.disclosureHeading}</h4>
                <blockquote className="disclosure" data-sha256={disclosure.textHash}>
                  {disclosure.text}
                </blockquote>
                <p>{text.disclosureAgree}</p>
              </section>
            )}
            {count > 0 && (
              <p className="ws-field-error" role="alert">
                {text.fixFields(count)}
              </p>
            )}
            <div className="ws-actions">
              <button
                type="button"
                className="ws-button ws-button--primary"
                disabled={busy || !disclosure}
                onClick={() => void finish()}
              >
                {busy ? text.signing : text.signAndComplete}
              </button>
            </div>
            {failure && (
              <p className="ws-field-error" role="alert">
                {failure}
              </p>
            )}
          </>
        )}
      </section>
    </div>
  );
}
