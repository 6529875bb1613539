/**
 * The one error type services throw, and the one table that maps each code to its HTTP status,
 * numeric errorCode and default description. http/error-handler.ts is the only writer of error bodies.
 *
 * Numeric ranges: 10xxx request and access, 11xxx recipients, 12xxx documents, 13xxx workflows,
 * 14xxx accounts and sign-in, 15xxx fields and signing, 16xxx billing and identity, 17xxx members and roles
 * (SPEC.md fixes 11001, 16003 and 16008).
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
  /** The operator's backup snapshots not yet claimed by the command line are at their cap; answered with Retry-After. */
  BACKUP_SNAPSHOTS_WAITING: {
    status: 429,
    code: 10429,
    description: 'Too many backup snapshots waiting to be claimed; try again later',
  },

  RECIPIENT_NAME_INVALID: {
    status: 400,
    code: 11001,
    description:
      'Name size must be between 2 and 50 and contain only letters (a hyphen or apostrophe between two), with single spaces',
  },
  INVALID_RECIPIENT: { status: 400, code: 11002, description: 'Invalid recipient' },
  DUPLICATE_RECIPIENT: { status: 400, code: 11003, description: 'Duplicate recipient order or email' },
  /** More entries with a recipientPassword in one call than MAX_RECIPIENT_PASSWORDS_PER_CALL (each is an argon2id hash); responseBody {limit, given}. */
  RECIPIENT_PASSWORD_LIMIT: {
    status: 400,
    code: 11004,
    description: 'Too many recipients with a password in one request',
  },

  INVALID_DOCUMENT_TYPE: { status: 400, code: 12001, description: 'Invalid document type' },
  INVALID_DOCUMENT_SIZE: { status: 400, code: 12002, description: 'Invalid document size' },
  DOCUMENT_ALREADY_SIGNED: { status: 400, code: 12003, description: 'Document is already signed' },
  INVALID_PDF: { status: 400, code: 12004, description: 'The PDF is encrypted, damaged or unreadable' },
  /** RUNTIME.md "Limits": POST /verify/v1 with a file holding more than 50 signatures; responseBody.limit. */
  TOO_MANY_SIGNATURES: { status: 400, code: 12010, description: 'The PDF holds more signatures than can be verified' },
  DOCUMENT_CONVERSION_UNAVAILABLE: {
    status: 400,
    code: 12005,
    description:
      'Word conversion is not available: install LibreOffice (Debian/Ubuntu: apt-get install libreoffice-writer-nogui) or set SOFFICE_PATH; PDF uploads work without it',
  },
  DOCUMENT_CONVERSION_FAILED: {
    status: 400,
    code: 12006,
    description: 'The Word document could not be converted to PDF',
  },
  /** A replacement PDF lacks a page that a field sits on, or a page is now too small for it; responseBody.fieldIds names them. */
  FIELDS_OUTSIDE_DOCUMENT: {
    status: 400,
    code: 12007,
    description: 'Fields would lie outside the pages of the replacement file',
  },
  /** SPEC.md: a cloud-import link that is not https or not on an allowed host (checked at every redirect): 400. */
  CLOUD_IMPORT_LINK_REFUSED: { status: 400, code: 12008, description: 'The link must be https and on an allowed host' },
  /** SPEC.md: an unreadable link, more than 5 redirects or more than 25 MB: 500. */
  CLOUD_IMPORT_FAILED: { status: 500, code: 12009, description: 'The linked file could not be imported' },
  /** More uploads or replacements from one account within a minute than UPLOADS_PER_MINUTE allows; answered with Retry-After. */
  UPLOAD_RATE_LIMITED: { status: 429, code: 12020, description: 'Too many uploads from this account; try again later' },
  /** More POST /verify/v1 calls from one client address within a minute than allowed; answered with Retry-After. */
  VERIFY_RATE_LIMITED: {
    status: 429,
    code: 12021,
    description: 'Too many verifications from this address; try again later',
  },

  INVALID_WORKFLOW_OWNER: { status: 400, code: 13001, description: 'Invalid workflow owner' },
  INVALID_WORKFLOW_STATUS: { status: 400, code: 13002, description: 'Invalid workflow status' },
  OPERATION_IS_NOT_ALLOWED: { status: 400, code: 13003, description: 'Operation is not allowed' },
  /**
   * A COMPLETED workflow whose seal failed after every retry (the owner was mailed): its signed documents do
   * not exist. 500: the service failed to produce them; responseBody.detail carries the recorded reason.
   */
  SEAL_FAILED: { status: 500, code: 13004, description: 'The signed document could not be sealed' },

  INVALID_CREDENTIALS: { status: 401, code: 14001, description: 'Invalid username or password' },
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
  /** More sign-ups from one client address within the hour than SIGNUPS_PER_ADDRESS allows; answered with Retry-After. */
  SIGNUP_LIMIT_REACHED: {
    status: 429,
    code: 14011,
    description: 'Too many sign-ups from this address; try again later',
  },
  /** More verification mails to one account within a day than VERIFICATION_MAILS_PER_ACCOUNT allows; answered with Retry-After. */
  VERIFICATION_MAIL_LIMIT_REACHED: {
    status: 429,
    code: 14012,
    description: 'Too many verification mails; try again later',
  },
  /**
   * The operator disabled the account (POST /admin/v1/users/{userId}/disable): every sign-in, token, refresh and web
   * session of it is refused, and so are the signing links of its envelopes and its own. Nothing was deleted.
   */
  ACCOUNT_DISABLED: {
    status: 403,
    code: 14013,
    description: 'This account is disabled by the operator of this service',
  },
  /** The operator disabled the organization: its members cannot act in it, its apps' tokens and its envelopes' links stop. */
  ORGANIZATION_DISABLED: {
    status: 403,
    code: 14014,
    description: 'This organization is disabled by the operator of this service',
  },
  /** A sign-in state (web session, SSO redirect, own sign-in page) that is unknown, expired, used, or from another browser. */
  LOGIN_STATE_INVALID: {
    status: 400,
    code: 14101,
    description:
      'The sign-in request is unknown, expired, already used, or was started in another browser; start again',
  },
  /** A cookie-authenticated state change without the session's X-CSRF-Token header (or from another origin). */
  CSRF_TOKEN_INVALID: { status: 403, code: 14102, description: 'Missing or wrong X-CSRF-Token for this session' },
  /** The authorization code was refused (by the provider or the own sign-in page), or the provider reported an error. */
  SSO_CODE_INVALID: {
    status: 401,
    code: 14103,
    description: 'The sign-in could not be completed with this authorization code',
  },
  /** The identity is verified but no account holds its email and SIGNUP_ENABLED is false. */
  SSO_SIGNUP_DISABLED: { status: 403, code: 14104, description: 'No account holds this email and sign-up is closed' },
  /** The provider did not verify the email, or the account holding it has not verified it here. */
  SSO_EMAIL_NOT_VERIFIED: { status: 403, code: 14105, description: 'The email of this identity is not verified' },
  /** A social ID token with a bad signature, issuer, audience, expiry, nonce or email_verified, or one already used. */
  IDP_TOKEN_INVALID: { status: 401, code: 14106, description: 'The identity provider token was refused' },
  IDENTITY_PROVIDER_UNAVAILABLE: {
    status: 503,
    code: 14107,
    description: 'The identity provider cannot be reached; try again later',
  },
  /** SSO redirect with the own sign-in page: the redirect URI must be on this service's origin. */
  REDIRECT_URI_NOT_ALLOWED: { status: 400, code: 14108, description: 'This redirect URI is not allowed' },
  /** More sign-ins started (GET /auth/v1/signin, GET /bff/auth/authorize) from one client address than LOGIN_STATES_PER_ADDRESS allows; with Retry-After. */
  LOGIN_STATE_LIMIT_REACHED: {
    status: 429,
    code: 14109,
    description: 'Too many sign-ins started from this address; try again later',
  },

  /** A passkey assertion that does not verify (unknown credential, wrong origin, RP id or challenge, counter regression); counted like a wrong password. */
  PASSKEY_REJECTED: { status: 401, code: 14201, description: 'Passkey sign-in failed' },
  /** A registration response that does not verify against the challenge this user was given. */
  PASSKEY_REGISTRATION_FAILED: { status: 400, code: 14202, description: 'The passkey could not be registered' },
  PASSKEY_ALREADY_REGISTERED: { status: 409, code: 14203, description: 'This passkey is already registered' },
  /** More passkeys than a user may hold; delete one first. */
  PASSKEY_LIMIT_REACHED: { status: 400, code: 14204, description: 'Too many passkeys' },
  /** The PEM given to POST /auth/v1/smart_card/hash is not one X.509 certificate. */
  SMART_CARD_CERTIFICATE_INVALID: { status: 400, code: 14205, description: 'The certificate could not be read' },
  /** Chain, validity, key usage, revocation, account or signature check failed; responseBody.reason says which. Counted like a wrong password. */
  SMART_CARD_REJECTED: { status: 401, code: 14206, description: 'Smart card sign-in failed' },
  /** A signature library image that is not an acceptable PNG, or too large. */
  SIGNATURE_IMAGE_INVALID: { status: 400, code: 14207, description: 'The signature image is not valid' },
  /** More library entries of one kind than a user may keep. */
  SIGNATURE_LIBRARY_FULL: { status: 400, code: 14208, description: 'The signature library is full' },
  /** Too many sign-in challenges asked for from one address; answered with Retry-After. */
  CHALLENGE_RATE_LIMITED: { status: 429, code: 14209, description: 'Too many sign-in challenges; try again later' },

  INVALID_FIELD: { status: 400, code: 15001, description: 'Invalid field' },
  INVALID_FIELD_VALUE: { status: 400, code: 15002, description: 'Invalid field value' },
  REQUIRED_FIELD_EMPTY: { status: 400, code: 15003, description: 'A required field is empty' },

  /** Wrong signing password for a `useDigitalCert` signer's key; responseBody.attemptsLeft. Counted like sign-in failures, per key (email). */
  SIGNING_PASSWORD_INVALID: { status: 400, code: 15101, description: 'Wrong signing password' },
  /** A DIGITAL_SIGNATURE of a `useDigitalCert` recipient is signed with its signing password: the save entry must carry `password`. */
  SIGNING_PASSWORD_REQUIRED: { status: 400, code: 15102, description: 'The signing password is required' },
  /** The first signing password (it provisions the signer's key) is too short; responseBody.minLength. */
  SIGNING_PASSWORD_TOO_SHORT: { status: 400, code: 15103, description: 'The signing password is too short' },
  /** The field's value is already part of a signed revision of the document: what was signed cannot change. */
  SIGNED_FIELD_LOCKED: { status: 400, code: 15104, description: 'The field is already signed into the document' },
  /** Another signature was appended to the document after this one was prepared (remote signing): prepare again. */
  SIGNER_REVISION_STALE: {
    status: 409,
    code: 15105,
    description: 'The document changed since the signature was prepared',
  },
  /** A signature value that does not verify against the prepared hash and the signer's certificate; nothing was appended. */
  SIGNER_SIGNATURE_MISMATCH: {
    status: 422,
    code: 15106,
    description: 'The signature does not match the prepared hash',
  },
  /** signatureAssetId names no library entry of the signing recipient's user (someone else's, or none). */
  SIGNATURE_ASSET_NOT_FOUND: {
    status: 400,
    code: 15107,
    description: "The signature library entry is not the signer's",
  },

  /** Remote signing asked for while CSC_BASE_URL is unset. */
  CSC_NOT_CONFIGURED: { status: 400, code: 15201, description: 'Remote signing is not configured on this service' },
  /** RUNTIME.md: the CSC provider cannot be reached (or is too slow, answers 5xx, refuses this service's own client credentials). */
  CSC_PROVIDER_UNAVAILABLE: {
    status: 503,
    code: 15202,
    description: 'The remote signing provider cannot be reached; try again later',
  },
  /** RUNTIME.md 422: a wrong, reused or expired code, or the provider refusing the authorization or the signature. */
  CSC_AUTHORIZATION_INVALID: { status: 422, code: 15203, description: 'The remote signing authorization is not valid' },
  /** RUNTIME.md 422: the hash (or the batch's set of items) is not what was prepared for this signer, or the preparation expired or was used. */
  CSC_HASH_NOT_PREPARED: { status: 422, code: 15204, description: 'The hash is not one prepared for this signature' },
  /** RUNTIME.md 422: the credential is not among the signer's credentials at the provider, cannot sign now, or does not allow the qualifier. */
  CSC_CREDENTIAL_INVALID: { status: 422, code: 15205, description: 'The credential cannot be used for this signature' },
  /** The qualifier is not one the workflow's organization's plan offers (its package's quota for it is 0). */
  QUALIFIER_NOT_IN_PLAN: { status: 400, code: 15206, description: 'The plan does not offer this kind of signature' },

  INSUFFICIENT_CREDITS: { status: 400, code: 16001, description: 'Insufficient credit balance' },
  /** The signer's personal quota (SPEC.md Limits); responseBody.qualifier says which of the three. */
  SIGNATURE_QUOTA_EXCEEDED: {
    status: 400,
    code: 16002,
    description: 'Electronic, Advanced or Qualified signature quota exceeded',
  },
  PACKAGE_EXPIRED: { status: 400, code: 16003, description: 'Package has expired' },
  SERVICE_PLAN_INACTIVE: { status: 500, code: 16004, description: 'Service plan inactive' },
  LINK_EXPIRED: { status: 400, code: 16005, description: 'Link or code expired' },
  OTP_INVALID: { status: 400, code: 16006, description: 'OTP invalid or expired' },
  IDENTITY_NOT_VERIFIED: { status: 403, code: 16007, description: 'Identity not verified' },
  OTP_RESEND_TOO_SOON: { status: 429, code: 16008, description: 'OTP resend too soon' },
  SHARING_NOT_ALLOWED: { status: 400, code: 16009, description: 'Your plan does not allow sending documents' },
  /** Identity step-up caps across codes (5 wrong codes an hour, 10 codes mailed a day); answered with Retry-After. */
  OTP_LIMIT_REACHED: { status: 429, code: 16010, description: 'Too many one-time codes; try again later' },

  /** RUNTIME.md "Plans and credits belong to the operator": an owner chose or renewed a priced package while BILLING_SELF_SERVICE is off. */
  PAYMENT_REQUIRED: {
    status: 403,
    code: 16011,
    description: 'This package is priced: the operator of this service puts organizations on it',
  },
  /** A package that is not ACTIVE (retired) cannot be chosen or renewed; choose another with package/update. */
  PACKAGE_NOT_AVAILABLE: { status: 400, code: 16101, description: 'This package is not available' },
  /** settingsJson of PUT /organization/v1/branding is not JSON, not an object, or a member is of the wrong form; responseBody.detail says which. */
  INVALID_BRANDING_SETTINGS: { status: 400, code: 16102, description: 'The branding settings are not valid' },
  /** The logo is not a PNG or JPEG (an SVG is refused too), or it does not decode in full. */
  INVALID_LOGO: { status: 400, code: 16103, description: 'The logo must be a PNG or JPEG image' },
  LOGO_TOO_LARGE: { status: 400, code: 16104, description: 'The logo is larger than 1 MB' },

  /** The email is already an ACTIVE or INVITED member of the organization (a DECLINED one may be invited again). */
  MEMBER_ALREADY_EXISTS: { status: 409, code: 17001, description: 'Already a member of the organization' },
  /** Another role of the organization has this name (compared ignoring case). */
  ROLE_NAME_TAKEN: {
    status: 409,
    code: 17002,
    description: 'A role with this name already exists in the organization',
  },
  /** A role still assigned to members (invited ones included) cannot be deleted; responseBody names the role and its members count. */
  ROLE_IN_USE: { status: 409, code: 17003, description: 'The role is assigned to members' },
  /** Only an ACTIVE role can be given to a member. */
  ROLE_NOT_ASSIGNABLE: { status: 400, code: 17004, description: 'The role is not active' },
  /** SPEC.md: removing (or demoting) the current owner is refused; transfer the ownership first. */
  OWNER_NOT_REMOVABLE: { status: 400, code: 17005, description: 'The organization owner cannot be removed' },
  /** The member's role does not allow sending documents (signatureSettings.allowDocSend). */
  ROLE_SEND_NOT_ALLOWED: { status: 403, code: 17006, description: 'Your role does not allow sending documents' },
  /** The member's role does not allow using templates (signatureSettings.allowDocUseTemplates). */
  ROLE_TEMPLATES_NOT_ALLOWED: { status: 403, code: 17007, description: 'Your role does not allow using templates' },
  /** The signer's role in the workflow's organization does not allow this kind of signature (allowSignElectronic, ...); responseBody.qualifier. */
  ROLE_SIGNATURE_NOT_ALLOWED: {
    status: 403,
    code: 17008,
    description: 'Your role does not allow this kind of signature',
  },
  /**
   * An address the platform has not verified (RUNTIME.md round three): sending to others, accepting an invitation in the
   * app, or a platform-certified signing key needs an account whose address is confirmed (or a guest whose signing
   * link the platform's own mail delivered).
   */
  EMAIL_NOT_VERIFIED: { status: 403, code: 17009, description: 'Confirm your email address first' },
  /**
   * PUT /organization/v1/invite: an orgName that more than one pending invitation of the caller bears (organization names are
   * not unique); responseBody.candidates lists them, and organizationIds picks among them.
   */
  INVITATION_NAME_AMBIGUOUS: {
    status: 400,
    code: 17010,
    description: 'Several pending invitations come from organizations of this name',
  },
  /** More invitations than an organization may send an hour, or than one address may get from it a day; with Retry-After. */
  INVITATION_LIMIT_REACHED: { status: 429, code: 17011, description: 'Too many invitations; try again later' },

  /** PUT /organization/v1/email-settings without a key its provider requires (or blank); responseBody.missingKeys names them. */
  MAIL_SETTINGS_KEY_MISSING: { status: 400, code: 18001, description: 'A required email configuration key is missing' },
  /** A value of the wrong form, or an SMTP server on a refused address; responseBody.keys names them. */
  MAIL_SETTINGS_INVALID: { status: 400, code: 18002, description: 'The email settings are not valid' },
  /** SPEC.md: custom email routing is available only when the organization's plan allows it (packages.allowCustomSmtp). */
  CUSTOM_MAIL_NOT_ALLOWED: { status: 400, code: 18003, description: 'Your plan does not allow custom email routing' },
  /** More settings tests than an organization may run per hour (each sends a real mail); answered with Retry-After. */
  MAIL_SETTINGS_TEST_LIMITED: {
    status: 429,
    code: 18004,
    description: 'Too many email settings tests; try again later',
  },
  /** source PLAN_CONNECTOR or a connectorId: this installation's plans offer no mail connectors (allowedConnectors is empty). */
  MAIL_CONNECTOR_UNAVAILABLE: {
    status: 400,
    code: 18005,
    description: 'No mail connector is available to this organization',
  },

  /** A business app's callbackUrl must be https, carry no credentials and not lead to a private, loopback or metadata address (the outbound rules). */
  BUSINESS_APP_CALLBACK_REFUSED: {
    status: 400,
    code: 18101,
    description: 'The callback URL must be https and reach a public address',
  },
  /** Client ids are unique across the service (the client-credentials grant names the app by it alone). */
  BUSINESS_APP_CLIENT_ID_TAKEN: {
    status: 409,
    code: 18102,
    description: 'A business app with this client id already exists',
  },
  /** App names are unique within the organization, ignoring case. */
  BUSINESS_APP_NAME_TAKEN: {
    status: 409,
    code: 18103,
    description: 'A business app with this name already exists in the organization',
  },
  /** Replay of a delivery that is still being attempted (PENDING): it would only be sent twice. */
  WEBHOOK_DELIVERY_PENDING: { status: 400, code: 18104, description: 'The delivery is still being attempted' },
  /** Replaying to a disabled business app: enable it first. */
  BUSINESS_APP_DISABLED: { status: 400, code: 18105, description: 'The business app is disabled' },
  /**
   * More than 10 enabled business apps (each receives callbacks) in one organization: registering or enabling an 11th
   * (responseBody.limit). 400 like the other caps (PASSKEY_LIMIT_REACHED, TEMPLATE_FOLDER_LIMIT); 409 here means a clash of names.
   */
  BUSINESS_APP_LIMIT_REACHED: {
    status: 400,
    code: 18106,
    description: 'The organization has as many business apps with a callback as it may',
  },

  /** Another template of the same folder (or of the root) has this name, ignoring case; another folder may reuse it. */
  TEMPLATE_NAME_TAKEN: {
    status: 409,
    code: 19001,
    description: 'A template with this name already exists in the folder',
  },
  /** SPEC.md "Template folders": the folder does not exist, or the caller may not see it (folder access). */
  TEMPLATE_FOLDER_NOT_FOUND: { status: 404, code: 19002, description: 'Template folder does not exist' },
  /** Another folder of the same parent has this name, ignoring case. */
  TEMPLATE_FOLDER_EXISTS: { status: 409, code: 19003, description: 'Template folder already exists' },
  /** A folder holding templates or folders cannot be deleted; responseBody names the folder. */
  TEMPLATE_FOLDER_NOT_EMPTY: { status: 400, code: 19004, description: 'Template folder is not empty' },
  /** PUT .../access naming a role the organization does not have; responseBody.unknownRoleIds. */
  TEMPLATE_FOLDER_ACCESS_INVALID: { status: 400, code: 19005, description: 'Invalid role-access configuration' },
  /** More template folders than an organization may keep, or a tree deeper than allowed. */
  TEMPLATE_FOLDER_LIMIT: { status: 400, code: 19006, description: 'Too many template folders or too deep a tree' },

  /** Power Survey commence: the survey must hold exactly one document; responseBody.documentCount. */
  SURVEY_DOCUMENT_COUNT: { status: 400, code: 19101, description: 'A Power Survey needs exactly one document' },
  /** Power Survey commence: exactly one SIGNATURE or DIGITAL_SIGNATURE field, assigned to nobody; responseBody.signatureFieldIds. */
  SURVEY_SIGNATURE_FIELD: {
    status: 400,
    code: 19102,
    description: 'A Power Survey needs exactly one unassigned signature field',
  },
  /** Power Survey commence: every field but the image types needs a label (its CSV column); responseBody.fieldIds. */
  SURVEY_FIELD_LABEL_MISSING: {
    status: 400,
    code: 19103,
    description: 'Every field of a Power Survey except image fields needs a label',
  },
  /** Power Survey commence: more recipients than the plan's powerSurveyRecipientLimit; responseBody.limit and .recipientCount. */
  SURVEY_RECIPIENT_LIMIT: {
    status: 400,
    code: 19104,
    description: 'The Power Survey has more recipients than the plan allows',
  },
  /** A Power Survey endpoint called with a workflow that is not a Power Survey parent. */
  NOT_A_SURVEY: { status: 400, code: 19105, description: 'The workflow is not a Power Survey' },
} as const satisfies Record<string, { status: number; code: number; description: string }>;

