import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { expect } from 'vitest';
import type { TestApp } from './test-app.ts';
import { multipartBody, type Part } from './documents.ts';

/** The app listening on a loopback port (closed with the app); answers its base URL. */
export async function listen(t: TestApp): Promise<string> {
  return t.app.listen({ port: 0, host: '127.0.0.1' });
}

/**
 * A multipart POST over a real socket, the body in one write (the kernel hands it to the service in pieces, as a
 * client's upload arrives). app.inject would hand the service the whole 25 MB body at once, so its multipart
 * parsing would run in one event-loop turn, which no real upload does. Given parts, the body is built first: to
 * leave building a 25 MB body (this process is the client too) out of what a probe measures, pass `multipartBody`'s
 * result built beforehand.
 */
export function postMultipart(
  base: string,
  path: string,
  form: Part[] | { body: Buffer; contentType: string },
): Promise<{ status: number; body: any }> {
  const { body, contentType } = Array.isArray(form) ? multipartBody(form) : form;
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${path}`,
      { method: 'POST', headers: { 'content-type': contentType, 'content-length': body.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            body: String(res.headers['content-type'] ?? '').includes('json') ? JSON.parse(text) : text,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function getStatus(url: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

/**
 * Runs `task` while GET /admin/internal/health is asked over its own connection every 10 ms, and answers the
 * task's result with the slowest health answer, the longest event-loop delay and the CPU time this thread (the
 * service's event loop, and this test's client) spent on the task meanwhile. A health answer's wait counts from
 * when its request was due (10 ms after the previous answer), not from when the blocked event loop got round to
 * sending it: a client's request would have waited all along. On a loaded machine the waits also hold the time
 * this process waited for a core (an unsigned 24 MB upload saw 340-750 ms there); the CPU time does not, so it
 * tells work done on the event loop from waiting. The probes' own CPU time is measured first, on 20 probes
 * alone, and taken off.
 */
export async function whileProbingHealth<T>(
  base: string,
  task: () => Promise<T>,
): Promise<{
  result: T;
  slowestHealthMs: number;
  probes: number;
  maxLoopDelayMs: number;
  mainThreadCpuMs: number;
  elapsedMs: number;
}> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = `${base}/admin/internal/health`;
  const calibration = process.threadCpuUsage();
  for (let i = 0; i < 20; i++) await getStatus(url, agent);
  const perProbe = cpuMs(process.threadCpuUsage(calibration)) / 20;
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  let done = false;
  let slowestHealthMs = 0;
  let probes = 0;
  const probing = (async () => {
    let due = performance.now();
    while (!done) {
      const status = await getStatus(url, agent);
      if (status !== 200) throw new Error(`health answered ${status}`);
      const answered = performance.now();
      slowestHealthMs = Math.max(slowestHealthMs, answered - due);
      probes++;
      due = answered + 10;
      await new Promise((resolve) => setTimeout(resolve, 10));
      // Waking late is waiting too: the task may finish (and end this loop) before another probe is sent.
      slowestHealthMs = Math.max(slowestHealthMs, performance.now() - due);
    }
  })();
  const started = performance.now();
  const cpuBefore = process.threadCpuUsage();
  let result: T;
  let elapsedMs: number;
  try {
    result = await task();
    elapsedMs = performance.now() - started;
  } finally {
    // The probe in flight when the task ends counts too: it may be the one that waited.
    done = true;
    await probing;
    agent.destroy();
    loopDelay.disable();
  }
  const mainThreadCpuMs = Math.max(0, cpuMs(process.threadCpuUsage(cpuBefore)) - probes * perProbe);
  return { result, slowestHealthMs, probes, maxLoopDelayMs: loopDelay.max / 1e6, mainThreadCpuMs, elapsedMs };
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

/**
 * A request that must not hold the event loop (a hostile upload): the health check answered within 2 s all along
 * (generous: on a loaded machine the waits for a core count there, up to 1.1 s seen), and the event loop's thread
 * spent under 400 ms of CPU on it, receiving 24 MB and sending them included (70-160 ms measured). One SHA-256 of
 * 24 MB costs 14 ms, so 50 of them, or a field walk of seconds, on the event loop exceed it on any machine.
 */
export function expectEventLoopKeptFree(
  probe: { slowestHealthMs: number; mainThreadCpuMs: number; elapsedMs: number; probes: number },
  label = '',
): void {
  const figures = `${label} answered after ${probe.elapsedMs.toFixed(0)} ms, health waited ${probe.slowestHealthMs.toFixed(0)} ms (${probe.probes} probes), event-loop thread CPU ${probe.mainThreadCpuMs.toFixed(0)} ms`;
  expect(probe.slowestHealthMs, figures).toBeLessThan(2_000);
  expect(probe.mainThreadCpuMs, figures).toBeLessThan(400);
}
