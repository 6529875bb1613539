import { ConfigError, loadConfig, type Config } from './config.ts';
import { buildApp } from './app.ts';
import { PRIVATE_UMASK, restrictDataDir } from './platform/storage/data-dir.ts';

// Whatever this process creates without an explicit mode (PGlite's data files, libraries' scratch files) is
// owner-only; DATA_DIR holds keys, signing links and contracts.
process.umask(PRIVATE_UMASK);
let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  // Fatal before any logger exists (LOG_LEVEL is part of what failed to parse).
  console.error(error.message);
  process.exit(1);
}
const loosened = restrictDataDir(config.dataDir);
const { app, close } = await buildApp(config);
if (loosened > 0) app.log.warn(`DATA_DIR ${config.dataDir}: took group/other permissions away from ${loosened} existing entries`);
await app.listen({ port: config.port, host: config.host });

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    close().then(() => process.exit(0), (error) => {
      app.log.error(error);
      process.exit(1);
    });
  });
}
