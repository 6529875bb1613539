import { Compile } from 'typebox/compile';
import { AppError } from '../../errors.ts';
import type { Caller, UserCaller } from '../../http/authenticate.ts';
import type { Db } from '../../platform/db/client.ts';
import { InvalidImageError, type ImageNormalizer } from '../../platform/images/normalize-image.ts';
import { QueueFullError } from '../../platform/pdf/bounded-queue.ts';
import type { BlobStore } from '../../platform/storage/blob-store.ts';
import { findWorkflowForCaller } from '../workflows/workflow-access.ts';
import { deleteBranding, findBranding, isLogoInUse, saveBranding } from './branding.repo.ts';
import {
  BrandingSettings,
  LOGO_MAX_SIDE,
  toBrandingResponse,
  toSigningBranding,
  type BrandingResponse,
  type SigningBrandingResponse,
} from './branding.schemas.ts';

const settingsValidator = Compile(BrandingSettings);

/**
 * An organization's look (SPEC.md "Organization: branding"): colour, sender name and logo. The mail outbox
 * reads it for every mail of the organization (platform/mail/branding.ts), the signing page through
 * `forWorkflow`. Logos are decoded and re-encoded as PNG before they are stored, so what is served is always
 * an image this service wrote.
 */
export function createBrandingService({ db, blobs, images }: { db: Db; blobs: BlobStore; images: ImageNormalizer }) {
  return { get, update, reset, logo, publicLogo, forWorkflow };

  async function get(caller: UserCaller): Promise<BrandingResponse> {
    return toBrandingResponse(await findBranding(db, caller.organizationId));
  }

  /** PUT: settingsJson replaces colour and sender name; the logo is replaced by a new one, dropped by removeLogo, else kept. */
  async function update(
    caller: UserCaller,
    input: { settingsJson: string | undefined; logo: Uint8Array | null },
  ): Promise<void> {
    assertPerson(caller);
    const settings = parseSettings(input.settingsJson);
    if (settings.removeLogo && input.logo)
      throw new AppError('INVALID_BRANDING_SETTINGS', 'removeLogo is true and a logo was sent: do one or the other');
    // Decoding is slow and runs before the transaction, so no row is locked while a worker decodes.
    const stored = input.logo ? await blobs.put(await normalizeLogo(input.logo)) : null;
    await db.transaction(async (tx) => {
      const current = await findBranding(tx, caller.organizationId);
      const logoBlobKey = stored?.key ?? (settings.removeLogo ? null : (current?.logoBlobKey ?? null));
      const primaryColor = settings.primaryColor?.toLowerCase() ?? null;
      const senderName = settings.senderName?.trim().replace(/\s+/g, ' ') ?? null;
      // Nothing set is the platform default: no row, exactly as after a reset.
      if (!primaryColor && !senderName && !logoBlobKey) return deleteBranding(tx, caller.organizationId);
      await saveBranding(tx, {
        organizationId: caller.organizationId,
        primaryColor,
        senderName,
        logoBlobKey,
        updatedByUserId: caller.userId,
      });
    });
  }

  /** GET branding-reset (SPEC.md): back to the platform default; answers what GET now shows. */
  async function reset(caller: UserCaller): Promise<BrandingResponse> {
    assertPerson(caller);
    await deleteBranding(db, caller.organizationId);
    return toBrandingResponse(null);
  }

  async function logo(caller: UserCaller): Promise<Uint8Array> {
    const row = await findBranding(db, caller.organizationId);
    if (!row?.logoBlobKey) throw new AppError('NOT_FOUND', 'The organization has no logo');
    return blobs.get(row.logoBlobKey);
  }

  /**
   * A logo by its address, without a token (mail clients and the signing page's <img> send none). Only a blob
   * some organization shows as its logo is served: the blob store also holds every document.
   */
  async function publicLogo(logoKey: string): Promise<Uint8Array> {
    if (!(await isLogoInUse(db, logoKey))) throw new AppError('NOT_FOUND', 'Logo not found');
    return blobs.get(logoKey);
  }

  /** The look of the organization a workflow belongs to, for whoever may open the workflow (a guest included); others 404. */
  async function forWorkflow(caller: Caller, workflowId: number): Promise<SigningBrandingResponse> {
    // The page frames even the recipient-password step in the sender's look, so that step does not hide it.
    const { workflow } = await findWorkflowForCaller(db, caller, workflowId, { beforeRecipientPassword: true });
    return toSigningBranding(await findBranding(db, workflow.organizationId));
  }

  async function normalizeLogo(bytes: Uint8Array): Promise<Uint8Array> {
    if (bytes.length === 0) throw new AppError('INVALID_LOGO', 'The logo part is empty');
    try {
      return (await images.toPng(bytes, { maxSide: LOGO_MAX_SIDE })).png;
    } catch (error) {
      if (error instanceof InvalidImageError)
        throw new AppError('INVALID_LOGO', `The logo is refused: ${error.message}`);
      if (error instanceof QueueFullError)
        throw new AppError('SERVICE_UNAVAILABLE', 'Too many images are being decoded; try again shortly', undefined, {
          retryAfterSeconds: images.retryAfterSeconds,
        });
      throw error;
    }
  }
}

/** Branding changes are a person's: a partner's client token may read the branding but not change it. */
function assertPerson(caller: UserCaller): void {
  if (caller.appId !== undefined)
    throw new AppError('USER_NOT_HAVE_ACCESS', "A business app cannot change the organization's branding");
}

function parseSettings(json: string | undefined): BrandingSettings {
  if (json === undefined) throw new AppError('INVALID_BRANDING_SETTINGS', 'The part "settingsJson" is missing');
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new AppError('INVALID_BRANDING_SETTINGS', 'settingsJson is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new AppError('INVALID_BRANDING_SETTINGS', 'settingsJson must be a JSON object');
  if (!settingsValidator.Check(value)) {
    const problems = [...settingsValidator.Errors(value)].map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new AppError('INVALID_BRANDING_SETTINGS', `settingsJson: ${problems.join('; ')}`, { problems });
  }
  return value;
}

export type BrandingService = ReturnType<typeof createBrandingService>;
