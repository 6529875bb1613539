import { Skeleton } from '../shared/Skeleton.tsx';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { LanguageMenu } from '../i18n/LanguageMenu.tsx';
import { t } from '../i18n/signing/index.ts';
import { type Api, ApiError, saveFile, type GuestSession } from '../shared/api.ts';
import { disclosurePath, loadAll, startSigning, type Loaded } from './start.ts';
import { useLanguage } from '../i18n/use-language.ts';
import { DocumentView } from './DocumentView.tsx';
import { FieldEditor } from './FieldEditor.tsx';
import {
  fieldLabel,
  isCertificateSignature,
  isFilled,
  mustFill,
  saveEntry,
  validate,
  walkOrder,
} from './field-rules.ts';
import { useSignatureLibrary } from './SignatureLibrary.tsx';
import { ConsentStep, OtpStep, PasswordStep, useFocusOnMount } from './IdentitySteps.tsx';
import { createTelemetry, type Telemetry } from './telemetry.ts';
import { Comments } from './Comments.tsx';
import { FinishPanel, type Outcome } from './FinishPanel.tsx';
import type {
  CeremonyResult,
  Disclosure,
  DocumentItem,
  Draft,
  Field,
  Overview,
  SignerContext,
  SigningKeyStatus,
} from './types.ts';
import { BrandingContext, accessibleBrandColour, useSenderBranding, type SenderBranding } from './branding.ts';
import { CscReturn, RemoteSigning } from './RemoteSigning.tsx';

type Phase =
  | { kind: 'loading' }
  | { kind: 'expired'; voided: boolean }
  | { kind: 'failed'; requestId?: string }
  | { kind: 'password'; session: GuestSession }
  | { kind: 'ready'; data: Loaded };

/** Per-tab memory of the steps already passed, so a reload does not ask again (the service still checks). */
function flag(name: string, session: GuestSession): string {
  return `${name}:${session.workflowId}:${session.recipientId}`;
}
function readFlag(name: string, session: GuestSession): boolean {
  try {
    return sessionStorage.getItem(flag(name, session)) === '1';
  } catch {
    return false;
  }
}
function writeFlag(name: string, session: GuestSession, on: boolean): void {
  try {
    if (on) sessionStorage.setItem(flag(name, session), '1');
    else sessionStorage.removeItem(flag(name, session));
  } catch {
    // memory only
  }
}

