import { loadConfig } from './config.ts';
import { buildApp } from './app.ts';

const config = loadConfig();
const { app, close } = await buildApp(config);
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
