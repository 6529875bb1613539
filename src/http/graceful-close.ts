import type { FastifyInstance } from 'fastify';

export type HttpCloser = {
  /** Requests received and not yet answered. */
  inFlight(): number;
  /**
   * Stops accepting connections and lets the requests in flight finish until `deadline` (epoch ms); then cuts the
   * connections still open. Resolves once the server is closed; answers how many requests were cut.
   */
  close(deadline: number): Promise<{ cut: number }>;
};

/**
 * The HTTP half of a graceful shutdown. Fastify's close() stops listening, answers 503 to a new request on a kept-alive
 * connection and waits for the requests in flight, but without a bound: one slow client would hold the shutdown
 * (and the database, which must close after the last request) for ever. This counts the requests in flight, asks
 * every answer given while closing to end its connection (so clients reconnect to another instance instead of
 * reusing this one), and cuts what is left at the deadline.
 */
export function registerGracefulClose(app: FastifyInstance): HttpCloser {
  // A set rather than a counter: a request the client aborted may see both onRequestAbort and onResponse.
  const open = new Set<object>();
  let closing = false;
  app.addHook('onRequest', async (request, reply) => {
    open.add(request);
    // Every answer ends with 'close', also one whose client closed the socket before this process saw its last write
    // complete: Fastify then runs neither onResponse nor onRequestAbort ("stream closed prematurely").
    reply.raw.once('close', () => open.delete(request));
  });
  app.addHook('onResponse', async (request) => {
    open.delete(request);
  });
  app.addHook('onRequestAbort', async (request) => {
    open.delete(request);
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  return {
    inFlight: () => open.size,
    async close(deadline) {
      closing = true;
      const closed = app.close();
      let timer: NodeJS.Timeout | undefined;
      const late = await Promise.race([
        closed.then(() => false),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), Math.max(0, deadline - Date.now()));
        }),
      ]);
      clearTimeout(timer);
      if (!late) return { cut: 0 };
      const cut = open.size;
      // Only a listening server has sockets; an app used through inject() has nothing to cut.
      if (app.server.listening || cut > 0) app.server.closeAllConnections();
      await closed;
      return { cut };
    },
  };
}