/** The page a recipient opens from the mailed link `/sign/<code>`. */
export function SigningPage({ code }: { code: string }) {
  // Begun by main.tsx before this chunk arrived (start.ts); the same start when called again for the same code.
  const start = useMemo(() => startSigning(code), [code]);
  const api = start.api;
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [branding, setBranding] = useState<SenderBranding | null>(null);

  // The sender's colour applies to the whole page (bar, buttons, focus marks); set through the CSSOM, which the
  // strict Content-Security-Policy allows where a style attribute in markup would not be.
  useEffect(() => {
    const colour = accessibleBrandColour(branding?.primaryColor ?? null);
    if (colour) document.documentElement.style.setProperty('--brand-color', colour);
    else document.documentElement.style.removeProperty('--brand-color');
  }, [branding]);

  const load = useCallback(
    async (session: GuestSession, loaded?: Promise<Loaded>) => {
      try {
        setPhase({ kind: 'ready', data: await (loaded ?? loadAll(api, session)) });
      } catch (error) {
        // A recipient password blocks every read until it is verified (RUNTIME.md): ask for it.
        if (error instanceof ApiError && error.code === 'IDENTITY_NOT_VERIFIED')
          return setPhase({ kind: 'password', session });
        setPhase({ kind: 'failed', requestId: error instanceof ApiError ? error.requestId : undefined });
      }
    },
    [api],
  );

  useEffect(() => {
    start.session
      .then((s) => {
        // The sender's look is decoration: the page works the same without it, so a failure is ignored.
        api.get<SenderBranding>(`/workflow/v1/${s.workflowId}/branding`).then(setBranding, () => {});
        return load(s, start.loaded);
      })
      .catch((error) => {
        if (
          error instanceof ApiError &&
          (error.code === 'LINK_EXPIRED' || error.status === 400 || error.status === 404)
        )
          setPhase({ kind: 'expired', voided: isVoidedLink(error.responseBody) });
        else setPhase({ kind: 'failed', requestId: error instanceof ApiError ? error.requestId : undefined });
      });
  }, [api, start, load]);

  function page(phase: Phase) {
    if (phase.kind === 'loading')
      return (
        <Shell>
          <div className="opening">
            <h1 className="visually-hidden">{t.opening}</h1>
            <Skeleton shape="document" label={t.loading} />
          </div>
        </Shell>
      );
    if (phase.kind === 'expired')
      return (
        <Shell>
          {phase.voided ? (
            <Message title={t.voidTitle} lines={[t.linkVoidedText]} />
          ) : (
            <Message title={t.linkExpiredTitle} lines={[t.linkExpiredText, t.linkExpiredWhatToDo]} />
          )}
        </Shell>
      );
    if (phase.kind === 'failed') {
      return (
        <Shell>
          <Message
            title={t.genericErrorTitle}
            lines={[t.genericErrorText, ...(phase.requestId ? [t.requestReference(phase.requestId)] : [])]}
          >
            <button type="button" className="primary" onClick={() => window.location.reload()}>
              {t.reload}
            </button>
          </Message>
        </Shell>
      );
    }
    if (phase.kind === 'password')
      return (
        <Shell>
          <PasswordStep api={api} workflowId={phase.session.workflowId} onVerified={() => load(phase.session)} />
        </Shell>
      );
    return <Ceremony api={api} data={phase.data} reload={() => load(phase.data.session)} />;
  }

  return <BrandingContext.Provider value={branding}>{page(phase)}</BrandingContext.Provider>;
}

/** The frame of every state: the sender's branding bar and the main landmark. */
function Shell({
  children,
  organization,
  footer,
}: {
  children: React.ReactNode;
  organization?: string;
  footer?: React.ReactNode;
}) {
  // The sender organization's logo and name (its colour is the page's --brand-color, set by SigningPage).
  const branding = useSenderBranding();
  const sender = branding?.senderName ?? organization;
  return (
    <>
      <a className="skip-link" href="#main">
        {t.skipToDocument}
      </a>
      <header className="brand-bar">
        {branding?.logoUrl && (
          <img className="brand-logo" src={branding.logoUrl} alt={t.brandLogoAlt(sender ?? t.appName)} />
        )}
        <span className="brand-name">{t.appName}</span>
        {sender && <span className="brand-sender">{t.from(sender)}</span>}
        <LanguageMenu className="on-brand" />
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      {/* Beside the main area, not over it: nothing the signer needs is ever hidden under the action bar. */}
      {footer}
    </>
  );
}

function Message({ title, lines, children }: { title: string; lines: string[]; children?: React.ReactNode }) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <section className="message" aria-labelledby="message-heading">
      <h1 id="message-heading" ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
      {children}
    </section>
  );
}

/**
 * The disclosure in the page's language, loaded again when the language changes; the one shown is the one the next
 * act names (Api.disclosureHash), so the consent record holds what the signer read.
 */
function useDisclosure(api: Api, first: Disclosure): Disclosure {
  const language = useLanguage();
  const [disclosure, setDisclosure] = useState(first);
  useEffect(() => {
    if (disclosure.lang === language) return;
    let current = true;
    api.get<Disclosure>(disclosurePath(language)).then(
      (next) => {
        if (current) setDisclosure(next);
      },
      () => {},
    );
    return () => {
      current = false;
    };
  }, [language]);
  api.disclosureHash = disclosure.textHash;
  return disclosure;
}

