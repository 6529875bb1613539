/**
 * The one error type services throw, and the one table that maps each code to its HTTP status,
 * numeric errorCode and default description. http/error-handler.ts is the only writer of error bodies.
 *
 * Numeric ranges: 10xxx request and access, 11xxx recipients, 12xxx documents, 13xxx workflows,
 * 14xxx accounts and sign-in, 15xxx fields and signing, 16xxx billing and identity (SPEC.md fixes
 * 11001, 16003 and 16008).
 */
export const ERRORS = {
  /** Body or query failed its schema: malformed JSON, wrong type, unknown enum value, out-of-range value. */
  BAD_REQUEST_BODY: { status: 400, code: 10001, description: 'The request body is not valid' },
  /** Body parsed but a business rule rejects its content (e.g. a whitespace-only comment). */
  INVALID_REQUEST_BODY: { status: 400, code: 10002, description: 'The request body is invalid' },
  /** A record that does not exist, or that the caller may not see (no existence leak). */
  NOT_FOUND: { status: 404, code: 10004, description: 'Not found' },
  ROUTE_NOT_FOUND: { status: 404, code: 10005, description: 'No such endpoint' },
  /** Missing, malformed, expired or revoked bearer token. */
  UNAUTHORIZED: { status: 401, code: 10401, description: 'Authentication required' },
  /** The caller is known but this kind of caller may not use the route (e.g. a guest token on an owner route). */
  USER_NOT_HAVE_ACCESS: { status: 403, code: 10403, description: 'User does not have access' },
  CONFLICT: { status: 409, code: 10409, description: 'Already exists' },
  PAYLOAD_TOO_LARGE: { status: 400, code: 10413, description: 'Request is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 400, code: 10415, description: 'Unsupported content type' },
  INTERNAL_ERROR: { status: 500, code: 10500, description: 'Internal server error' },
  SERVICE_UNAVAILABLE: { status: 503, code: 10503, description: 'Service unavailable' },
  GONE: { status: 410, code: 10410, description: 'This endpoint has been retired' },

  RECIPIENT_NAME_INVALID: { status: 400, code: 11001, description: 'Name size must be between 2 and 50 and contain only letters and single spaces' },
  INVALID_RECIPIENT: { status: 400, code: 11002, description: 'Invalid recipient' },
  DUPLICATE_RECIPIENT: { status: 400, code: 11003, description: 'Duplicate recipient order or email' },

  INVALID_DOCUMENT_TYPE: { status: 400, code: 12001, description: 'Invalid document type' },
  INVALID_DOCUMENT_SIZE: { status: 400, code: 12002, description: 'Invalid document size' },
  DOCUMENT_ALREADY_SIGNED: { status: 400, code: 12003, description: 'Document is already signed' },
  INVALID_PDF: { status: 400, code: 12004, description: 'The PDF is encrypted, damaged or unreadable' },
  DOCUMENT_CONVERSION_UNAVAILABLE: { status: 400, code: 12005, description: 'Word conversion is not available: LibreOffice (soffice) is not installed on the server' },
  DOCUMENT_CONVERSION_FAILED: { status: 400, code: 12006, description: 'The Word document could not be converted to PDF' },
  /** A replacement PDF lacks a page that a field sits on, or a page is now too small for it; responseBody.fieldIds names them. */
  FIELDS_OUTSIDE_DOCUMENT: { status: 400, code: 12007, description: 'Fields would lie outside the pages of the replacement file' },
  /** SPEC.md: a cloud-import link that is not https or not on an allowed host (checked at every redirect): 400. */
  CLOUD_IMPORT_LINK_REFUSED: { status: 400, code: 12008, description: 'The link must be https and on an allowed host' },
  /** SPEC.md: an unreadable link, more than 5 redirects or more than 25 MB: 500. */
  CLOUD_IMPORT_FAILED: { status: 500, code: 12009, description: 'The linked file could not be imported' },
  /**
   * More uploads or replacements from one account within a minute than UPLOADS_PER_MINUTE allows; answered with
   * Retry-After. 503, not 429: SPEC.md keeps 429 for the OTP resend throttle alone.
   */
  UPLOAD_RATE_LIMITED: { status: 503, code: 12020, description: 'Too many uploads from this account; try again later' },

  INVALID_WORKFLOW_OWNER: { status: 400, code: 13001, description: 'Invalid workflow owner' },
  INVALID_WORKFLOW_STATUS: { status: 400, code: 13002, description: 'Invalid workflow status' },
  OPERATION_IS_NOT_ALLOWED: { status: 400, code: 13003, description: 'Operation is not allowed' },
  /**
   * A COMPLETED workflow whose seal failed after every retry (the owner was mailed): its signed documents do
   * not exist. 500: the service failed to produce them; responseBody.detail carries the recorded reason.
   */
  SEAL_FAILED: { status: 500, code: 13004, description: 'The signed document could not be sealed' },

  INVALID_CREDENTIALS: { status: 401, code: 14001, description: 'Invalid username or password' },
  TWO_FACTOR_REQUIRED: { status: 401, code: 14002, description: 'Two-factor code required' },
  INVALID_TOTP: { status: 401, code: 14003, description: 'Invalid two-factor code' },
  INVALID_REFRESH_TOKEN: { status: 401, code: 14004, description: 'Invalid or expired refresh token' },
  EMAIL_ALREADY_REGISTERED: { status: 409, code: 14005, description: 'An account with this email already exists' },
  SIGNUP_DISABLED: { status: 403, code: 14006, description: 'Sign-up is disabled' },
  INVALID_TOTP_SETUP: { status: 400, code: 14007, description: 'The two-factor code does not match' },
  INVALID_CLIENT: { status: 401, code: 14008, description: 'Invalid client credentials' },
  /** RUNTIME.md "Accounts": too many failed checks for this account or address; answered with Retry-After. */
  ACCOUNT_TEMPORARILY_LOCKED: { status: 401, code: 14009, description: 'Too many failed attempts; try again later' },
  /** A signed-in user's password re-check failed (turning two-factor off); 400, not 401: the session itself is fine. */
  WRONG_PASSWORD: { status: 400, code: 14010, description: 'The password is not correct' },

  INVALID_FIELD: { status: 400, code: 15001, description: 'Invalid field' },
  INVALID_FIELD_VALUE: { status: 400, code: 15002, description: 'Invalid field value' },
  REQUIRED_FIELD_EMPTY: { status: 400, code: 15003, description: 'A required field is empty' },

  INSUFFICIENT_CREDITS: { status: 400, code: 16001, description: 'Insufficient credit balance' },
  /** The signer's personal quota (SPEC.md Limits); responseBody.qualifier says which of the three. */
  SIGNATURE_QUOTA_EXCEEDED: { status: 400, code: 16002, description: 'Electronic, Advanced or Qualified signature quota exceeded' },
  PACKAGE_EXPIRED: { status: 400, code: 16003, description: 'Package has expired' },
  SERVICE_PLAN_INACTIVE: { status: 500, code: 16004, description: 'Service plan inactive' },
  LINK_EXPIRED: { status: 400, code: 16005, description: 'Link or code expired' },
  OTP_INVALID: { status: 400, code: 16006, description: 'OTP invalid or expired' },
  IDENTITY_NOT_VERIFIED: { status: 403, code: 16007, description: 'Identity not verified' },
  OTP_RESEND_TOO_SOON: { status: 429, code: 16008, description: 'OTP resend too soon' },
  SHARING_NOT_ALLOWED: { status: 400, code: 16009, description: 'Your plan does not allow sending documents' },
  /** Identity step-up caps across codes (5 wrong codes an hour, 10 codes mailed a day); answered with Retry-After. 429 stays the resend throttle's. */
  OTP_LIMIT_REACHED: { status: 400, code: 16010, description: 'Too many one-time codes; try again later' },
} as const satisfies Record<string, { status: number; code: number; description: string }>;

export type ErrorCode = keyof typeof ERRORS;

/**
 * SPEC.md "Errors", common conditions: clients match their errorDescription text ("Invalid document type",
 * "Link or code expired", ...), so it never varies; what a service says about the case goes to responseBody.detail.
 * The recipient-name condition (11001) is left out: SPEC.md describes its text as "a size-between-2-and-50 message",
 * which is what each of its cases says.
 */
const SPEC_CONDITIONS = [
  'PACKAGE_EXPIRED', 'INSUFFICIENT_CREDITS', 'SIGNATURE_QUOTA_EXCEEDED', 'SERVICE_PLAN_INACTIVE', 'LINK_EXPIRED', 'OTP_INVALID',
  'OTP_RESEND_TOO_SOON', 'IDENTITY_NOT_VERIFIED', 'INVALID_DOCUMENT_TYPE', 'INVALID_WORKFLOW_STATUS',
] as const satisfies readonly ErrorCode[];

function withDetail(responseBody: unknown, detail: string): unknown {
  if (responseBody === undefined || responseBody === null) return { detail };
  if (Array.isArray(responseBody)) return { detail, items: responseBody };
  if (typeof responseBody === 'object') return { ...responseBody, detail };
  return { detail, value: responseBody };
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errorCode: number;
  readonly responseBody: unknown;
  /** Sent as the Retry-After header (locks, throttles, a full queue, a seal still pending). */
  readonly retryAfterSeconds: number | undefined;

  /**
   * `description` overrides the table's default errorDescription, except for SPEC.md's common conditions, whose
   * errorDescription is always the condition's text: there the description becomes `responseBody.detail`.
   * `responseBody` is extra payload for clients.
   */
  constructor(code: ErrorCode, description?: string, responseBody?: unknown, options: { retryAfterSeconds?: number } = {}) {
    const entry = ERRORS[code];
    const isCondition = (SPEC_CONDITIONS as readonly string[]).includes(code);
    super(isCondition || description === undefined ? entry.description : description);
    this.name = 'AppError';
    this.code = code;
    this.status = entry.status;
    this.errorCode = entry.code;
    this.responseBody = isCondition && description !== undefined && description !== entry.description ? withDetail(responseBody, description) : responseBody;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function notFound(what: string): AppError {
  return new AppError('NOT_FOUND', `${what} not found`);
}
