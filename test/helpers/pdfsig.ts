import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import * as pkijs from 'pkijs';
import { parseCertificate, pemDecode } from '../../src/platform/crypto/certificates.ts';
import { verifyPdfSignatures } from '../../src/platform/crypto/verify-pdf.ts';
import { readSignatures } from '../../src/platform/pdf/read-signatures.ts';
import { has } from './tools.ts';

const run = promisify(execFile);

/** One signature as pdfsig lists it: its "- key: value" lines, and the block's text (`raw`). */
export type PdfsigBlock = Record<string, string> & { raw: string };

export type PdfsigReport = {
  /** pdfsig's report (or, without it, the service's own verification written the way pdfsig writes it). */
  output: string;
  blocks: PdfsigBlock[];
  /** Signatures, document time-stamps not counted. */
  signatures: number;
  documentTimestamps: number;
  /** There is a signature, and every one is valid. */
  allValid: boolean;
  /** The chains were checked against `trustedCaPems`, and every signer's certificate is trusted. */
  trusted: boolean;
  /** The chains were checked against `trustedCaPems` (pdfsig without certutil cannot build its trust database). */
  trustChecked: boolean;
  /** Poppler's pdfsig made the report; false when it is not installed (tools.ts). */
  independent: boolean;
};

/**
 * The signatures of a PDF as `pdfsig` (poppler) reports them, the validator independent of this service. Where
 * pdfsig is not installed (a machine with Node alone), the service's own verification (the one POST /verify/v1
 * runs) writes the same report: the same tests assert, and the global setup said once that the independent check
 * was skipped. With `trustedCaPems` the chains are checked against those CAs (for pdfsig, an NSS database made
 * with certutil); without, certificates are not checked (pdfsig -nocert).
 *
 * Debian 12's poppler 22.12 lists a document time-stamp (field DocumentTimeStamp*, SubFilter ETSI.RFC3161) as
 * "Signature Type: unknown" and never verifies it, so time-stamps are counted apart; they are verified with
 * `openssl ts -verify` in test/platform/seal-lta.test.ts and by POST /verify/v1.
 */