function Ceremony({ api, data, reload }: { api: Api; data: Loaded; reload(): Promise<void> }) {
  const { session, overview, documents, recipients } = data;
  const me = recipients.find((r) => r.id === session.recipientId)!;
  const disclosure = useDisclosure(api, data.disclosure);
  const [fields, setFields] = useState(data.fields);
  const [comments, setComments] = useState(data.comments);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [sealStatus, setSealStatus] = useState(overview.sealStatus);
  const [workflowStatus, setWorkflowStatus] = useState(overview.status);
  // The files fetched for a finished workflow are the sealed ones, every value drawn in: no field is drawn over them.
  // A signer who finishes the workflow here sees the source with the values over it until the seal lands, then the
  // sealed files (opened again).
  const [sealedAtOpen] = useState(() => isFinishedWorkflow(overview.status));
  const [sealedShown, setSealedShown] = useState(sealedAtOpen);
  const [consented, setConsented] = useState(() => readFlag('consent', session));
  const [verified, setVerified] = useState(() => !me.enforceIdentity || readFlag('otp', session));
  const [announcement, setAnnouncement] = useState('');
  const telemetry = useRef<Telemetry | null>(null);
  // After the consent (or the one-time code) the guide appears: the focus goes to its first button, not nowhere.
  const guideNext = useRef<HTMLButtonElement>(null);
  const [focusGuide, setFocusGuide] = useState(false);

  // A DIGITAL_SIGNATURE the service holds a value for is signed into the document (remotely): nothing more to fill there.
  const myFields = useMemo(
    () => fields.filter((f) => f.recipientId === me.id && !(f.fieldType === 'DIGITAL_SIGNATURE' && f.value !== null)),
    [fields, me.id],
  );
  const walk = useMemo(
    () =>
      walkOrder(
        myFields,
        documents.map((d) => d.id),
      ),
    [myFields, documents],
  );
  const canAct =
    workflowStatus === 'SENT' &&
    me.recipientRole !== 'CC' &&
    (me.status === 'SENT' || me.status === 'VIEWED') &&
    !outcome;

  // A useDigitalCert signer signs its DIGITAL_SIGNATURE fields with its personal certificate: the page asks the
  // service whether the key exists (create a signing password, or enter it). Until it knows, it asks to enter one.
  const certificateFields = me.useDigitalCert && myFields.some((f) => f.fieldType === 'DIGITAL_SIGNATURE');
  const [signingKey, setSigningKey] = useState<SigningKeyStatus | null>(null);
  useEffect(() => {
    if (!certificateFields || !canAct) return;
    api.get<SigningKeyStatus>(`/workflow/v1/${session.workflowId}/signing-key`).then(setSigningKey, () => {});
  }, [api, session.workflowId, certificateFields, canAct]);
  const context = useMemo<SignerContext>(
    () => ({
      signingKey:
        signingKey ?? (me.useDigitalCert ? { useDigitalCert: true, provisioned: true, minPasswordLength: 8 } : null),
      keyReset: {
        requestCode: async () => {
          await api.post(`/workflow/v1/${session.workflowId}/signing-key/reset-code`);
        },
        reset: async (code, password) => {
          setSigningKey(
            await api.post<SigningKeyStatus>(`/workflow/v1/${session.workflowId}/signing-key/reset`, {
              code,
              password,
            }),
          );
        },
      },
    }),
    [api, session.workflowId, signingKey, me.useDigitalCert],
  );

  // Drafts: what the signer entered, kept in this tab until saved so a reload loses nothing.
  const draftsKey = flag('drafts', session);
  const [drafts, setDrafts] = useState<Record<number, Draft>>(() => {
    const initial: Record<number, Draft> = {};
    for (const field of data.fields.filter((f) => f.recipientId === me.id)) {
      if (field.value !== null)
        initial[field.id] = { value: field.fieldType === 'CHECKBOX' ? field.value === 'true' : field.value };
      else if (field.fieldType === 'NAME') initial[field.id] = { value: me.name };
      else if (field.fieldType === 'EMAIL') initial[field.id] = { value: me.emailAddress };
    }
    try {
      Object.assign(initial, JSON.parse(sessionStorage.getItem(draftsKey) ?? '{}'));
    } catch {
      // nothing kept
    }
    return initial;
  });
  const [saved, setSaved] = useState<Record<number, string>>(() =>
    Object.fromEntries(
      data.fields
        .filter((f) => f.recipientId === me.id && f.value !== null)
        .map((f) => [f.id, JSON.stringify(saveEntry(f, { value: f.value }).value)]),
    ),
  );
  useEffect(() => {
    try {
      // Passwords never go to storage.
      const kept = Object.fromEntries(Object.entries(drafts).map(([id, d]) => [id, { value: d.value }]));
      sessionStorage.setItem(draftsKey, JSON.stringify(kept));
    } catch {
      // memory only
    }
  }, [drafts, draftsKey]);

  // Created during the first render, not in an effect: the field boxes (children, whose effects run first)
  // start observing themselves as soon as they mount.
  if (telemetry.current === null) {
    telemetry.current = createTelemetry(api, session.workflowId);
    telemetry.current.record(documents[0]?.id ?? 0, null, 'SESSION_START');
  }
  useEffect(() => () => telemetry.current?.stop(), []);

  // After completion the seal lands a moment later: look again until the downloads can be offered.
  useEffect(() => {
    if (!isFinishedWorkflow(workflowStatus) || sealStatus !== 'PENDING') return;
    const timer = setInterval(async () => {
      const next = await api.get<Overview>(`/workflow/v1/${session.workflowId}/signing/overview`).catch(() => null);
      if (next) setSealStatus(next.sealStatus);
    }, 1500);
    return () => clearInterval(timer);
  }, [api, session.workflowId, workflowStatus, sealStatus]);

  useEffect(() => {
    if (sealedShown || !isFinishedWorkflow(workflowStatus) || sealStatus !== 'SEALED') return;
    let cancelled = false;
    void import('./pdf.ts').then(({ documentUrl, forgetPdf }) => {
      if (cancelled) return;
      for (const doc of documents) forgetPdf(documentUrl(doc.workflowId, doc.id));
      setSealedShown(true);
    });
    return () => {
      cancelled = true;
    };
  }, [sealedShown, workflowStatus, sealStatus, documents]);

  const [currentId, setCurrentId] = useState<number | null>(null);
  const [errors, setErrors] = useState<Record<number, string | null>>({});
  const [saveState, setSaveState] = useState<'idle' | 'saving' | 'saved' | 'local' | 'failed'>('idle');
  const current = walk.find((f) => f.id === currentId) ?? null;
  // The signed-in signer's saved signatures, initials and stamps (web session only; see SignatureLibrary.tsx), asked for
  // once the guide first reaches a field that takes one, so a signer with none never waits for (or probes) it.
  const [libraryWanted, setLibraryWanted] = useState(false);
  const takesLibraryEntry =
    canAct && current !== null && ['SIGNATURE', 'INITIALS', 'STAMP'].includes(current.fieldType);
  useEffect(() => {
    if (takesLibraryEntry) setLibraryWanted(true);
  }, [takesLibraryEntry]);
  const library = useSignatureLibrary(me, libraryWanted);
  const remaining = walk.filter((f) => mustFill(f) && !isFilled(f, drafts[f.id]?.value));
  const requiredCount = walk.filter(mustFill).length;

  // The field is brought into view once its editor is on screen: the editor makes the action bar taller and
  // the main area shorter, so scrolling before it renders could leave the field just out of sight.
  // Right after the page opens the document may still be loading: wait (briefly) for the field's box to exist.
  useEffect(() => {
    if (currentId === null) return;
    let frame = 0;
    const deadline = Date.now() + 5000;
    const bring = () => {
      const box = document.getElementById(`field-${currentId}`);
      if (box) box.scrollIntoView({ block: 'center' });
      else if (Date.now() < deadline) frame = requestAnimationFrame(bring);
    };
    frame = requestAnimationFrame(bring);
    return () => cancelAnimationFrame(frame);
  }, [currentId]);

  const select = (field: Field) => {
    setCurrentId(field.id);
    telemetry.current?.record(field.documentId, field.id, 'FIELD_FOCUSED');
    // The editor takes focus so that keyboard and screen-reader users land in it.
    setTimeout(() => {
      const input =
        document.getElementById(`field-input-${field.id}`) ??
        document.querySelector<HTMLElement>(
          '.field-panel input, .field-panel select, .field-panel textarea, .field-panel button:not(.field-panel-close)',
        );
      input?.focus({ preventScroll: true });
    }, 50);
  };

  /** Saves one entry now unless that would finish the signer: finishing stays the signer's explicit act. */
  const persist = async (field: Field, draft: Draft, allDrafts: Record<number, Draft>) => {
    const entry = saveEntry(field, draft);
    if (saved[field.id] === JSON.stringify(entry.value)) return;
    const wouldFinish =
      me.recipientRole === 'SIGNER' && walk.filter(mustFill).every((f) => isFilled(f, allDrafts[f.id]?.value));
    if (wouldFinish || field.fieldType === 'DIGITAL_SIGNATURE') {
      setSaveState('local');
      return;
    }
    setSaveState('saving');
    try {
      await api.post<CeremonyResult>(`/workflow/v1/${field.documentId}/fields/save`, [entry]);
      setSaved((s) => ({ ...s, [field.id]: JSON.stringify(entry.value) }));
      setSaveState('saved');
      telemetry.current?.record(field.documentId, field.id, 'FIELD_FILLED');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'IDENTITY_NOT_VERIFIED') {
        writeFlag('otp', session, false);
        setVerified(false);
      }
      if (
        error instanceof ApiError &&
        (error.code === 'INVALID_FIELD_VALUE' || error.code === 'REQUIRED_FIELD_EMPTY')
      ) {
        setErrors((e) => ({ ...e, [field.id]: error.message }));
      }
      setSaveState('failed');
    }
  };

  const move = async (direction: 1 | -1, options: { skip?: boolean; draftOverride?: Draft } = {}) => {
    if (current && options.skip && direction === 1 && !mustFill(current)) {
      // Skipping an optional field leaves it empty, also when it was prefilled.
      setDrafts((d) => ({ ...d, [current.id]: { value: null } }));
      setErrors((e) => ({ ...e, [current.id]: null }));
    }
    if (current && !options.skip) {
      const draft = options.draftOverride ?? drafts[current.id];
      const problem = validate(current, draft, context);
      if (direction === 1 && problem) {
        setErrors((e) => ({ ...e, [current.id]: problem }));
        return;
      }
      setErrors((e) => ({ ...e, [current.id]: null }));
      if (draft && !problem) void persist(current, draft, { ...drafts, [current.id]: draft });
    }
    const index = current ? walk.indexOf(current) : -1;
    const nextDrafts = current && options.draftOverride ? { ...drafts, [current.id]: options.draftOverride } : drafts;
    let target: Field | undefined;
    if (direction === 1) {
      // From the start (or a reload): the first required field still empty. Then field after field, each
      // shown once (prefilled ones too, to be confirmed), and finally any required field left empty.
      const emptyRequired = (f: Field) => mustFill(f) && !isFilled(f, nextDrafts[f.id]?.value) && f.id !== current?.id;
      target = current ? (walk[index + 1] ?? walk.find(emptyRequired)) : (walk.find(emptyRequired) ?? walk[0]);
    } else {
      target = walk[Math.max(0, index - 1)];
    }
    if (target) select(target);
    else {
      setCurrentId(null);
      setAnnouncement(t.allRequiredDone);
      setTimeout(() => document.getElementById('finish-heading')?.focus(), 50);
    }
  };

  const updateDraft = (field: Field, draft: Draft) => {
    setDrafts((d) => ({ ...d, [field.id]: draft }));
    if (errors[field.id]) setErrors((e) => ({ ...e, [field.id]: validate(field, draft, context) }));
  };

  const finished = (result: Outcome, status?: CeremonyResult) => {
    for (const id of status?.savedFieldIds ?? []) {
      const field = fields.find((f) => f.id === id);
      if (field) telemetry.current?.record(field.documentId, field.id, 'FIELD_FILLED');
    }
    telemetry.current?.record(documents[0]?.id ?? 0, null, 'SUBMITTED');
    telemetry.current?.flush();
    if (status) {
      setWorkflowStatus(status.workflowStatus);
      setSealStatus(status.sealStatus);
    }
    setCurrentId(null);
    setOutcome(result);
    // Everyone's new status (and for a delegation the new row) in "Who is involved".
    if (result.kind !== 'delegated') void reload();
    try {
      sessionStorage.removeItem(draftsKey);
    } catch {
      // nothing kept
    }
  };

  /** A remote signature came back signed: the signer may be done; otherwise its fields are read again (that one is now signed). */
  const remoteSigned = async (result: CeremonyResult) => {
    if (result.recipientStatus === 'SIGNED') return finished({ kind: 'signed' }, result);
    setAnnouncement(t.cscSigned);
    const list = await api.get<Field[]>(`/workflow/v1/${session.workflowId}/all-fields`).catch(() => null);
    if (list) setFields(list);
  };

  const identityLost = () => {
    writeFlag('otp', session, false);
    setVerified(false);
  };

  const organization = overview.ownerName;
  const ordered = overview.sequence === 'ORDERED';
  const people = recipients
    .filter((r) => r.status !== 'DELEGATED')
    .slice()
    .sort((a, b) => (ordered ? Number(a.recipientOrder ?? 0) - Number(b.recipientOrder ?? 0) : 0));
  const showGuide = canAct && consented && verified;
  useEffect(() => {
    if (!focusGuide || !showGuide) return;
    setFocusGuide(false);
    guideNext.current?.focus();
  }, [focusGuide, showGuide]);

  let banner: React.ReactNode = null;
  if (outcome) banner = <OutcomeBanner outcome={outcome} workflowStatus={workflowStatus} sealStatus={sealStatus} />;
  else if (workflowStatus === 'VOID') banner = <Banner title={t.voidTitle} text={t.voidText} />;
  else if (me.recipientRole === 'CC') banner = <Banner title={t.ccTitle} text={t.ccText} />;
  else if (me.status === 'PENDING') banner = <Banner title={t.notYourTurnTitle} text={t.notYourTurnText} />;
  else if (!canAct && workflowStatus !== 'COMPLETED') banner = <Banner title={t.alreadyFinished} text="" />;
  else if (workflowStatus === 'COMPLETED')
    banner = <OutcomeBanner outcome={null} workflowStatus={workflowStatus} sealStatus={sealStatus} />;

  return (
    <Shell
      organization={organization}
      footer={
        canAct && (
          <div className="action-bar" role="region" aria-label={t.actionsRegion}>
            {showGuide && current && (
              <div className="field-panel">
                <div className="field-panel-head">
                  <h2 className="field-panel-heading">
                    {t.fieldPanelHeading(fieldLabel(current), walk.indexOf(current) + 1, walk.length)}
                  </h2>
                  {/* Closes the sheet (on a phone it covers half the page) to read the page or reach Finish and Decline. */}
                  <button
                    type="button"
                    className="secondary field-panel-close"
                    onClick={() => {
                      setCurrentId(null);
                      setTimeout(() => guideNext.current?.focus(), 0);
                    }}
                  >
                    {t.closeField}
                  </button>
                </div>
                <FieldEditor
                  field={current}
                  draft={drafts[current.id]}
                  me={me}
                  error={errors[current.id] ?? null}
                  context={context}
                  library={library}
                  onChange={(draft) => updateDraft(current, draft)}
                  onAdopted={(draft) => {
                    updateDraft(current, draft);
                    void move(1, { draftOverride: draft });
                  }}
                />
                {current.fieldType === 'DIGITAL_SIGNATURE' && (
                  <RemoteSigning api={api} workflowId={session.workflowId} recipientId={me.id} field={current} />
                )}
              </div>
            )}
            <div className="guide">
              {showGuide && (
                <>
                  <p className="progress" aria-live="polite">
                    {requiredCount > 0
                      ? t.progress(requiredCount - remaining.length, requiredCount)
                      : walk.length === 0
                        ? t.noFieldsForYou
                        : ''}
                    {saveState === 'saving' && <span className="save-state"> · {t.saving}</span>}
                    {saveState === 'saved' && <span className="save-state"> · {t.saved}</span>}
                    {saveState === 'local' && <span className="save-state"> · {t.savedLocally}</span>}
                    {saveState === 'failed' && <span className="save-state error"> · {t.saveFailed}</span>}
                  </p>
                  {walk.length > 0 && (
                    <div className="guide-buttons">
                      {current && walk.indexOf(current) > 0 && (
                        <button type="button" className="secondary" onClick={() => void move(-1, { skip: true })}>
                          {t.previousField}
                        </button>
                      )}
                      {current && !mustFill(current) && (
                        <button type="button" className="secondary" onClick={() => void move(1, { skip: true })}>
                          {t.skipField}
                        </button>
                      )}
                      <button type="button" className="primary next" ref={guideNext} onClick={() => void move(1)}>
                        {current
                          ? t.nextField
                          : remaining.length === 0 && requiredCount > 0
                            ? t.reviewFields
                            : t.startFilling}
                      </button>
                    </div>
                  )}
                </>
              )}
            </div>
            <FinishPanel
              api={api}
              session={session}
              me={me}
              walk={walk}
              drafts={drafts}
              ready={showGuide}
              remaining={remaining.length}
              documents={documents}
              onFinished={finished}
              onIdentityLost={identityLost}
              onSaveErrors={(list) => setErrors((e) => ({ ...e, ...list }))}
              reload={reload}
              onSigningPasswordRejected={(message) => {
                const field = walk.find((f) => isCertificateSignature(f, context));
                if (!field) return;
                // The refused password is cleared, so the signer types it again rather than resubmitting it.
                setDrafts((d) => ({
                  ...d,
                  [field.id]: { ...d[field.id], value: d[field.id]?.value ?? null, password: '', passwordConfirm: '' },
                }));
                setErrors((e) => ({ ...e, [field.id]: message }));
                select(field);
              }}
            />
          </div>
        )
      }
    >
      <div className="layout">
        <div className="intro">
          <h1 id="workflow-heading">{overview.title ?? overview.name}</h1>
          <p className="from">{t.from(overview.ownerName)}</p>
          {overview.message && (
            <section aria-labelledby="message-from-sender">
              <h2 id="message-from-sender">{t.messageFromSender}</h2>
              <p className="sender-message">{overview.message}</p>
            </section>
          )}
        </div>
        <div className="content">
          <div role="status" className="visually-hidden">
            {announcement}
          </div>
          {banner}
          <CscReturn api={api} workflowId={session.workflowId} recipientId={me.id} onSigned={remoteSigned} />
          {workflowStatus === 'COMPLETED' && sealStatus === 'SEALED' && (
            <Downloads api={api} workflowId={session.workflowId} documents={documents} />
          )}
          {canAct && !consented && (
            <ConsentStep
              disclosure={disclosure}
              onAgree={() => {
                writeFlag('consent', session, true);
                setConsented(true);
                setFocusGuide(true);
              }}
              onDecline={() => document.getElementById('open-decline')?.click()}
            />
          )}
          {canAct && consented && !verified && (
            <OtpStep
              api={api}
              workflowId={session.workflowId}
              email={me.emailAddress}
              onVerified={() => {
                writeFlag('otp', session, true);
                setVerified(true);
                setFocusGuide(true);
                setAnnouncement(t.otpVerified);
              }}
            />
          )}
          <DocumentView
            documents={documents}
            token={api.token}
            workflowId={session.workflowId}
            fields={fields}
            recipients={recipients}
            myRecipientId={me.id}
            drafts={drafts}
            currentFieldId={currentId}
            interactive={showGuide}
            sealed={sealedShown}
            stalePicture={sealedShown && !sealedAtOpen}
            onSelectField={(field) => showGuide && select(field)}
            observeField={(element, field) =>
              telemetry.current?.observe(element, field.documentId, field.id) ?? (() => {})
            }
          />
        </div>
        <aside className="summary">
          <section aria-labelledby="involved-heading">
            <h2 id="involved-heading">{t.involvedHeading}</h2>
            <p className="hint">{ordered ? t.involvedOrdered : t.involvedUnordered}</p>
            {(() => {
              const items = people.map((person) => (
                <li key={person.id} className="person">
                  <span className="swatch" style={{ background: person.recipientColor }} aria-hidden="true" />
                  <span>
                    <strong>{person.name}</strong>
                    {person.id === me.id ? ` (${t.you})` : ''}
                    <br />
                    <span className="hint">
                      {t.role[person.recipientRole] ?? person.recipientRole} ·{' '}
                      {t.recipientStatus[person.status] ?? person.status}
                    </span>
                  </span>
                </li>
              ));
              return ordered ? <ol className="people">{items}</ol> : <ul className="people">{items}</ul>;
            })()}
          </section>
          <Comments
            api={api}
            workflowId={session.workflowId}
            comments={comments}
            fields={fields}
            currentField={current}
            readOnly={workflowStatus === 'VOID'}
            onAdded={(comment) => setComments((list) => [...list, comment])}
          />
        </aside>
      </div>
    </Shell>
  );
}

