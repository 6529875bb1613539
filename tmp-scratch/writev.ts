import net from 'node:net';
import { fork } from 'node:child_process';
if (process.argv[2] === 'sink') {
  const server = net.createServer((s) => s.on('data', (d) => { s.write(d.subarray(0, 1)); }));
  server.listen(0, '127.0.0.1', () => process.send!((server.address() as net.AddressInfo).port));
} else {
  const child = fork(import.meta.filename, ['sink']);
  const port: number = await new Promise((r) => child.once('message', r as any));
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  socket.setNoDelay(true);
  const parts = [Buffer.alloc(60, 1), Buffer.alloc(40, 2), Buffer.alloc(14, 3), Buffer.alloc(5, 4)];
  let waiting: (() => void) | null = null;
  socket.on('data', () => { const w = waiting; waiting = null; w?.(); });
  async function run(label: string, send: () => void, n: number) {
    const cpu = process.cpuUsage(); const t = performance.now();
    for (let i = 0; i < n; i++) { const p = new Promise<void>((r) => { waiting = r; }); send(); await p; }
    const c = process.cpuUsage(cpu);
    console.log(label, ((performance.now() - t) * 1000 / n).toFixed(1), 'us/iter wall', ((c.user + c.system) / n).toFixed(1), 'us/iter cpu (user', (c.user / n).toFixed(1), 'sys', (c.system / n).toFixed(1), ')');
  }
  for (let round = 0; round < 2; round++) {
    await run('corked 4 writes (writev)', () => { socket.cork(); for (const p of parts) socket.write(p); socket.uncork(); }, 20000);
    await run('one concatenated write ', () => { socket.write(Buffer.concat(parts)); }, 20000);
  }
  socket.destroy(); child.kill();
}
