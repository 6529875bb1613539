import { AppError } from '../errors.ts';

const MALFORMED = /Unexpected end of|Malformed|Boundary not found|terminated early/i;

/** The multipart parser's own errors, in the API's terms; anything else passes through unchanged. */
export function multipartError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const { code, message } = error as { code?: string; message?: string };
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('INVALID_DOCUMENT_SIZE', 'The file is larger than the 25 MB upload limit');
    case 'FST_FILES_LIMIT':
      return new AppError('BAD_REQUEST_BODY', 'Send exactly one file, in the part "file"');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new AppError('BAD_REQUEST_BODY', 'The multipart form has too many parts');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('BAD_REQUEST_BODY', 'Send the document as multipart/form-data');
    case 'FST_PROTO_VIOLATION':
      return new AppError('BAD_REQUEST_BODY', 'Invalid multipart part name');
    default:
      break;
  }
  if (code === undefined && typeof message === 'string' && MALFORMED.test(message))
    return new AppError('BAD_REQUEST_BODY', `Malformed multipart body: ${message}`);
  return error;
}
