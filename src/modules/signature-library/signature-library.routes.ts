import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { userOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { SignatureLibraryService } from './signature-library.service.ts';
import {
  EntryIdParams,
  IMAGE_BODY_LIMIT,
  LegacySignaturesBody,
  LegacySignaturesResponse,
  LibraryEntry,
  LibraryEntryBody,
  toLibraryEntry,
} from './signature-library.schemas.ts';

const OWN = "Only the caller's own entries (404 otherwise).";
const IMAGES =
  'Images are PNG data URLs of at most 1 MB, decoded in full and stored re-encoded (8-bit RGBA, at most 2048 px a side, ' +
  'still at most 1 MB); anything else is 400 SIGNATURE_IMAGE_INVALID. JPEG is refused (PNG only).';
const BODY =
  `${IMAGES} Every captureMode takes the same members {kind, name, image, captureMode}; UPLOAD only for STAMP (else 400 ` +
  'INVALID_REQUEST_BODY); DRAW and UPLOAD need image; TYPE takes image too (a typed name the client rendered), and without one the service ' +
  'writes name (at most 50 characters) in font (DANCING_SCRIPT, LIBERATION_SANS, LIBERATION_SANS_ITALIC) as a PNG. At most 10 entries per ' +
  'kind: 400 SIGNATURE_LIBRARY_FULL.';

export function signatureLibraryRoutes(library: SignatureLibraryService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['User settings'];

    app.get(
      '/user/v1/settings/signatures/library',
      {
        schema: {
          tags,
          summary: "The caller's signature library",
          description: 'Every entry, by kind, oldest first.',
          response: { 200: Type.Array(LibraryEntry), ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) => (await library.list(userOf(request))).map(toLibraryEntry),
    );

    app.post(
      '/user/v1/settings/signatures/library',
      {
        schema: {
          tags,
          summary: 'Add a signature, initials or stamp',
          description: `The first entry of a kind becomes its default. ${BODY} Answers 200 with the entry.`,
          body: LibraryEntryBody,
          response: { 200: LibraryEntry, ...errorResponses },
        },
        bodyLimit: IMAGE_BODY_LIMIT,
        config: { auth: 'user' },
      },
      async (request) => toLibraryEntry(await library.add(userOf(request), request.body)),
    );

    app.put(
      '/user/v1/settings/signatures/library/:id',
      {
        schema: {
          tags,
          summary: 'Replace an entry',
          description:
            `${OWN} Takes the same members as POST. Changing kind moves the entry: its old kind's default passes to the newest entry left ` +
            `of that kind, and it becomes the new kind's default only if that kind had none. ${BODY}`,
          params: EntryIdParams,
          body: LibraryEntryBody,
          response: { 200: LibraryEntry, ...errorResponses },
        },
        bodyLimit: IMAGE_BODY_LIMIT,
        config: { auth: 'user' },
      },
      async (request) => toLibraryEntry(await library.update(userOf(request), request.params.id, request.body)),
    );

    app.delete(
      '/user/v1/settings/signatures/library/:id',
      {
        schema: {
          tags,
          summary: 'Delete an entry',
          description:
            `${OWN} When it was its kind's default, the newest entry left of that kind becomes the default. Fields that linked it ` +
            '(signatureAssetId) keep the image they were saved with. Answers 204.',
          params: EntryIdParams,
          response: { 204: Type.Null(), ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request, reply) => {
        await library.remove(userOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.put(
      '/user/v1/settings/signatures/library/:id/default',
      {
        schema: {
          tags,
          summary: 'Make an entry the default of its kind',
          description: `${OWN} The kind's previous default stops being it. Answers the entry.`,
          params: EntryIdParams,
          response: { 200: LibraryEntry, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) => toLibraryEntry(await library.makeDefault(userOf(request), request.params.id)),
    );

    app.get(
      '/user/v1/settings/signatures',
      {
        schema: {
          tags,
          summary: 'The legacy signature pair and digital-signature settings',
          description:
            'image and initialImage are the default SIGNATURE and INITIALS entries of the library (null: none).',
          response: { 200: LegacySignaturesResponse, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) => library.readLegacy(userOf(request)),
    );

    app.put(
      '/user/v1/settings/signatures',
      {
        schema: {
          tags,
          summary: 'Save the legacy signature pair and digital-signature settings',
          description:
            'image and initialImage replace the images of the default SIGNATURE and INITIALS library entries (captureMode DRAW), ' +
            'creating "Signature" and "Initials" entries when the kind has none. digitalSignatures {source: CSC_2 | LOCAL, csc: {userName}} ' +
            "names the CSC account remote signing uses (default: the user's email). A member left out is unchanged. " +
            `${IMAGES} Answers the saved state, as GET.`,
          body: LegacySignaturesBody,
          response: { 200: LegacySignaturesResponse, ...errorResponses },
        },
        bodyLimit: IMAGE_BODY_LIMIT,
        config: { auth: 'user' },
      },
      async (request) => library.saveLegacy(userOf(request), request.body),
    );
  };
}
