import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { Db, DbOrTx, Tx } from '../../platform/db/client.ts';
import { normalizeImageValue } from '../signing/field-values.ts';
import {
  clearDefault,
  countAssetsOfKind,
  deleteAsset,
  findAsset,
  findAssetIdsOfUser,
  findAssets,
  findDefaultAsset,
  findSignatureSettings,
  insertAsset,
  lockLibrary,
  promoteNewest,
  updateAsset,
  upsertSignatureSettings,
  type AssetValues,
  type SignatureAssetRow,
} from './signature-library.repo.ts';
import type {
  AssetKind,
  LegacySignaturesBody,
  LegacySignaturesResponse,
  LibraryEntryBody,
} from './signature-library.schemas.ts';
import { renderTypedSignature } from './typed-signature.ts';

/** Decoded size cap of a library image, before and after normalisation. */
export const MAX_LIBRARY_IMAGE_BYTES = 1024 * 1024;
/** Entries one user may keep per kind. */
export const MAX_ENTRIES_PER_KIND = 10;
/** Characters a typed signature may have. */
export const MAX_TYPED_LENGTH = 50;

const DATA_URL_PREFIX = 'data:image/png;base64,';

/**
 * The signed-in user's saved signatures, initials and stamps (SPEC.md "Signature library entry"; RUNTIME.md's
 * entry shape). Each kind that has entries has exactly one default: the first entry of a kind becomes it, and
 * when the default goes (deleted, or moved to another kind) the newest remaining entry of its kind takes over.
 */
export function createSignatureLibraryService({ db }: { db: Db }) {
  return { list, add, update, remove, makeDefault, readLegacy, saveLegacy };

  async function list(caller: UserCaller): Promise<SignatureAssetRow[]> {
    return findAssets(db, caller.userId);
  }

  async function add(caller: UserCaller, body: LibraryEntryBody): Promise<SignatureAssetRow> {
    const values = await entryValues(body);
    return db.transaction(async (tx) => {
      await lockLibrary(tx, caller.userId);
      await assertRoom(tx, caller.userId, values.kind);
      const hasDefault = (await findDefaultAsset(tx, caller.userId, values.kind)) !== null;
      return insertAsset(tx, caller.userId, { ...values, isDefault: !hasDefault });
    });
  }

  /** Replaces the entry's members (PUT). A change of kind moves it: it leaves its old kind's default behind, and is the new kind's default only if that kind had none. */
  async function update(caller: UserCaller, id: number, body: LibraryEntryBody): Promise<SignatureAssetRow> {
    const values = await entryValues(body);
    return db.transaction(async (tx) => {
      await lockLibrary(tx, caller.userId);
      const entry = await ownEntry(tx, caller, id);
      if (entry.kind === values.kind) return updateAsset(tx, id, values);
      await assertRoom(tx, caller.userId, values.kind);
      const hasDefault = (await findDefaultAsset(tx, caller.userId, values.kind)) !== null;
      const moved = await updateAsset(tx, id, { ...values, isDefault: !hasDefault });
      if (entry.isDefault) await promoteNewest(tx, caller.userId, entry.kind);
      return moved;
    });
  }

  async function remove(caller: UserCaller, id: number): Promise<void> {
    await db.transaction(async (tx) => {
      await lockLibrary(tx, caller.userId);
      const entry = await ownEntry(tx, caller, id);
      await deleteAsset(tx, id);
      if (entry.isDefault) await promoteNewest(tx, caller.userId, entry.kind);
    });
  }

  async function makeDefault(caller: UserCaller, id: number): Promise<SignatureAssetRow> {
    return db.transaction(async (tx) => {
      await lockLibrary(tx, caller.userId);
      const entry = await ownEntry(tx, caller, id);
      if (entry.isDefault) return entry;
      await clearDefault(tx, caller.userId, entry.kind);
      return updateAsset(tx, id, { isDefault: true });
    });
  }

  async function readLegacy(caller: UserCaller): Promise<LegacySignaturesResponse> {
    const [signature, initials, settings] = await Promise.all([
      findDefaultAsset(db, caller.userId, 'SIGNATURE'),
      findDefaultAsset(db, caller.userId, 'INITIALS'),
      findSignatureSettings(db, caller.userId),
    ]);
    return {
      image: signature?.image ?? null,
      initialImage: initials?.image ?? null,
      digitalSignatures: settings ? { source: settings.source, csc: { userName: settings.cscUserName } } : null,
    };
  }

  /**
   * The legacy single pair: `image` and `initialImage` replace the images of the default SIGNATURE and INITIALS
   * entries (as drawn), creating them when the kind has none; `digitalSignatures` is stored as given. A member
   * left out is left as it is.
   */
  async function saveLegacy(caller: UserCaller, body: LegacySignaturesBody): Promise<LegacySignaturesResponse> {
    const image = body.image === undefined ? undefined : await normalizeLibraryImage(body.image, 'image');
    const initialImage =
      body.initialImage === undefined ? undefined : await normalizeLibraryImage(body.initialImage, 'initialImage');
    await db.transaction(async (tx) => {
      await lockLibrary(tx, caller.userId);
      if (image !== undefined) await replaceDefaultImage(tx, caller.userId, 'SIGNATURE', 'Signature', image);
      if (initialImage !== undefined)
        await replaceDefaultImage(tx, caller.userId, 'INITIALS', 'Initials', initialImage);
      if (body.digitalSignatures) {
        await upsertSignatureSettings(tx, caller.userId, {
          source: body.digitalSignatures.source,
          cscUserName: body.digitalSignatures.csc?.userName?.trim() || null,
        });
      }
    });
    return readLegacy(caller);
  }

  async function replaceDefaultImage(
    tx: Tx,
    userId: number,
    kind: AssetKind,
    name: string,
    image: string,
  ): Promise<void> {
    const current = await findDefaultAsset(tx, userId, kind);
    if (current) await updateAsset(tx, current.id, { image, captureMode: 'DRAW' });
    else {
      await assertRoom(tx, userId, kind);
      await insertAsset(tx, userId, { kind, name, captureMode: 'DRAW', image, isDefault: true });
    }
  }

  async function ownEntry(tx: Tx, caller: UserCaller, id: number): Promise<SignatureAssetRow> {
    const entry = await findAsset(tx, caller.userId, id);
    if (!entry) throw new AppError('NOT_FOUND', 'Signature library entry not found');
    return entry;
  }

  async function assertRoom(tx: DbOrTx, userId: number, kind: string): Promise<void> {
    if ((await countAssetsOfKind(tx, userId, kind)) >= MAX_ENTRIES_PER_KIND) {
      throw new AppError('SIGNATURE_LIBRARY_FULL', `At most ${MAX_ENTRIES_PER_KIND} ${kind} entries; delete one first`);
    }
  }
}