export type ErrorCode = keyof typeof ERRORS;

/**
 * SPEC.md "Errors", common conditions: clients match their errorDescription text ("Invalid document type",
 * "Link or code expired", ...), so it never varies; what a service says about the case goes to responseBody.detail.
 * The recipient-name condition (11001) is left out: SPEC.md describes its text as "a size-between-2-and-50 message",
 * which is what each of its cases says.
 */
const SPEC_CONDITIONS = [
  'PACKAGE_EXPIRED',
  'INSUFFICIENT_CREDITS',
  'SIGNATURE_QUOTA_EXCEEDED',
  'SERVICE_PLAN_INACTIVE',
  'LINK_EXPIRED',
  'OTP_INVALID',
  'OTP_RESEND_TOO_SOON',
  'IDENTITY_NOT_VERIFIED',
  'INVALID_DOCUMENT_TYPE',
  'INVALID_WORKFLOW_STATUS',
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
  constructor(
    code: ErrorCode,
    description?: string,
    responseBody?: unknown,
    options: { retryAfterSeconds?: number } = {},
  ) {
    const entry = ERRORS[code];
    const isCondition = (SPEC_CONDITIONS as readonly string[]).includes(code);
    super(isCondition || description === undefined ? entry.description : description);
    this.name = 'AppError';
    this.code = code;
    this.status = entry.status;
    this.errorCode = entry.code;
    this.responseBody =
      isCondition && description !== undefined && description !== entry.description
        ? withDetail(responseBody, description)
        : responseBody;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function notFound(what: string): AppError {
  return new AppError('NOT_FOUND', `${what} not found`);
}
