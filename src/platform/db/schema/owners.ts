/**
 * Who may write each table: a module of src/modules/, or a part of the platform (`platform/mail`). Any code may read
 * any table; a write by anyone else fails `npm run lint:deps` (scripts/check-table-owners.ts). A table with more than
 * one owner says why: the envelope tables are written by the modules of the envelope under the workflow row lock,
 * and a few columns belong to the module whose rule they carry. ARCHITECTURE.md, "Tables and their owners".
 */
type Owners = { owners: readonly string[]; why?: string };

const ENVELOPE =
  'an envelope table: written by the modules of the envelope, each its part, under the workflow row lock (signing: statuses, values, sealed files)';

export const TABLE_OWNERS = {
  users: {
    owners: ['users', 'admin'],
    why: "admin writes the operator's switch (disabled_at, disabled_by, disabled_reason)",
  },
  userSettings: { owners: ['users'] },
  organizations: {
    owners: ['organizations', 'billing', 'mail-settings', 'admin'],
    why: "billing writes the plan columns (package, credits, cycle), mail-settings email_settings, admin the operator's switch (disabled_*)",
  },
  memberships: {
    owners: ['organizations', 'billing'],
    why: "billing counts the signatures of each qualifier against the role's quota (used_*)",
  },
  roles: { owners: ['roles'] },
  packages: { owners: ['billing'] },
  packageChanges: { owners: ['billing'] },
  refreshTokens: { owners: ['auth'] },
  loginStates: { owners: ['auth'] },
  idpTokenUses: { owners: ['auth'] },
  authChallenges: { owners: ['platform/auth'] },
  attemptEvents: { owners: ['platform/limits'] },
  webSessions: { owners: ['web-session'] },
  passkeys: { owners: ['passkeys'] },
  businessApps: {
    owners: ['business-apps', 'webhooks'],
    why: 'webhooks writes the callback state (callback_failing_since, callback_paused_at)',
  },
  webhookDeliveries: { owners: ['webhooks'] },
  organizationBranding: { owners: ['branding'] },
  mailOutbox: { owners: ['platform/mail'] },
  signatureAssets: { owners: ['signature-library'] },
  signatureSettings: { owners: ['signature-library'] },
  signerKeys: { owners: ['signer-keys'] },
  remoteSignaturePreparations: { owners: ['remote-signing'] },
  folders: { owners: ['folders'] },
  templates: { owners: ['templates'] },
  templateFolders: { owners: ['templates'] },
  templateInstanceFields: { owners: ['templates'] },
  fieldEvents: { owners: ['templates'] },
  workflows: { owners: ['workflows', 'documents', 'signing'], why: ENVELOPE },
  documents: { owners: ['documents', 'signing'], why: ENVELOPE },
  recipients: { owners: ['recipients', 'workflows', 'signing'], why: ENVELOPE },
  fields: { owners: ['fields', 'signing'], why: ENVELOPE },
  comments: { owners: ['comments'] },
  activities: { owners: ['activities'] },
  identityChallenges: { owners: ['signing'] },
  recipientPasswordPasses: { owners: ['signing'] },
  signerRevisions: { owners: ['signing'] },
  reminderDeliveries: { owners: ['reminders'] },
  workflowListEntries: {
    owners: [],
    why: "the document list's read model, kept by triggers on the envelope tables (migrations 0020, 0022, 0026)",
  },
  workflowListCounts: { owners: [], why: 'the counts of the document list, kept by the same triggers' },
} satisfies Record<string, Owners>;
