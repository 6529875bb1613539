// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import * as pkijs from 'pkijs';
import { cryptoEngine } from './certificates.ts';

/**
 * Certification path validation (RFC 5280 section 6, the parts a sign-in certificate needs) for an end-entity
 * certificate: a path is built from it to a trust anchor through the intermediates on offer, then each path is
 * checked; the first that passes is the answer. Revocation is the caller's (it knows its transport).
 */

/** Which check refused the path. */
export type PathFailure =
  | 'UNTRUSTED_ISSUER'
  | 'NOT_YET_VALID'
  | 'EXPIRED'
  | 'ISSUER_NOT_CA'
  | 'PATH_LENGTH'
  | 'KEY_USAGE'
  | 'EXTENDED_KEY_USAGE';

export class CertificatePathError extends Error {
  readonly reason: PathFailure;
  constructor(reason: PathFailure, message: string) {
    super(message);
    this.name = 'CertificatePathError';
    this.reason = reason;
  }
}

/** What the end-entity certificate must be fit for. */
export type EndEntityPurpose = {
  /** Key usage bits it must allow (x509.KeyUsageFlags); the key usage extension must be present. */
  keyUsage: number;
  /** It must carry the extended key usage extension with one of these; absent, it is refused. */
  extendedKeyUsages: readonly { oid: string; name: string }[];
};

/**
 * The configured trust, parsed once (a certificate takes milliseconds to parse): anchors end a path (a root or an
 * intermediate CA); `intermediates` may be used in a path but are not trusted themselves.
 */
export type TrustStore = { readonly anchors: readonly Node[]; readonly intermediates: readonly Node[] };

export function createTrustStore(anchors: readonly Buffer[], intermediates: readonly Buffer[] = []): TrustStore {
  return { anchors: anchors.map(toNode), intermediates: intermediates.map(toNode) };
}

export type PathInput = {
  /** DER of the end-entity certificate. */
  certificate: Buffer;
  /** DER of further certificates that may be intermediates (the client's); not trusted themselves. */
  intermediates: readonly Buffer[];
  trust: TrustStore;
  purpose: EndEntityPurpose;
  now?: Date;
};

/** A path holds the end-entity certificate, at most this many more, and the search is bounded. */
const MAX_PATH_CERTIFICATES = 10;
const MAX_PATHS = 8;
const MAX_ISSUER_SEARCHES = 64;

type Node = { der: Buffer; pkijs: pkijs.Certificate; readonly x509: x509.X509Certificate };

/**
 * Builds and checks the paths from `certificate` to an anchor; answers the first valid one, end-entity first and
 * anchor last (DER). Throws CertificatePathError: UNTRUSTED_ISSUER when no path reaches an anchor, else the first
 * failure of the shortest path. An issuer is a certificate whose subject is the child's issuer name (matching the
 * authority key identifier when both carry one) and whose key verifies the child's signature (pkijs).
 */
export async function validateCertificatePath(input: PathInput): Promise<Buffer[]> {
  const now = input.now ?? new Date();
  const leaf = toNode(input.certificate);
  const anchors = [...input.trust.anchors];
  const intermediates = [...input.trust.intermediates];
  for (const node of input.intermediates.flatMap(readable)) {
    if (![...anchors, ...intermediates].some((known) => known.der.equals(node.der))) intermediates.push(node);
  }
  const paths = await buildPaths(leaf, anchors, intermediates);
  if (paths.length === 0)
    throw new CertificatePathError('UNTRUSTED_ISSUER', await noPathMessage(leaf, anchors, intermediates));
  paths.sort((a, b) => a.length - b.length);
  let firstFailure: CertificatePathError | null = null;
  for (const path of paths) {
    const failure = checkPathSafely(path, now, input.purpose);
    if (!failure) return path.map((node) => node.der);
    firstFailure ??= failure;
  }
  throw firstFailure!;
}

/** The @peculiar/x509 view (for the extension checks and names) is read only for certificates a path uses. */
function toNode(der: Buffer): Node {
  let view: x509.X509Certificate | undefined;
  return {
    der,
    pkijs: pkijs.Certificate.fromBER(new Uint8Array(der)),
    get x509() {
      view ??= new x509.X509Certificate(new Uint8Array(der));
      return view;
    },
  };
}

/** An offered certificate that cannot be read is no candidate; the end-entity certificate must be readable. */
function readable(der: Buffer): Node[] {
  try {
    return [toNode(der)];
  } catch {
    return [];
  }
}

/** A malformed extension refuses the path rather than failing the request. */
function checkPathSafely(path: Node[], now: Date, purpose: EndEntityPurpose): CertificatePathError | null {
  try {
    return checkPath(path, now, purpose);
  } catch (error) {
    return new CertificatePathError(
      'UNTRUSTED_ISSUER',
      `A certificate of the path could not be read (${(error as Error).message})`,
    );
  }
}