/**
 * What is stored for a body: the image sent, decoded and normalised, whatever the mode (RUNTIME.md: every mode takes the
 * same members; a client may render a typed signature itself); for TYPE without an image, one the service writes from the
 * name. Done before any transaction: it is slow.
 */
async function entryValues(body: LibraryEntryBody): Promise<AssetValues> {
  const name = body.name.trim();
  if (name === '') throw new AppError('INVALID_REQUEST_BODY', 'name must not be blank');
  if (body.captureMode === 'UPLOAD' && body.kind !== 'STAMP')
    throw new AppError(
      'INVALID_REQUEST_BODY',
      'captureMode UPLOAD is for stamps only; draw or type a signature or initials',
    );
  if (body.captureMode === 'TYPE' && body.image === undefined) {
    if ([...name].length > MAX_TYPED_LENGTH)
      throw new AppError('INVALID_REQUEST_BODY', `A typed signature has at most ${MAX_TYPED_LENGTH} characters`);
    const png = await renderTypedSignature(name, body.font ?? 'DANCING_SCRIPT');
    return {
      kind: body.kind,
      name,
      captureMode: 'TYPE',
      image: await normalizeLibraryImage(`${DATA_URL_PREFIX}${png.toString('base64')}`, 'image'),
    };
  }
  if (body.image === undefined)
    throw new AppError(
      'INVALID_REQUEST_BODY',
      `captureMode ${body.captureMode} needs image (a data:image/png;base64 URL)`,
    );
  return {
    kind: body.kind,
    name,
    captureMode: body.captureMode,
    image: await normalizeLibraryImage(body.image, 'image'),
  };
}

/**
 * The signing ceremony's image check and re-encoding (full decode, plain 8-bit RGBA PNG, at most 2048 px a
 * side; PNG only), so a library image is exactly what a SIGNATURE, INITIALS or STAMP field accepts; within
 * 1 MB before and after.
 */
async function normalizeLibraryImage(dataUrl: string, member: string): Promise<string> {
  const base64Length = dataUrl.length - DATA_URL_PREFIX.length;
  if (dataUrl.toLowerCase().startsWith(DATA_URL_PREFIX) && base64Length * 0.75 > MAX_LIBRARY_IMAGE_BYTES + 2) {
    throw new AppError(
      'SIGNATURE_IMAGE_INVALID',
      `${member}: the image is ${megabytes(base64Length * 0.75)} MB; at most 1 MB`,
    );
  }
  let normalized: string;
  try {
    normalized = await normalizeImageValue({ id: 0, fieldType: 'IMAGE' }, dataUrl);
  } catch (error) {
    if (error instanceof AppError && error.code === 'INVALID_FIELD_VALUE') {
      throw new AppError('SIGNATURE_IMAGE_INVALID', `${member}: ${error.message.replace(/^Field 0 \(IMAGE\): /, '')}`);
    }
    throw error;
  }
  const storedBytes = (normalized.length - DATA_URL_PREFIX.length) * 0.75;
  if (storedBytes > MAX_LIBRARY_IMAGE_BYTES) {
    throw new AppError(
      'SIGNATURE_IMAGE_INVALID',
      `${member}: normalised to 8-bit RGBA the image is ${megabytes(storedBytes)} MB; at most 1 MB (send a smaller or simpler image)`,
    );
  }
  return normalized;
}

function megabytes(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

/** The user's saved digital-signature source and CSC account name (RUNTIME.md "CSC identity"), for the signing modules. */
export async function findDigitalSignatureSettings(
  db: DbOrTx,
  userId: number,
): Promise<{ source: string; cscUserName: string | null } | null> {
  const row = await findSignatureSettings(db, userId);
  return row ? { source: row.source, cscUserName: row.cscUserName } : null;
}

/**
 * Which of `assetIds` are entries of `userId`'s own library: the ceremony's check of a saved field's
 * signatureAssetId (a signer links only their own entries; SPEC.md rule 1: the id is never dereferenced).
 */
export async function findOwnAssetIds(db: DbOrTx, userId: number, assetIds: number[]): Promise<Set<number>> {
  return findAssetIdsOfUser(db, userId, assetIds);
}

export type SignatureLibraryService = ReturnType<typeof createSignatureLibraryService>;
