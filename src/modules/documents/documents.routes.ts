import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { multipartError } from '../../http/multipart.ts';
import { userOf } from '../../http/authenticate.ts';
import { requestContext } from '../../http/request-context.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { DocumentListService } from './document-list.service.ts';
import type { DocumentService, ReceivedFile } from './documents.service.ts';
import {
  DocIdParams,
  DocumentResponse,
  RenameBody,
  ReplaceForm,
  UploadForm,
  UploadQuery,
  UploadResponse,
  toDocumentResponse,
} from './documents.schemas.ts';

const UPLOAD_RULES =
  'Multipart: exactly one file in the part `file` (.pdf, .doc or .docx by name, and matching content: a PDF starts with %PDF-, a .docx is an ' +
  'Office Open XML zip with word/document.xml, a .doc an OLE2 file; otherwise 400 INVALID_DOCUMENT_TYPE). At most 25 MB, not empty (else 400 INVALID_DOCUMENT_SIZE). ' +
  'A PDF carrying a signature (a signed signature field or a certification signature) is 400 DOCUMENT_ALREADY_SIGNED; an encrypted, truncated or damaged PDF is 400 INVALID_PDF. ' +
  'Word files are converted to PDF with LibreOffice (400 DOCUMENT_CONVERSION_UNAVAILABLE when it is not installed, 400 DOCUMENT_CONVERSION_FAILED when it fails or exceeds 60 s); ' +
  'only the PDF is kept. A rejected request stores nothing. ' +
  'Limits (multipart uploads and replacements alike): each account may start UPLOADS_PER_MINUTE (default 60) within a minute, counted before the file is read ' +
  'whether or not it is then accepted; beyond, 429 UPLOAD_RATE_LIMITED with Retry-After (seconds until a minute after the last counted one). ' +
  'Word conversion runs 2 at a time with 8 waiting and the page-1 thumbnail 2 at a time with 16 waiting; beyond, 503 SERVICE_UNAVAILABLE with ' +
  "Retry-After. A thumbnail that cannot be rendered within 5 s or 256 MB is a blank page of the document's shape; the upload still succeeds.";

const POST_DESCRIPTION =
  `${UPLOAD_RULES} Without workflowId a new DRAFT workflow is created, owned by the caller and named after the file (without extension, ` +
  'at most 50 characters); its sequence defaults from signType (SELFSIGN: SELF, POWERSURVEY: SURVEY, COUNTERSIGN: UNORDERED) and signType from sequence, ' +
  'neither given: UNORDERED/COUNTERSIGN; a contradictory pair is 400 INVALID_REQUEST_BODY. A SELF workflow gets its owner as its one recipient (SIGNER). ' +
  "With workflowId the document is appended (last position) to that workflow, which must be the caller's (404 when not visible, 400 INVALID_WORKFLOW_OWNER for a " +
  'recipient) and DRAFT (400 INVALID_WORKFLOW_STATUS); sequence, signType, folderId and timeZone are then ignored. Records a DOCUMENT_UPLOADED (Created) activity.';

const PUT_DESCRIPTION =
  "Two forms on one path. multipart/form-data with the part `file`: replaces the document's PDF. Owner only (400 INVALID_WORKFLOW_OWNER for a " +
  'recipient, 404 for anyone else), DRAFT only (400 INVALID_WORKFLOW_STATUS), PDF only (a .doc/.docx or any other file is 400 INVALID_DOCUMENT_TYPE), same checks ' +
  'as upload. The name, position and fields stay; when a field would lie on a page the new file lacks or outside its page, the replacement is refused with 400 ' +
  'FIELDS_OUTSIDE_DOCUMENT naming them in responseBody.fieldIds. application/json `{name}`: renames the document (not its workflow): trimmed, 1-50 characters ' +
  '(whitespace-only: 400 INVALID_REQUEST_BODY; longer: 400 BAD_REQUEST_BODY); owner only, any status but VOID. Both answer the updated document.';

type MultipartForm = { file: ReceivedFile; fields: Record<string, string> };

