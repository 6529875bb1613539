/**
 * Branding: colour, sender name and logo, with a live preview of the two places they show: the signing page's
 * bar (drawn with the signing page's own classes and its contrast rule, accessibleBrandColour) and the header of
 * the organization's mail (the mail layout's top rule, logo, button and sign-off). Only the owner saves; others
 * see the form read-only.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import { t as signingText } from '../i18n/signing/index.ts';
import { accessibleBrandColour } from '../signing/branding.ts';
import { formatNumber } from '../i18n/language.ts';
import { formatDateTime } from '../workspace/ui.tsx';
import { ApiErrorText, StatusLine, TextField, useResource } from './kit.tsx';
import { ConfirmAction } from './MembersSection.tsx';
import { orgText as text } from '../i18n/organization/index.ts';
import { PRODUCT_NAME } from '../shared/product.ts';
import { orgApi, type Branding } from './org-api.ts';
import { Skeleton } from '../shared/Skeleton.tsx';

const HEX = /^#[0-9a-fA-F]{6}$/;
/** The platform's look when nothing is set: the signing page's blue and the mail layout's colour and name. */
const PLATFORM_PAGE_COLOUR = '#1d4ed8';
const PLATFORM_MAIL_COLOUR = '#1f4e79';
const LOGO_MAX_BYTES = 1024 * 1024;

export function BrandingSection({ isOwner }: { isOwner: boolean }) {
  const branding = useResource(() => orgApi.branding(), []);
  // A reset starts the form again from the platform's look; a save keeps what is typed (and its status line).
  const [generation, setGeneration] = useState(0);
  if (branding.error)
    return (
      <section aria-labelledby="st-section-title">
        <h2 id="st-section-title">{text.sectionTitles.branding}</h2>
        <ApiErrorText error={branding.error} />
      </section>
    );
  if (!branding.data) return <Skeleton shape="form" label={text.loading} withHeading={false} />;
  return (
    <BrandingForm
      key={generation}
      saved={branding.data}
      isOwner={isOwner}
      onSaved={(b) => branding.setData(b)}
      onReset={(b) => {
        branding.setData(b);
        setGeneration((n) => n + 1);
      }}
    />
  );
}

function BrandingForm({
  saved,
  isOwner,
  onSaved,
  onReset,
}: {
  saved: Branding;
  isOwner: boolean;
  onSaved: (branding: Branding) => void;
  onReset: (branding: Branding) => void;
}) {
  const [colour, setColour] = useState(saved.primaryColor ?? '');
  const [senderName, setSenderName] = useState(saved.senderName ?? '');
  const [logo, setLogo] = useState<File | null>(null);
  const [logoError, setLogoError] = useState<string | null>(null);
  const [removeLogo, setRemoveLogo] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const [resetting, setResetting] = useState(false);
  const [fileKey, setFileKey] = useState(0);
  const logoInput = useId();
  const logoHint = useId();
  const logoErrorId = useId();

  const validColour = HEX.test(colour) ? colour : null;
  const colourError = colour && !validColour ? text.colourRule : null;
  const newLogoUrl = useMemo(() => (logo ? URL.createObjectURL(logo) : null), [logo]);
  useEffect(
    () => () => {
      if (newLogoUrl) URL.revokeObjectURL(newLogoUrl);
    },
    [newLogoUrl],
  );
  const previewLogo = removeLogo ? null : (newLogoUrl ?? saved.logoUrl);

  function chooseLogo(file: File | null) {
    setLogoError(null);
    if (!file) return setLogo(null);
    if (!['image/png', 'image/jpeg'].includes(file.type)) {
      setLogo(null);
      return setLogoError(text.logoType);
    }
    if (file.size > LOGO_MAX_BYTES) {
      setLogo(null);
      return setLogoError(text.logoSize);
    }
    setRemoveLogo(false);
    setLogo(file);
  }

  async function save() {
    if (colourError || logoError) return;
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      await orgApi.saveBranding(
        {
          primaryColor: validColour,
          senderName: senderName.trim() || null,
          ...(removeLogo ? { removeLogo: true } : {}),
        },
        removeLogo ? null : logo,
      );
      onSaved(await orgApi.branding());
      setLogo(null);
      setRemoveLogo(false);
      setFileKey((n) => n + 1);
      setDone(text.brandingSaved);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="st-section-title">
      <h2 id="st-section-title">{text.sectionTitles.branding}</h2>
      <p className="ws-muted">
        {saved.isDefault ? text.brandingDefault : text.brandingUpdated(formatDateTime(saved.updatedAt))}
      </p>
      {!isOwner && <p className="ws-muted">{text.ownerOnlyBranding}</p>}
      <div className="st-branding">
        <form
          className="st-branding-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
          noValidate
        >
          <fieldset disabled={!isOwner || busy} className="st-fieldset st-plain">
            <legend className="visually-hidden">{text.brandingFormLegend}</legend>
            <div className="st-colour-row">
              <TextField
                label={text.colourLabel}
                value={colour}
                onChange={setColour}
                hint={text.colourHint}
                maxLength={7}
                error={colourError}
              />
              <div className="st-field">
                <label htmlFor="st-colour-picker" className="st-label">
                  {text.colourPicker}
                </label>
                <input
                  id="st-colour-picker"
                  type="color"
                  className="st-colour-picker"
                  value={(validColour ?? PLATFORM_PAGE_COLOUR).toLowerCase()}
                  onChange={(e) => setColour(e.target.value)}
                />
              </div>
            </div>
            <TextField
              label={text.senderNameLabel}
              value={senderName}
              onChange={setSenderName}
              hint={text.senderNameHint}
              maxLength={60}
            />
            <div className="st-field">
              <label htmlFor={logoInput} className="st-label">
                {text.logoLabel}
              </label>
              <input
                key={fileKey}
                id={logoInput}
                type="file"
                accept="image/png,image/jpeg"
                aria-describedby={`${logoHint}${logoError ? ` ${logoErrorId}` : ''}`}
                aria-invalid={logoError ? true : undefined}
                onChange={(e) => chooseLogo(e.target.files?.[0] ?? null)}
              />
              <p id={logoHint} className="st-hint">
                {text.logoHint}
              </p>
              {logoError && (
                <p id={logoErrorId} className="ws-field-error" role="alert">
                  {logoError}
                </p>
              )}
            </div>
            {saved.logoUrl && (
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={removeLogo}
                  onChange={(e) => {
                    setRemoveLogo(e.target.checked);
                    if (e.target.checked) setLogo(null);
                  }}
                />{' '}
                {text.removeLogo}
              </label>
            )}
            {error ? <ApiErrorText error={error} /> : null}
            <div className="ws-actions">
              <button type="submit" className="ws-button ws-button--primary">
                {busy ? text.saving : text.saveBranding}
              </button>
              {!saved.isDefault && (
                <button type="button" className="ws-button" onClick={() => setResetting(true)}>
                  {text.resetBranding}
                </button>
              )}
            </div>
          </fieldset>
          <StatusLine message={done} />
        </form>
        <BrandingPreview colour={validColour} senderName={senderName.trim() || null} logoUrl={previewLogo} />
      </div>
      {resetting && (
        <ConfirmAction
          title={text.resetTitle}
          description={text.resetText}
          submitLabel={text.resetBranding}
          run={() => orgApi.resetBranding()}
          onClose={() => setResetting(false)}
          onDone={() => {
            setResetting(false);
            void orgApi.branding().then(onReset);
          }}
        />
      )}
    </section>
  );
}