function Banner({ title, text }: { title: string; text: string }) {
  return (
    <section className="banner" aria-labelledby="banner-heading">
      <h2 id="banner-heading">{title}</h2>
      {text && <p>{text}</p>}
    </section>
  );
}

function OutcomeBanner({
  outcome,
  workflowStatus,
  sealStatus,
}: {
  outcome: Outcome | null;
  workflowStatus: string;
  sealStatus: string;
}) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  let title = t.doneSignedTitle;
  let lines: string[] = [];
  if (outcome?.kind === 'approved') title = t.doneApprovedTitle;
  if (outcome?.kind === 'declined') {
    title = t.declinedTitle;
    lines = [t.declinedText];
  } else if (outcome?.kind === 'delegated') {
    title = t.delegatedTitle;
    lines = [t.delegatedText(outcome.name, outcome.email)];
  } else if (workflowStatus === 'COMPLETED') {
    if (!outcome) title = t.doneSealed;
    lines = [sealStatus === 'SEALED' ? t.doneSealed : t.doneCompleted];
    if (!outcome) lines = sealStatus === 'SEALED' ? [] : [t.doneCompleted];
  } else {
    lines = [t.doneWaiting];
  }
  return (
    <section className="banner success" aria-labelledby="outcome-heading">
      <h2 id="outcome-heading" ref={heading} tabIndex={-1}>
        {title}
      </h2>
      {lines.map((line) => (
        <p key={line} role="status">
          {line}
        </p>
      ))}
    </section>
  );
}

