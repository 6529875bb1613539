// The schema drizzle-kit reads and the Drizzle client is typed with: every table, by aggregate.
export * from './accounts.ts';
export * from './workflows.ts';
export * from './document-list.ts';
export * from './templates.ts';
export * from './mail.ts';
export * from './limits.ts';
export * from './passkeys.ts';
export * from './user-settings.ts';
export * from './sessions.ts';
export * from './branding.ts';
export * from './billing.ts';
export * from './webhooks.ts';
export * from './signer-keys.ts';
export * from './remote-signing.ts';
