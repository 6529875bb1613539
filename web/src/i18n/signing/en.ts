import { PRODUCT_NAME } from '../../shared/product.ts';

/** What a signature pad or a saved-signature list is for (messages name it in each language's own grammar). */
export type Mark = 'signature' | 'initials' | 'stamp';

/**
 * The signing page's English strings (and those of the small pages beside it: the CSC and SSO returns, the
 * page-not-found): the source of truth its other languages (de.ts, fr.ts…) are typed by. Parameterised strings
 * are functions, so word order and plural forms can differ between languages.
 */
export const en = {
  appName: PRODUCT_NAME,
  loading: 'Loading…',
  opening: 'Opening your document…',
  skipToDocument: 'Skip to the document',

  // Link problems
  linkExpiredTitle: 'This link no longer works',
  linkExpiredText:
    'The signing link has expired, or the task it gave was handed to someone else. Links cannot be extended.',
  linkExpiredWhatToDo:
    'Ask the sender to send the document again. If you handed the task to someone else, they have received their own link.',
  linkVoidedText:
    'The sender cancelled this envelope, so there is nothing left to sign. You were sent their reason by mail.',
  genericErrorTitle: 'Something went wrong',
  genericErrorText: 'The page could not load the document. Check your connection and reload the page.',
  reload: 'Reload',
  requestReference: (id: string) => `Reference for support: ${id}`,

  // Header and overview
  from: (name: string) => `From ${name}`,
  messageFromSender: 'Message from the sender',
  brandLogoAlt: (organization: string) => `${organization} logo`,
  involvedHeading: 'Who is involved',
  involvedOrdered: 'Everyone acts in this order.',
  involvedUnordered: 'Everyone can act at the same time.',
  you: 'you',
  role: { SIGNER: 'Signs', APPROVER: 'Approves', CC: 'Receives a copy' } as Record<string, string>,
  recipientStatus: {
    PENDING: 'Waiting for their turn',
    SENT: 'Invited',
    VIEWED: 'Opened the document',
    SIGNED: 'Signed',
    APPROVED: 'Approved',
    DECLINED: 'Declined',
    SKIPPED: 'Received a copy',
    DELEGATED: 'Handed the task to someone else',
  } as Record<string, string>,

  // Consent
  consentHeading: 'Before you start',
  consentIntro: 'Please read this disclosure. It is recorded with your signature.',
  consentAgree: 'I agree, continue',
  consentDecline: 'I do not agree (decline)',

  // Password
  passwordHeading: 'This document is protected',
  passwordIntro: 'The sender protected this document with a password. They should have given it to you separately.',
  passwordLabel: 'Password',
  passwordSubmit: 'Open the document',
  passwordWrong: 'That password is not right. Check it and try again.',
  passwordLocked: 'Too many wrong passwords. Wait a while before trying again.',

  // One-time code
  otpHeading: 'Confirm it is you',
  otpIntro: (email: string) => `The sender asked us to check your identity. We will email a 6-digit code to ${email}.`,
  otpSend: 'Email me a code',
  otpSent: (time: string) => `We emailed you a code. It works until ${time}.`,
  otpLabel: 'Code from the email',
  otpHint: '6 digits',
  otpVerify: 'Confirm code',
  otpResend: 'Send a new code',
  otpResendIn: (seconds: number) => `You can ask for a new code in ${seconds} s.`,
  otpWrong: (attemptsLeft: number) =>
    attemptsLeft > 0
      ? `That code is not right. ${attemptsLeft} ${attemptsLeft === 1 ? 'attempt' : 'attempts'} left.`
      : 'That code no longer works. Ask for a new code.',
  otpFormat: 'Enter the 6 digits from the email.',
  otpTooSoon: (seconds: number) => `Please wait ${seconds} s before asking for a new code.`,
  otpVerified: 'Thank you, your identity is confirmed.',

  // Document view
  documentsHeading: 'Document',
  documentOf: (name: string, index: number, total: number) =>
    total > 1 ? `${name} (document ${index} of ${total})` : name,
  pageOf: (page: number, total: number) => `Page ${page} of ${total}`,
  zoomOut: 'Zoom out',
  zoomIn: 'Zoom in',
  zoomFit: 'Fit to width',
  zoomLevel: (percent: number) => `Zoom ${percent}%`,
  pageLoading: 'Loading page…',
  pageFailed: 'This page could not be shown.',

  // Fields
  fieldType: {
    SIGNATURE: 'Signature',
    INITIALS: 'Initials',
    TEXT: 'Text',
    TEXTAREA: 'Text',
    NUMBER: 'Number',
    EMAIL: 'Email',
    DATE: 'Date',
    CHECKBOX: 'Checkbox',
    DROPDOWN: 'Choice',
    NAME: 'Name',
    NOTE: 'Note',
    IMAGE: 'Image',
    STAMP: 'Stamp',
    DIGITAL_SIGNATURE: 'Digital signature',
  } as Record<string, string>,
  required: 'required',
  optional: 'optional',
  filled: 'filled',
  empty: 'empty',
  fieldButton: (label: string, required: boolean, filled: boolean) =>
    `${label}, ${required ? 'required' : 'optional'}, ${filled ? 'filled' : 'empty'}`,
  progress: (done: number, total: number) => `${done} of ${total} required fields done`,
  nextField: 'Next field',
  previousField: 'Previous field',
  skipField: 'Skip this field',
  startFilling: 'Go to the first field',
  today: 'Today',
  reviewFields: 'Review your fields',
  allRequiredDone: 'All required fields are done.',
  fieldPanelHeading: (label: string, position: number, total: number) => `${label} (field ${position} of ${total})`,
  closeField: 'Close',
  noFieldsForYou: 'There is nothing for you to fill in.',
  saved: 'Saved',
  saving: 'Saving…',
  savedLocally: 'Kept on this device until you finish',
  saveFailed: 'Could not save. Your entry is kept on this device; it will be saved when you finish.',
  applyValue: 'Save and continue',
  clearValue: 'Clear',
  notePrefix: 'Note from the sender',
  checkboxLabel: (label: string) => label,
  choosePlaceholder: 'Choose…',
  dateShownAs: (text: string) => `Shown on the document as: ${text}`,
  invalidNumber: 'Enter a number, for example 42 or 3.5.',
  invalidEmail: 'Enter an email address, for example name@example.com.',
  invalidDate: 'Enter a date.',
  tooLong: (max: number) => `Use at most ${max} characters.`,
  requiredMissing: 'This field is required.',
  imageChoose: 'Choose an image',
  imageTooLarge: 'This image is too large. Use an image under 2 MB and 8000 pixels on each side.',
  imageUnreadable: 'This file could not be read as an image.',
  imagePreviewAlt: 'Chosen image',
  stampFromFile: 'A stamp is an image of your company stamp. Choose the image file.',

  // Signatures
  signatureHow: 'How do you want to sign?',
  signatureDraw: 'Draw',
  signatureType: 'Type',
  drawAreaLabel: (mark: Mark) => `Drawing area for your ${mark}. Draw with a mouse, a pen or your finger.`,
  drawHint: 'Draw inside the box. No mouse or touch screen? Choose Type instead.',
  drawEmpty: 'Draw your signature first, or choose Type.',
  typeLabel: (mark: Mark) => `Type your ${mark}`,
  typePreviewAlt: (mark: Mark) => `Preview of your typed ${mark}`,
  typeEmpty: 'Type your name first.',
  adoptSignature: (mark: Mark) => `Use ${mark === 'initials' ? 'these' : 'this'} ${mark}`,
  signaturePreviewAlt: (mark: Mark) => `Your ${mark}`,
  changeSignature: 'Change',
  signingPasswordMissing: 'Enter your signing password.',
  signingPasswordCreateLabel: 'Create a signing password',
  signingPasswordCreateHint: (min: number) =>
    `This is your first signature with a personal signing certificate. The password creates your signing key and protects it: nobody can sign with it without this password, not even the service. Use at least ${min} characters and keep it safe; you will need it for every later signature.`,
  signingPasswordConfirmLabel: 'Confirm the signing password',
  signingPasswordEnterLabel: 'Enter your signing password',
  signingPasswordEnterHint:
    'The password you chose when you first signed with your signing certificate. It unlocks your signing key for this signature.',
  signingPasswordTooShort: (min: number) => `Use at least ${min} characters.`,
  signingPasswordMismatch: 'The two passwords are not the same.',
  signingPasswordWrong: (attemptsLeft: number | null) =>
    attemptsLeft === null
      ? 'The signing password is wrong.'
      : `The signing password is wrong. ${attemptsLeft} attempt${attemptsLeft === 1 ? '' : 's'} left.`,
  signingPasswordLocked: 'Too many wrong signing passwords. Try again in 15 minutes, or get a new signing key below.',
  signingKeyNotCertifiable:
    'Your address must be confirmed before a signing certificate can be made for it. Open the confirmation link we mailed when you created your account, or sign from the link in the signing request mail.',
  signingKeyForgot: 'Forgot your signing password?',
  signingKeyResetIntro:
    'We mail a code to your address. With it you choose a new signing password: it creates a new signing key and certificate. Your earlier signatures stay valid.',
  signingKeyResetSend: 'Mail me a code',
  signingKeyResetSending: 'Sending…',
  signingKeyResetSent: 'We mailed you a code. It works for 10 minutes.',
  signingKeyResetCode: 'Code from the mail',
  signingKeyResetPassword: 'New signing password',
  signingKeyResetConfirm: 'Confirm the new signing password',
  signingKeyResetSubmit: 'Create a new signing key',
  signingKeyResetDone: 'Your new signing key is ready. Enter its password above to sign.',
  signingKeyResetCodeInvalid: 'Enter the 6 digits from the mail.',
  signedWithCertificate: 'Signed with your personal signing certificate.',
  libraryHeading: (mark: Mark) => (mark === 'initials' ? 'Your saved initials' : `Your saved ${mark}s`),
  libraryUse: (name: string) => `Use “${name}”`,
  libraryImageAlt: (name: string) => `Saved: ${name}`,
  librarySignIn: 'Have an account? Sign in to use your saved signatures',

  // Finishing
  actionsRegion: 'Filling and signing',
  finishHeading: 'Finish',
  finishSign: 'Finish and sign',
  finishApprove: 'Approve',
  approveCommentLabel: 'Comment for the sender (optional)',
  finishBlocked: (count: number) => `Fill ${count} more required ${count === 1 ? 'field' : 'fields'} first.`,
  moreActions: 'Other options',
  decline: 'Decline',
  declineHeading: 'Decline to sign',
  declineReasonLabel: 'Reason (the sender will read it)',
  declineConfirm: 'Decline',
  declineReasonMissing: 'Tell the sender why you decline.',
  delegate: 'Ask someone else',
  delegateHeading: 'Hand this task to someone else',
  delegateIntro: 'They will get their own email with a link, and your link will stop working.',
  delegateName: 'Their name',
  delegateEmail: 'Their email',
  delegateConfirm: 'Hand over',
  delegateNameInvalid:
    'Enter their name: 2 to 50 characters, letters (a hyphen or apostrophe between two), single spaces between words.',
  delegateEmailInvalid: 'Enter their email address.',
  cancel: 'Cancel',
  close: 'Close',

  // Outcomes
  doneSignedTitle: 'Thank you, you have signed',
  doneApprovedTitle: 'Thank you, you have approved',
  doneWaiting:
    'The others still have to act. You will get an email with the completed document when everyone has finished.',
  doneCompleted:
    'Everyone has finished. The document is being sealed; the download appears here in a moment, and you will also get it by email.',
  doneSealed: 'Everyone has finished. The document is sealed and ready.',
  declinedTitle: 'You declined',
  declinedText: 'The sender has been told, with your reason. Nobody can sign this document any more.',
  delegatedTitle: 'Task handed over',
  delegatedText: (name: string, email: string) =>
    `${name} (${email}) will get an email with their own link. Your link no longer works.`,
  voidTitle: 'This document was cancelled',
  voidText: 'Someone declined or the sender cancelled it. Nothing more can be signed.',
  notYourTurnTitle: 'Not your turn yet',
  notYourTurnText:
    'Others act before you. We will email you when it is your turn; until then you can read the document.',
  ccTitle: 'You receive a copy',
  ccText: 'You do not need to do anything. You can read the document here.',
  alreadyFinished: 'You have already finished. You can read the document here.',
  downloadsHeading: 'Download',
  downloadDocument: (name: string) => `Download ${name} (sealed PDF)`,
  downloadCertificate: 'Download the certificate of completion',
  downloadFailed: 'The download failed. Try again in a moment.',

  // Comments
  commentsHeading: 'Comments',
  commentsEmpty: 'No comments yet.',
  commentLabel: 'Add a comment',
  commentOnField: (label: string) => `About the field “${label}”`,
  commentAboutField: (label: string) => `about “${label}”`,
  commentSend: 'Post comment',
  commentEmpty: 'Write a comment first.',
  commentBy: (name: string, time: string) => `${name}, ${time}`,

  // CSC callback
  cscReturning: 'Returning to your document…',
  ssoTitle: 'Sign in',
  ssoHandedBack: 'You are signed in. This window closes by itself; if it stays open, close it.',
  ssoReturnToApp: 'Sign-in finished. Return to the app that asked you to sign in.',
  ssoFailed: (reason: string) => `The sign-in did not finish (${reason}). Return to the app and try again.`,
  cscNoSession: 'This page completes a remote signature. Go back to the document you were signing.',

  // Remote (CSC) signing on the signing page
  cscHeading: 'Remote signing',
  cscIntro:
    'Your signing service signs with your own certificate: you confirm the signature on its page and come back here.',
  cscLoading: 'Looking up your certificates at your signing service…',
  cscCredentialLabel: 'Certificate',
  cscCredentialOption: (name: string, kind: string) => `${name}, ${kind}`,
  cscQualifier: {
    SES: 'electronic signature',
    AES: 'advanced electronic signature',
    QES: 'qualified electronic signature',
  } as Record<string, string>,
  cscSignButton: 'Sign with your remote signing provider',
  cscRedirecting: 'Taking you to your signing service…',
  cscNoCredentials: 'Your signing service holds no certificate for a kind of signature this document accepts.',
  cscUnavailable: 'Your signing service cannot be reached right now. Try again in a moment.',
  cscCompleting: 'Completing your remote signature…',
  cscRefused: 'Your signing service did not authorize the signature. Nothing was signed; you can try again.',
  cscFailed: (reason: string) =>
    `The remote signature could not be completed: ${reason} Nothing was signed; you can try again.`,
  cscSigned: 'Your remote signature was added to the document.',

  notFoundTitle: 'Page not found',
  notFoundText: 'Open the signing link from your email.',
};

export type Messages = typeof en;