/** WCAG contrast of white text on a colour. */
function contrastWithWhite(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05);
}

export function BrandingPreview({
  colour,
  senderName,
  logoUrl,
}: {
  colour: string | null;
  senderName: string | null;
  logoUrl: string | null;
}) {
  const pageColour = accessibleBrandColour(colour) ?? PLATFORM_PAGE_COLOUR;
  const mailColour = colour ?? PLATFORM_MAIL_COLOUR;
  const mailName = senderName ?? PRODUCT_NAME;
  const weakMailButton = colour ? contrastWithWhite(colour) < 4.5 : false;
  return (
    <div className="st-preview" aria-labelledby="st-preview-title" role="group">
      <h3 id="st-preview-title">{text.previewTitle}</h3>
      <figure className="st-preview-figure">
        <figcaption>{text.previewSigning}</figcaption>
        <div
          className="st-preview-signing"
          data-testid="signing-preview"
          style={{ ['--brand-color' as string]: pageColour }}
        >
          <div className="brand-bar">
            {logoUrl && (
              <img
                className="brand-logo"
                src={logoUrl}
                alt={signingText.brandLogoAlt(senderName ?? signingText.appName)}
              />
            )}
            <span className="brand-name">{signingText.appName}</span>
            {senderName && <span className="brand-sender">{signingText.from(senderName)}</span>}
          </div>
          <div className="st-preview-body">
            <p className="st-preview-heading">{text.previewDocument}</p>
            <span className="st-preview-button">{text.previewFinish}</span>
          </div>
        </div>
        {colour && pageColour.toLowerCase() !== colour.toLowerCase() && (
          <p className="st-hint">{text.previewDarkened(pageColour)}</p>
        )}
      </figure>
      <figure className="st-preview-figure">
        <figcaption>{text.previewMail}</figcaption>
        <div className="st-preview-mail" data-testid="mail-preview" style={{ borderTopColor: mailColour }}>
          {logoUrl && <img className="st-preview-mail-logo" src={logoUrl} alt={mailName} />}
          <p>{text.previewGreeting}</p>
          <p>{text.previewMailText}</p>
          <span className="st-preview-mail-button" style={{ background: mailColour }}>
            {text.previewMailButton}
          </span>
          <p className="st-preview-signoff">{mailName}</p>
        </div>
        {weakMailButton && (
          <p className="ws-field-error">
            {text.previewWeakContrast(
              formatNumber(contrastWithWhite(colour!), { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
            )}
          </p>
        )}
      </figure>
    </div>
  );
}