async function buildPaths(leaf: Node, anchors: readonly Node[], intermediates: readonly Node[]): Promise<Node[][]> {
  const byCertificate = new Map<pkijs.Certificate, Node>(
    [...anchors, ...intermediates].map((node) => [node.pkijs, node]),
  );
  const engine = new pkijs.CertificateChainValidationEngine({
    trustedCerts: anchors.map((n) => n.pkijs),
    certs: intermediates.map((n) => n.pkijs),
  });
  const paths: Node[][] = [];
  let searches = 0;
  async function extend(path: Node[]): Promise<void> {
    const top = path[path.length - 1];
    if (anchors.some((anchor) => anchor.der.equals(top.der))) {
      paths.push(path);
      return;
    }
    if (path.length >= MAX_PATH_CERTIFICATES || paths.length >= MAX_PATHS || searches >= MAX_ISSUER_SEARCHES) return;
    searches += 1;
    for (const issuer of await engine.defaultFindIssuer(top.pkijs, engine, cryptoEngine)) {
      const node = byCertificate.get(issuer);
      if (node && !path.some((step) => step.der.equals(node.der))) await extend([...path, node]);
    }
  }
  await extend([leaf]);
  return paths;
}

/** Where the search stopped: at an issuer nobody offered, or at a self-signed certificate that is not an anchor. */
async function noPathMessage(leaf: Node, anchors: readonly Node[], intermediates: readonly Node[]): Promise<string> {
  const engine = new pkijs.CertificateChainValidationEngine({
    trustedCerts: anchors.map((n) => n.pkijs),
    certs: intermediates.map((n) => n.pkijs),
  });
  const seen = new Set<Node>([leaf]);
  let current = leaf;
  for (let step = 0; step < MAX_PATH_CERTIFICATES; step++) {
    const issuers = await engine.defaultFindIssuer(current.pkijs, engine, cryptoEngine);
    const next = intermediates.find((node) => issuers.includes(node.pkijs) && !seen.has(node));
    if (!next) break;
    seen.add(next);
    current = next;
  }
  if (current !== leaf && current.x509.subject === current.x509.issuer) {
    return `The certificate's path ends at ${current.x509.subject}, which is not a trusted certificate authority`;
  }
  const whose = current === leaf ? 'the certificate' : current.x509.subject;
  return `No trusted certificate authority issued ${whose}: its issuer ${current.x509.issuer} is neither trusted nor among the certificates sent with it`;
}

function checkPath(path: Node[], now: Date, purpose: EndEntityPurpose): CertificatePathError | null {
  const label = (index: number) => (index === 0 ? 'The certificate' : `The CA certificate ${path[index].x509.subject}`);
  for (const [index, node] of path.entries()) {
    if (node.x509.notBefore.getTime() > now.getTime())
      return new CertificatePathError(
        'NOT_YET_VALID',
        `${label(index)} is not valid before ${node.x509.notBefore.toISOString()}`,
      );
    if (node.x509.notAfter.getTime() < now.getTime())
      return new CertificatePathError('EXPIRED', `${label(index)} expired on ${node.x509.notAfter.toISOString()}`);
  }
  for (let index = 1; index < path.length; index++) {
    const issuer = path[index].x509;
    const constraints = issuer.getExtension(x509.BasicConstraintsExtension);
    if (!constraints?.ca) {
      return new CertificatePathError(
        'ISSUER_NOT_CA',
        `${issuer.subject} is not a certificate authority (basicConstraints cA), so it cannot issue ${path[index - 1].x509.subject}`,
      );
    }
    const usage = issuer.getExtension(x509.KeyUsagesExtension);
    if (usage && (usage.usages & x509.KeyUsageFlags.keyCertSign) === 0) {
      return new CertificatePathError(
        'KEY_USAGE',
        `${label(index)} does not allow keyCertSign (key usage), so it cannot issue certificates`,
      );
    }
    // pathLen counts the intermediate CA certificates below this one, self-issued ones (key rollover) excepted.
    const below = path.slice(1, index).filter((node) => node.x509.subject !== node.x509.issuer).length;
    if (constraints.pathLength !== undefined && below > constraints.pathLength) {
      return new CertificatePathError(
        'PATH_LENGTH',
        `${label(index)} allows ${constraints.pathLength} intermediate CA certificate(s) below it (pathLen); this path has ${below}`,
      );
    }
  }
  const leaf = path[0].x509;
  if (leaf.getExtension(x509.BasicConstraintsExtension)?.ca)
    return new CertificatePathError('KEY_USAGE', 'A CA certificate is not an end-entity certificate');
  const usage = leaf.getExtension(x509.KeyUsagesExtension);
  if (!usage || (usage.usages & purpose.keyUsage) !== purpose.keyUsage) {
    const names = Object.entries(x509.KeyUsageFlags)
      .filter(([, flag]) => typeof flag === 'number' && (purpose.keyUsage & flag) !== 0)
      .map(([name]) => name);
    return new CertificatePathError('KEY_USAGE', `The certificate does not allow ${names.join(', ')} (key usage)`);
  }
  const extended = leaf.getExtension(x509.ExtendedKeyUsageExtension);
  const wanted = purpose.extendedKeyUsages;
  if (!extended?.usages.some((oid) => wanted.some((entry) => entry.oid === oid))) {
    return new CertificatePathError(
      'EXTENDED_KEY_USAGE',
      `The certificate's extended key usage ${extended ? `(${extended.usages.join(', ')}) does not include` : 'extension is absent; it must include'} ${wanted.map((entry) => `${entry.name} (${entry.oid})`).join(' or ')}`,
    );
  }
  return null;
}
