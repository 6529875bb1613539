// Runs in a worker thread (pdf-verifier.ts): reading an uploaded PDF's signatures, hashing their ranges and
// checking their CMS happen here, never on the service's event loop, under the pool's heap and CPU-time limits.
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { parseCertificate } from './certificates.ts';
import { verifyPdfSignatures, type SignatureVerdict } from './verify-pdf.ts';
import { TooManySignaturesError, UnreadablePdfError } from '../pdf/read-signatures.ts';

/** Sent once the modules are loaded; `threadId` is this thread's id in /proc (Linux), for the pool to read its CPU time. */
export type VerifyReady = { ready: true; threadId: number | null };
export type VerifyRequest = { id: number; pdf: Uint8Array; trustAnchorsDer: Uint8Array[]; maxSignatures: number };
export type VerifyReply =
  | { id: number; signatures: SignatureVerdict[] }
  | { id: number; tooMany: number }
  | { id: number; unreadable: string };

async function verify(request: VerifyRequest): Promise<VerifyReply> {
  try {
    const signatures = await verifyPdfSignatures(request.pdf, request.trustAnchorsDer.map(parseCertificate), {
      maxSignatures: request.maxSignatures,
    });
    return { id: request.id, signatures };
  } catch (error) {
    if (error instanceof TooManySignaturesError) return { id: request.id, tooMany: error.limit };
    if (error instanceof UnreadablePdfError) return { id: request.id, unreadable: error.message };
    // Anything else thrown while reading an uploaded file (the parser's own errors) says the file cannot be read.
    return {
      id: request.id,
      unreadable: `The PDF could not be read (${error instanceof Error ? error.message.slice(0, 200) : String(error)})`,
    };
  }
}

function ownThreadId(): number | null {
  try {
    const id = Number(fs.readlinkSync('/proc/thread-self').split('/').at(-1));
    return Number.isSafeInteger(id) ? id : null;
  } catch {
    return null;
  }
}

parentPort!.on('message', (request: VerifyRequest) => {
  void verify(request).then((reply) => parentPort!.postMessage(reply));
});
// Everything is loaded: the pool counts a verification's limits from here.
parentPort!.postMessage({ ready: true, threadId: ownThreadId() } satisfies VerifyReady);