function Downloads({ api, workflowId, documents }: { api: Api; workflowId: number; documents: DocumentItem[] }) {
  const [error, setError] = useState<string | null>(null);
  const get = async (query: string) => {
    setError(null);
    try {
      const file = await api.download(`/document/v1/download/${workflowId}?${query}`);
      saveFile(file.blob, file.filename);
    } catch {
      setError(t.downloadFailed);
    }
  };
  return (
    <section className="downloads" aria-labelledby="downloads-heading">
      <h2 id="downloads-heading">{t.downloadsHeading}</h2>
      <ul>
        {documents.map((doc) => (
          <li key={doc.id}>
            <button
              type="button"
              className="secondary"
              onClick={() => get(`selectedOption=downloadDocument&documentId=${doc.id}`)}
            >
              {t.downloadDocument(doc.documentName)}
            </button>
          </li>
        ))}
        <li>
          <button type="button" className="secondary" onClick={() => get('selectedOption=downloadCoc')}>
            {t.downloadCertificate}
          </button>
        </li>
      </ul>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** COMPLETED or APPROVED: the seal draws every value into the documents, which are then served sealed. */
function isFinishedWorkflow(status: string): boolean {
  return status === 'COMPLETED' || status === 'APPROVED';
}

/** The service answers LINK_EXPIRED with `{workflowStatus: 'VOID'}` for the link of an envelope voided before this recipient finished. */
function isVoidedLink(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { workflowStatus?: unknown }).workflowStatus === 'VOID';
}
