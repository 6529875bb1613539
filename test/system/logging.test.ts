import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger, logTo, withLogger } from '../../src/platform/logger.ts';
import { registerRequestId, requestId } from '../../src/http/request-id.ts';

/**
 * Services log through a plain `Log` handed to them at start; their lines still carry the request's `reqId` or the
 * job's `job` and `jobId`, found through the log context (src/platform/logger.ts). Checked here on the service's
 * own logger and request-id plumbing; the process tests (shutdown.test.ts) check it on the real service's output.
 */
function capture() {
  const lines: Record<string, any>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      callback();
    },
  });
  return { lines, logger: createLogger('info', destination) };
}

describe('log context', () => {
  it("a service line written while serving a request carries that request's id, also after awaits", async () => {
    const { lines, logger } = capture();
    const log = logTo(logger);
    // As app.ts does: the pino logger seen as Fastify's base type.
    const loggerInstance: FastifyBaseLogger = logger;
    const app = Fastify({ loggerInstance, genReqId: requestId, requestIdHeader: false });
    registerRequestId(app);
    app.get('/work', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      log('service line');
      await Promise.resolve();
      log('service failure', new Error('boom'));
      return { ok: true };
    });
    await app.ready();
    const [first, second] = await Promise.all([
      app.inject({ method: 'GET', url: '/work', headers: { 'x-request-id': 'request-one-1234' } }),
      app.inject({ method: 'GET', url: '/work', headers: { 'x-request-id': 'request-two-5678' } }),
    ]);
    expect(first.headers['x-request-id']).toBe('request-one-1234');
    expect(second.headers['x-request-id']).toBe('request-two-5678');
    const service = lines.filter((line) => String(line.msg).startsWith('service'));
    // Two requests at once: each line belongs to its own request.
    expect(service.map((line) => [line.reqId, line.msg]).sort()).toEqual([
      ['request-one-1234', 'service failure'],
      ['request-one-1234', 'service line'],
      ['request-two-5678', 'service failure'],
      ['request-two-5678', 'service line'],
    ]);
    expect(service.find((line) => line.msg === 'service failure')).toMatchObject({
      level: 50,
      err: { message: 'boom' },
    });
    await app.close();
  });

  it("inside withLogger (what a job attempt runs in) lines carry the job's bindings; outside, the plain logger writes them", async () => {
    const { lines, logger } = capture();
    const log = logTo(logger);
    await withLogger(logger.child({ job: 'mail.deliver', jobId: 'job-1' }), async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      log('inside the job');
    });
    log('outside');
    expect(lines.map((line) => [line.msg, line.job, line.jobId])).toEqual([
      ['inside the job', 'mail.deliver', 'job-1'],
      ['outside', undefined, undefined],
    ]);
  });
});