export async function pdfsig(bytes: Uint8Array, options: { trustedCaPems?: string[] } = {}): Promise<PdfsigReport> {
  const { output, trustChecked } = has('pdfsig')
    ? await popplerReport(bytes, options.trustedCaPems)
    : await ownReport(bytes, options.trustedCaPems);
  const blocks = output
    .split(/^Signature #\d+:$/m)
    .slice(1)
    .map(
      (block) =>
        ({
          ...Object.fromEntries([...block.matchAll(/^ *- ([^:\n]+): (.*)$/gm)].map((m) => [m[1], m[2].trim()])),
          raw: block,
        }) as PdfsigBlock,
    );
  const isTimestamp = (block: PdfsigBlock) =>
    /^DocumentTimeStamp/.test(block['Signature Field Name'] ?? '') &&
    /^(unknown|ETSI\.RFC3161)$/.test(block['Signature Type'] ?? '');
  const documentTimestamps = blocks.filter(isTimestamp).length;
  const signed = blocks.filter((block) => !isTimestamp(block));
  const valid = signed.filter((block) => block['Signature Validation'] === 'Signature is Valid.').length;
  const trusted =
    trustChecked && signed.every((block) => block['Certificate Validation'] === 'Certificate is Trusted.');
  return {
    output,
    blocks,
    signatures: signed.length,
    documentTimestamps,
    allValid: signed.length > 0 && valid === signed.length,
    trusted,
    trustChecked,
    independent: has('pdfsig'),
  };
}

async function popplerReport(
  bytes: Uint8Array,
  trustedCaPems: string[] | undefined,
): Promise<{ output: string; trustChecked: boolean }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdfsig-'));
  const file = path.join(dir, 'signed.pdf');
  fs.writeFileSync(file, bytes);
  try {
    const nssDir = trustedCaPems && has('certutil') ? await trustStore(dir, trustedCaPems) : null;
    const args = nssDir ? ['-nssdir', `sql:${nssDir}`, file] : trustedCaPems ? [file] : ['-nocert', file];
    // pdfsig exits non-zero when a signature is not valid (or, poppler 22.12, not verified: a document time-stamp).
    const { stdout } = await run('pdfsig', args).catch((error) => ({
      stdout: String(error.stdout ?? '') + String(error.stderr ?? ''),
    }));
    return { output: stdout, trustChecked: nssDir !== null };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** An NSS database under `parent` trusting `caPems`. */
async function trustStore(parent: string, caPems: string[]): Promise<string> {
  const dir = path.join(parent, 'nss');
  fs.mkdirSync(dir);
  await run('certutil', ['-N', '-d', `sql:${dir}`, '--empty-password']);
  for (const [index, pem] of caPems.entries()) {
    const file = path.join(parent, `ca-${index}.pem`);
    fs.writeFileSync(file, pem);
    await run('certutil', ['-A', '-d', `sql:${dir}`, '-n', `ca-${index}`, '-t', 'C,C,C', '-a', '-i', file]);
  }
  return dir;
}

const DIGESTS: Record<string, string> = {
  '1.3.14.3.2.26': 'SHA1',
  '2.16.840.1.101.3.4.2.1': 'SHA-256',
  '2.16.840.1.101.3.4.2.2': 'SHA-384',
  '2.16.840.1.101.3.4.2.3': 'SHA-512',
};

/** The service's verification of every signature (verify-pdf.ts), in pdfsig's words and layout. */
async function ownReport(
  bytes: Uint8Array,
  trustedCaPems: string[] | undefined,
): Promise<{ output: string; trustChecked: boolean }> {
  const anchors = (trustedCaPems ?? []).flatMap((pem) => pemDecode(pem, 'CERTIFICATE')).map(parseCertificate);
  const entries = await readSignatures(bytes, { maxSignatures: 1000 });
  const verdicts = await verifyPdfSignatures(bytes, anchors, { maxSignatures: 1000 });
  const lines = ['Digital Signature Info of: signed.pdf'];
  for (const [index, verdict] of verdicts.entries()) {
    const entry = entries.find((candidate) => candidate.fieldName === verdict.fieldName)!;
    const [start1, length1, start2, length2] = entry.byteRange;
    lines.push(`Signature #${index + 1}:`, `  - Signature Field Name: ${verdict.fieldName}`);
    if (verdict.signerName) lines.push(`  - Signer Certificate Common Name: ${verdict.signerName}`);
    if (verdict.certificate) lines.push(`  - Signer full Distinguished Name: ${verdict.certificate.subject}`);
    const digest = digestAlgorithm(entry.contents);
    if (digest) lines.push(`  - Signing Hash Algorithm: ${digest}`);
    lines.push(`  - Signature Type: ${entry.subFilter}`);
    lines.push(`  - Signed Ranges: [${start1} - ${start1 + length1}], [${start2} - ${start2 + length2}]`);
    lines.push(verdict.coversWholeDocument ? '  - Total document signed' : '  - Not total document signed');
    lines.push(
      `  - Signature Validation: ${verdict.integrity === 'VALID' ? 'Signature is Valid.' : `Signature is Invalid (${verdict.problem}).`}`,
    );
    if (trustedCaPems)
      lines.push(
        `  - Certificate Validation: ${verdict.certificate?.trustedByPlatform ? 'Certificate is Trusted.' : "Certificate issuer isn't Trusted."}`,
      );
  }
  return { output: `${lines.join('\n')}\n`, trustChecked: trustedCaPems !== undefined };
}

function digestAlgorithm(contents: Uint8Array): string | null {
  try {
    const signedData = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(contents).content });
    return DIGESTS[signedData.signerInfos[0]?.digestAlgorithm.algorithmId] ?? null;
  } catch {
    return null;
  }
}