export function documentRoutes(
  documents: DocumentService,
  documentList: DocumentListService,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Documents'];

    app.post(
      '/document/v1',
      {
        schema: {
          tags,
          summary: 'Upload a document (PDF or Word), into a new or an existing draft workflow',
          description: POST_DESCRIPTION,
          consumes: ['multipart/form-data'],
          querystring: UploadQuery,
          body: { content: { 'multipart/form-data': { schema: UploadForm } } },
          response: {
            201: UploadResponse,
            ...errorResponses,
            429: Type.Ref('ErrorResponse'),
            503: Type.Ref('ErrorResponse'),
          },
        } as never,
        config: { auth: 'user' },
      },
      async (request, reply) => {
        const caller = userOf(request);
        const form = await readMultipart(request, documents, 'any');
        const query = request.query as UploadQuery;
        const created = await documents.upload(
          caller,
          form.file,
          { ...query, formTimeZone: form.fields.timeZone },
          requestContext(request),
        );
        reply.code(201);
        return created;
      },
    );

    app.put(
      '/document/v1/:docId',
      {
        schema: {
          tags,
          summary: "Replace a document's PDF (multipart) or rename the document (JSON)",
          description: PUT_DESCRIPTION,
          params: DocIdParams,
          body: {
            content: { 'application/json': { schema: RenameBody }, 'multipart/form-data': { schema: ReplaceForm } },
          },
          response: {
            200: DocumentResponse,
            ...errorResponses,
            429: Type.Ref('ErrorResponse'),
            503: Type.Ref('ErrorResponse'),
          },
        } as never,
        config: { auth: 'user' },
      },
      async (request) => {
        const caller = userOf(request);
        const { docId } = request.params as { docId: number };
        if (request.isMultipart()) {
          const form = await readMultipart(request, documents, 'pdf');
          await documents.replace(caller, docId, form.file);
        } else {
          // Only a JSON body was validated; any other content type (text/plain, none) carries no name.
          const name = (request.body as { name?: unknown } | undefined)?.name;
          if (typeof name !== 'string')
            throw new AppError(
              'BAD_REQUEST_BODY',
              'Send multipart/form-data with the new PDF in the part "file", or JSON {"name": "..."} to rename',
            );
          await documents.rename(caller, docId, name);
        }
        return toDocumentResponse(await documentList.documentDetail(caller, docId));
      },
    );
  };
}

/**
 * The account's upload allowance, checked before the file is read. A refused request's body is still read to its
 * end (the multipart limits cap it at one 25 MB file), so the client, still sending, receives the 503.
 */
async function admitOrDrain(request: FastifyRequest, documents: DocumentService): Promise<void> {
  try {
    await documents.admitUpload(userOf(request));
  } catch (refusal) {
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file')
          await pipeline(part.file, new Writable({ write: (_chunk, _encoding, done) => done() }));
      }
    } catch {
      // A malformed or oversized body changes nothing: the refusal is the answer.
    }
    throw refusal;
  }
}

/**
 * Reads the multipart form, streaming the one file into staging as it arrives (never buffered whole). Other
 * parts are small text fields. On any failure the staged file is discarded.
 */
async function readMultipart(
  request: FastifyRequest,
  documents: DocumentService,
  accept: 'any' | 'pdf',
): Promise<MultipartForm> {
  if (!request.isMultipart())
    throw new AppError('BAD_REQUEST_BODY', 'Send the document as multipart/form-data with the file in the part "file"');
  await admitOrDrain(request, documents);
  let file: ReceivedFile | null = null;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw new AppError(
            'BAD_REQUEST_BODY',
            `Unexpected file in the part "${part.fieldname}"; send the document in the part "file"`,
          );
        }
        file = await documents.receive(part.filename, part.file, accept, () => part.file.truncated);
      } else {
        if (part.fieldname === 'file')
          throw new AppError('BAD_REQUEST_BODY', 'The part "file" must be a file upload, not a text field');
        if (part.valueTruncated) throw new AppError('BAD_REQUEST_BODY', `The part "${part.fieldname}" is too long`);
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    await documents.discard(file);
    throw multipartError(error);
  }
  if (!file)
    throw new AppError(
      'BAD_REQUEST_BODY',
      'The part "file" is missing: send the document as a file in the multipart part "file"',
    );
  return { file, fields };
}
