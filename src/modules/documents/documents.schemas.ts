import { Type, type Static } from 'typebox';
import { IdParam } from '../../http/schemas.ts';
import { DocumentDetailResponse, toDocumentDetail, type DocumentDetail } from './document-list.schemas.ts';

export const SEQUENCES = ['SELF', 'ORDERED', 'UNORDERED', 'SURVEY'] as const;
export const SIGN_TYPES = ['SELFSIGN', 'COUNTERSIGN', 'POWERSURVEY'] as const;
export type Sequence = (typeof SEQUENCES)[number];
export type SignType = (typeof SIGN_TYPES)[number];

const TIME_ZONE_DESCRIPTION =
  'IANA identifier, optionally followed by a space and its GMT offset, e.g. "Asia/Kolkata GMT+05:30". ' +
  "The identifier becomes the workflow's time zone (history times); the offset part is informative only. Unknown identifier: 400 BAD_REQUEST_BODY. Default UTC.";

export const UploadQuery = Type.Object({
  workflowId: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2147483647,
      description: 'append to this DRAFT workflow of the caller; omitted: a new DRAFT workflow is created',
    }),
  ),
  sequence: Type.Optional(
    Type.Union(
      SEQUENCES.map((s) => Type.Literal(s)),
      { description: 'new workflows only; default from signType, else UNORDERED' },
    ),
  ),
  signType: Type.Optional(
    Type.Union(
      SIGN_TYPES.map((s) => Type.Literal(s)),
      {
        description:
          'new workflows only; must agree with sequence (SELF-SELFSIGN, SURVEY-POWERSURVEY, ORDERED/UNORDERED-COUNTERSIGN)',
      },
    ),
  ),
  folderId: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2147483647,
      description: 'new workflows only: file it in this personal folder of the caller (404 if not theirs)',
    }),
  ),
  timeZone: Type.Optional(
    Type.String({
      maxLength: 100,
      description: `new workflows only. ${TIME_ZONE_DESCRIPTION} The multipart part of the same name wins over this parameter.`,
    }),
  ),
});
export type UploadQuery = Static<typeof UploadQuery>;

/**
 * The multipart form, for the OpenAPI document only: the handler reads the stream itself, so the validator
 * must accept the (absent) parsed body.
 */
export const UploadForm = Type.Object(
  {
    file: Type.String({ format: 'binary', description: '.pdf, .doc or .docx, at most 25 MB; exactly one' }),
    timeZone: Type.Optional(Type.String({ description: TIME_ZONE_DESCRIPTION })),
  },
  { nullable: true },
);

export const ReplaceForm = Type.Object(
  {
    file: Type.String({ format: 'binary', description: 'the replacement PDF, at most 25 MB' }),
  },
  { nullable: true },
);

export const UploadResponse = Type.Object({
  id: Type.Integer({ description: 'the new document' }),
  workflowId: Type.Integer(),
  thumbnailBase64: Type.String({ description: 'PNG of page 1, 200 pixels wide, base64 (no data: prefix)' }),
});

export const DocIdParams = Type.Object({ docId: IdParam });

export const RenameBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255, description: 'stored trimmed; 1-50 characters after trimming' }),
});

export const DocumentResponse = Type.Object(
  {
    ...DocumentDetailResponse.properties,
    name: Type.String({
      description:
        'the document\'s name (the API specification "Document": 1-50 characters on rename); equal to documentName',
    }),
    workflowName: Type.String({
      description: "the name of the document's workflow (what `name` holds in the list and GET /document/v1/{docId})",
    }),
    thumbnailBase64: Type.Union([Type.String(), Type.Null()], { description: 'PNG of page 1, base64' }),
  },
  {
    description:
      'The updated document (the API specification "Document"): the fields of GET /document/v1/{docId}, except that `name` is the document\'s own name and the workflow\'s is `workflowName`; plus its thumbnail',
  },
);

/** The answer of PUT /document/v1/{docId}: the API specification's Document, whose `name` is the document's, not the workflow's. */
export function toDocumentResponse(detail: DocumentDetail): Static<typeof DocumentResponse> {
  const item = toDocumentDetail(detail);
  return {
    ...item,
    name: detail.document.name,
    workflowName: item.name,
    thumbnailBase64: detail.document.thumbnailBase64,
  };
}
