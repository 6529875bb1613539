// An SMTP peer in a process of its own, for benches that measure the service's mail throughput: in the bench's
// own process the peer's parsing shared the service's event loop and was counted as the service's time.
// Run by the benches (forked, with an IPC channel): sends {port} once listening, then {received} every 25 ms.
import { SMTPServer } from 'smtp-server';

let received = 0;
const peer = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  disableReverseLookup: true,
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => {
      received += 1;
      callback();
    });
  },
});
// A client killed mid-mail (the survey bench's kill -9) resets its connection: an error of that one session, which
// without a listener would end the peer.
peer.on('error', () => {});
await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
process.send!({ port: (peer.server.address() as { port: number }).port });
let last = -1;
setInterval(() => {
  if (received !== last) process.send!({ received });
  last = received;
}, 25);
process.on('disconnect', () => process.exit(0));
