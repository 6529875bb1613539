import { ConfigError, loadConfig, type Config } from './config.ts';
import { PRIVATE_UMASK, restrictDataDir } from './platform/storage/data-dir.ts';

// Whatever this process creates without an explicit mode (PGlite's data files, libraries' scratch files) is
// owner-only; DATA_DIR holds keys, signing links and contracts.
process.umask(PRIVATE_UMASK);
/** What closing the workers, mail connections and database may take after the drain's own bound. */
const SHUTDOWN_SLACK_MS = 10_000;
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
// Imported once the configuration is known to be good: a bad variable is reported at once, without first loading
// every module of the service.
const { buildApp } = await import('./app.ts');
const { app, close } = await buildApp(config);
if (loosened > 0)
  app.log.warn(`DATA_DIR ${config.dataDir}: took group/other permissions away from ${loosened} existing entries`);
await app.listen({ port: config.port, host: config.host });

// SIGTERM (an orchestrator stopping or replacing the instance) or SIGINT (Ctrl-C): stop accepting, let the requests in
// flight and the running jobs finish within SHUTDOWN_TIMEOUT_MS (jobs still running then go back to the queue for
// another instance), then close the database. A second signal, or a shutdown that overruns its bound, exits at once:
// nothing is lost by that either, since every job is durable and every handler safe to run again.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) {
      app.log.warn(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    stopping = true;
    const started = Date.now();
    app.log.info({ drainMs: config.shutdownDrainMs, timeoutMs: config.shutdownTimeoutMs }, `${signal}: shutting down`);
    const boundMs = config.shutdownDrainMs + config.shutdownTimeoutMs + SHUTDOWN_SLACK_MS;
    const overrun = setTimeout(() => {
      app.log.error(`shutdown still not finished ${boundMs} ms after ${signal}; exiting`);
      process.exit(1);
    }, boundMs);
    overrun.unref();
    close({ timeoutMs: config.shutdownTimeoutMs }).then(
      () => {
        app.log.info({ ms: Date.now() - started }, 'shut down');
        process.exit(0);
      },
      (error) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
