// The schema drizzle-kit reads and the Drizzle client is typed with: every table, by aggregate.
export * from './accounts.ts';
export * from './workflows.ts';
export * from './templates.ts';
export * from './mail.ts';
export * from './limits.ts';
