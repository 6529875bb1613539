import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { callerOf, userOf } from '../../http/authenticate.ts';
import { multipartError } from '../../http/multipart.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { BrandingService } from './branding.service.ts';
import {
  BrandingForm,
  BrandingResponse,
  LOGO_MAX_BYTES,
  LogoKeyParams,
  SigningBrandingResponse,
  WorkflowIdParams,
} from './branding.schemas.ts';

const PUT_DESCRIPTION =
  'Owner only. multipart/form-data: the text part `settingsJson` (a JSON object: primaryColor `#RRGGBB`, senderName 1-60 ' +
  'characters, removeLogo; a member left out or null is the platform default, an unknown member is refused) and optionally the file part ' +
  '`logo`: PNG or JPEG, at most 1 MB, decoded in full and stored re-encoded as a PNG of at most 512 px (an SVG, any other format or a ' +
  'damaged image: 400 INVALID_LOGO; larger: 400 LOGO_TOO_LARGE). Without a logo part the stored logo stays. Malformed settingsJson: ' +
  '400 INVALID_BRANDING_SETTINGS. Answers 204. The branding applies to every mail the organization sends and to its signing pages.';

const IMAGE_PNG = {
  200: { description: 'the logo as a PNG', content: { 'image/png': { schema: Type.String({ format: 'binary' }) } } },
};

export function brandingRoutes(branding: BrandingService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Branding'];

    app.get(
      '/organization/v1/branding',
      {
        schema: {
          tags,
          summary: "The organization's branding",
          description: 'The owner and every member, whatever their role (the BRANDING right governs changes only).',
          response: { 200: BrandingResponse, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) => branding.get(userOf(request)),
    );

    app.put(
      '/organization/v1/branding',
      {
        schema: {
          tags,
          summary: "Set the organization's branding (multipart)",
          description: PUT_DESCRIPTION,
          consumes: ['multipart/form-data'],
          body: { content: { 'multipart/form-data': { schema: BrandingForm } } },
          response: { 204: Type.Null(), ...errorResponses, 503: Type.Ref('ErrorResponse') },
        } as never,
        config: { auth: { owner: true } },
      },
      async (request, reply) => {
        const caller = userOf(request);
        await branding.update(caller, await readBrandingForm(request, reply));
        return reply.status(204).send();
      },
    );

    app.get(
      '/organization/v1/branding-reset',
      {
        schema: {
          tags,
          summary: "Restore the platform's default branding",
          description:
            'Owner only. Drops colour, sender name and logo; answers the branding as GET now shows it. With the web session cookie it needs X-CSRF-Token (a GET that writes).',
          response: { 200: BrandingResponse, ...errorResponses },
        },
        config: { auth: { owner: true }, writes: true },
      },
      async (request) => branding.reset(userOf(request)),
    );

    app.get(
      '/organization/v1/logo',
      {
        schema: {
          tags,
          summary: "The organization's logo",
          description: 'The owner and every member, whatever their role. 404 when the organization has none.',
          response: { ...IMAGE_PNG, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request, reply) => {
        const png = await branding.logo(userOf(request));
        return reply.type('image/png').header('cache-control', 'private, no-cache').send(Buffer.from(png));
      },
    );

    app.get(
      '/branding/v1/logos/:logoKey',
      {
        schema: {
          tags,
          summary: 'A logo by its address (no token)',
          description:
            "What mail and the signing page show. The address is the logo's SHA-256 (logoUrl); only a blob that some organization uses as its logo is served, anything else is 404. Immutable.",
          params: LogoKeyParams,
          response: { ...IMAGE_PNG, 400: errorResponses[400], 404: errorResponses[404] },
        },
        config: { auth: 'public' },
      },
      async (request, reply) => {
        const png = await branding.publicLogo(request.params.logoKey);
        // Content-addressed: the bytes behind an address never change.
        return reply
          .type('image/png')
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('cross-origin-resource-policy', 'cross-origin')
          .send(Buffer.from(png));
      },
    );

    app.get(
      '/workflow/v1/:workflowId/branding',
      {
        schema: {
          tags,
          summary: "The sender organization's branding, for the signing page",
          description:
            'The owner, a registered recipient once the workflow has left DRAFT, or the signing-link token of this workflow (before its recipient password too); anyone else 404. ' +
            "Null members: the platform's look.",
          params: WorkflowIdParams,
          response: { 200: SigningBrandingResponse, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) => branding.forWorkflow(callerOf(request), request.params.workflowId),
    );
  };
}

/**
 * The PUT form: the text part settingsJson and at most one file, `logo`, read into memory up to 1 MB. A larger
 * file is refused as soon as the limit is passed, and the connection is closed rather than reading the rest.
 */
async function readBrandingForm(
  request: FastifyRequest,
  reply: { header(name: string, value: string): unknown },
): Promise<{ settingsJson: string | undefined; logo: Uint8Array | null }> {
  if (!request.isMultipart())
    throw new AppError(
      'BAD_REQUEST_BODY',
      'Send multipart/form-data with the text part "settingsJson" and optionally the file part "logo"',
    );
  let settingsJson: string | undefined;
  let logo: Uint8Array | null = null;
  try {
    for await (const part of request.parts({
      limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 2, fieldSize: 16 * 1024, parts: 3 },
    })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'logo') {
          part.file.resume();
          throw new AppError(
            'BAD_REQUEST_BODY',
            `Unexpected file in the part "${part.fieldname}"; send the logo in the part "logo"`,
          );
        }
        logo = await part.toBuffer();
      } else if (part.fieldname === 'settingsJson') {
        if (part.valueTruncated) throw new AppError('INVALID_BRANDING_SETTINGS', 'settingsJson is longer than 16 KB');
        settingsJson = String(part.value);
      } else if (part.fieldname === 'logo') {
        throw new AppError('INVALID_LOGO', 'The part "logo" must be a file upload, not a text field');
      } else {
        throw new AppError(
          'BAD_REQUEST_BODY',
          `Unexpected part "${part.fieldname}"; send "settingsJson" and optionally "logo"`,
        );
      }
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      reply.header('connection', 'close');
      throw new AppError('LOGO_TOO_LARGE', `The logo is larger than ${LOGO_MAX_BYTES / 1024 / 1024} MB`);
    }
    if ((error as { code?: string }).code === 'FST_FILES_LIMIT')
      throw new AppError('BAD_REQUEST_BODY', 'Send at most one file, in the part "logo"');
    throw multipartError(error);
  }
  return { settingsJson, logo };
}
