import crypto from 'node:crypto';
import type { webcrypto } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type * as pkijs from 'pkijs';
import {
  certificateToDer,
  formatName,
  issueCertificate,
  parseCertificate,
  pemDecode,
  pemEncode,
} from './certificates.ts';

/**
 * The platform's sealing identity: the certificate every completed document is sealed with, its issuer
 * chain (the platform root CA) and the private key.
 */
export type SealIdentity = {
  certificatePem: string;
  /** Issuer certificates, nearest first, ending with the root; the seal certificate itself is not included. */
  chainPem: string[];
  subject: string;
  /** SHA-256 of the seal certificate's DER, lowercase hex. */
  fingerprintSha256: string;
  certificateDer: Uint8Array;
  chainDer: Uint8Array[];
  privateKey: webcrypto.CryptoKey;
  notAfter: Date;
};

const subtle = globalThis.crypto.subtle;
const EC_KEY: webcrypto.EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
const DAY_MS = 24 * 60 * 60 * 1000;
const CA_VALIDITY_DAYS = 20 * 365;
const SEAL_VALIDITY_DAYS = 3 * 365;
/** A seal certificate this close to expiry is replaced, so no seal carries a certificate about to lapse. */
const RENEW_BEFORE_DAYS = 30;
/** Instances sharing DATA_DIR may disagree a little on the clock; backdating keeps a new certificate valid on all. */
const BACKDATE_MS = 10 * 60 * 1000;
const ORGANIZATION = 'Signature Service';
const CA_DIR = 'seal-ca';
const SEAL_DIR_PREFIX = 'seal-';
const CERTIFICATE_FILE = 'certificate.pem';
const KEY_FILE = 'private-key.pem';

type Stored = { certificates: pkijs.Certificate[]; der: Uint8Array[]; keyDer: Uint8Array };

const cache = new Map<string, Promise<SealIdentity>>();

export type SealIdentityOptions = {
  /**
   * PUBLIC_URL: a seal certificate issued from now on names the platform CA's CRL and certificate under it
   * (PKI_PATHS), so verifiers can fetch them. Certificates issued before keep working without.
   */
  publicUrl?: string;
};

/** Where the pki module publishes the platform CA, relative to PUBLIC_URL. */
export const PKI_PATHS = { certificate: '/pki/v1/ca.crt', crl: '/pki/v1/ca.crl' } as const;

/** The platform root CA (DATA_DIR/keys/seal-ca), created if absent: what signs the seal certificates and the CRL. */
export async function loadPlatformCa(
  dataDir: string,
): Promise<{ certificate: pkijs.Certificate; certificateDer: Uint8Array; privateKey: webcrypto.CryptoKey }> {
  const keysDir = path.resolve(dataDir, 'keys');
  await fs.mkdir(keysDir, { recursive: true, mode: 0o700 });
  const ca = await publishOnce(keysDir, CA_DIR, createCa);
  return {
    certificate: ca.certificates[0],
    certificateDer: ca.der[0],
    privateKey: await importSigningKey(ca.keyDer, ca.certificates[0]),
  };
}

/**
 * Creates once into DATA_DIR/keys (a platform root CA + a seal certificate issued by it, key usage
 * digitalSignature/nonRepudiation), reuses afterwards; safe when two processes start together.
 *
 * Layout: keys/seal-ca/ holds the root CA, keys/seal-<yyyymmdd>/ a seal certificate (certificate.pem: the
 * seal certificate followed by its issuers; private-key.pem: PKCS#8; both mode 0600). A directory appears only
 * whole, by renaming a finished temporary directory, so no reader sees half an identity, and of two
 * processes creating the same one the first rename wins and the other adopts it. The newest seal
 * directory that is valid for more than 30 days is used (else a new one is issued), which also lets an
 * operator drop in a certificate from an external CA.
 */
export async function loadSealIdentity(dataDir: string, options: SealIdentityOptions = {}): Promise<SealIdentity> {
  const keysDir = path.resolve(dataDir, 'keys');
  const cached = cache.get(keysDir);
  if (cached) {
    const identity = await cached.catch(() => null);
    if (identity && !needsRenewal(identity.notAfter, new Date())) return identity;
    if (cache.get(keysDir) === cached) cache.delete(keysDir);
  }
  let pending = cache.get(keysDir);
  if (!pending) {
    pending = resolveIdentity(keysDir, options);
    cache.set(keysDir, pending);
    pending.catch(() => cache.delete(keysDir));
  }
  return pending;
}

async function resolveIdentity(keysDir: string, options: SealIdentityOptions): Promise<SealIdentity> {
  await fs.mkdir(keysDir, { recursive: true, mode: 0o700 });
  const now = new Date();
  const existing = await findCurrentSeal(keysDir, now);
  if (existing) return toIdentity(existing);
  const ca = await publishOnce(keysDir, CA_DIR, createCa);
  const base = `${SEAL_DIR_PREFIX}${now.toISOString().slice(0, 10).replaceAll('-', '')}`;
  // Today's name may already hold a certificate that is not usable (say, one an operator put there that
  // is about to expire): then the next suffix. Racing processes walk the same names, so they still agree.
  if (needsRenewal(ca.certificates[0].notAfter.value, now)) {
    throw new Error(
      `The platform CA in ${path.join(keysDir, CA_DIR)} expires within ${RENEW_BEFORE_DAYS} days; replace it`,
    );
  }
  for (let n = 1; n <= 100; n++) {
    const issued = await publishOnce(keysDir, n === 1 ? base : `${base}-${n}`, () =>
      issueSeal(ca, now, options.publicUrl),
    );
    if (isUsable(issued, now)) return toIdentity(issued);
  }
  throw new Error(`No usable seal certificate could be created in ${keysDir}`);
}

function isUsable(stored: Stored, now: Date): boolean {
  const leaf = stored.certificates[0];
  return leaf.notBefore.value.getTime() <= now.getTime() + BACKDATE_MS && !needsRenewal(leaf.notAfter.value, now);
}

function needsRenewal(notAfter: Date, now: Date): boolean {
  return notAfter.getTime() - now.getTime() < RENEW_BEFORE_DAYS * DAY_MS;
}

async function findCurrentSeal(keysDir: string, now: Date): Promise<Stored | null> {
  let best: Stored | null = null;
  for (const entry of await fs.readdir(keysDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.startsWith(SEAL_DIR_PREFIX) || entry.name === CA_DIR) continue;
    const stored = await readStored(path.join(keysDir, entry.name));
    if (!stored) continue;
    if (!isUsable(stored, now)) continue;
    if (!best || stored.certificates[0].notBefore.value > best.certificates[0].notBefore.value) best = stored;
  }
  return best;
}

/** Returns the identity stored under `name`, creating it with `create` and publishing it atomically if absent. */
async function publishOnce(keysDir: string, name: string, create: () => Promise<Stored>): Promise<Stored> {
  const finalDir = path.join(keysDir, name);
  const present = await readStored(finalDir);
  if (present) return present;
  const created = await create();
  const tempDir = await fs.mkdtemp(path.join(keysDir, `.tmp-${name}-`));
  try {
    await writeFileDurably(
      path.join(tempDir, CERTIFICATE_FILE),
      created.der.map((d) => pemEncode(d, 'CERTIFICATE')).join(''),
      0o600,
    );
    await writeFileDurably(path.join(tempDir, KEY_FILE), pemEncode(created.keyDer, 'PRIVATE KEY'), 0o600);
    await fs.chmod(tempDir, 0o700);
    try {
      await fs.rename(tempDir, finalDir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    }
    await syncDirectory(keysDir);
  } finally {
    await fs.rm(tempDir, { recursive: true, force: true });
  }
  const winner = await readStored(finalDir);
  if (!winner) throw new Error(`Seal identity directory ${finalDir} could not be read back after creation`);
  return winner;
}

async function readStored(dir: string): Promise<Stored | null> {
  let certificateText: string;
  let keyText: string;
  try {
    [certificateText, keyText] = await Promise.all([
      fs.readFile(path.join(dir, CERTIFICATE_FILE), 'utf8'),
      fs.readFile(path.join(dir, KEY_FILE), 'utf8'),
    ]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const der = pemDecode(certificateText, 'CERTIFICATE');
  const [keyDer] = pemDecode(keyText, 'PRIVATE KEY');
  if (der.length === 0 || !keyDer) throw new Error(`${dir} must hold a certificate and a PKCS#8 private key in PEM`);
  return { certificates: der.map(parseCertificate), der, keyDer };
}

async function writeFileDurably(file: string, content: string, mode: number): Promise<void> {
  const handle = await fs.open(file, 'wx', mode);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function createCa(): Promise<Stored> {
  const keys = await subtle.generateKey(EC_KEY, true, ['sign', 'verify']);
  const installation = crypto.randomBytes(4).toString('hex');
  const notBefore = new Date(Date.now() - BACKDATE_MS);
  const certificate = await issueCertificate({
    commonName: `${ORGANIZATION} Root CA ${installation}`,
    organization: ORGANIZATION,
    publicKey: keys.publicKey,
    signingKey: keys.privateKey,
    notBefore,
    notAfter: new Date(notBefore.getTime() + CA_VALIDITY_DAYS * DAY_MS),
    isCa: true,
    keyUsage: ['keyCertSign', 'cRLSign'],
  });
  return stored([certificate], await exportKey(keys.privateKey));
}

async function issueSeal(ca: Stored, now: Date, publicUrl: string | undefined): Promise<Stored> {
  const caCertificate = ca.certificates[0];
  const caKey = await importSigningKey(ca.keyDer, caCertificate);
  const keys = await subtle.generateKey(EC_KEY, true, ['sign', 'verify']);
  const installation = formatName(caCertificate.subject).match(/Root CA ([0-9a-f]+)/)?.[1];
  const notBefore = new Date(now.getTime() - BACKDATE_MS);
  const certificate = await issueCertificate({
    commonName: `${ORGANIZATION} Document Seal${installation ? ` ${installation}` : ''}`,
    organization: ORGANIZATION,
    publicKey: keys.publicKey,
    issuer: { certificate: caCertificate, privateKey: caKey },
    notBefore,
    notAfter: new Date(
      Math.min(notBefore.getTime() + SEAL_VALIDITY_DAYS * DAY_MS, caCertificate.notAfter.value.getTime()),
    ),
    isCa: false,
    keyUsage: ['digitalSignature', 'nonRepudiation'],
    ...(publicUrl
      ? { crlUrl: `${publicUrl}${PKI_PATHS.crl}`, issuerCertificateUrl: `${publicUrl}${PKI_PATHS.certificate}` }
      : {}),
  });
  return stored([certificate, ...ca.certificates], await exportKey(keys.privateKey));
}

function stored(certificates: pkijs.Certificate[], keyDer: Uint8Array): Stored {
  return { certificates, der: certificates.map(certificateToDer), keyDer };
}

async function toIdentity(s: Stored): Promise<SealIdentity> {
  const [certificateDer, ...chainDer] = s.der;
  return {
    certificatePem: pemEncode(certificateDer, 'CERTIFICATE'),
    chainPem: chainDer.map((d) => pemEncode(d, 'CERTIFICATE')),
    subject: formatName(s.certificates[0].subject),
    fingerprintSha256: crypto.createHash('sha256').update(certificateDer).digest('hex'),
    certificateDer,
    chainDer,
    privateKey: await importSigningKey(s.keyDer, s.certificates[0]),
    notAfter: s.certificates[0].notAfter.value,
  };
}

/** Imports a PKCS#8 key for the algorithm its certificate names: ECDSA (any named curve) or RSA PKCS#1 v1.5. */
export async function importSigningKey(
  keyDer: Uint8Array,
  certificate: pkijs.Certificate,
): Promise<webcrypto.CryptoKey> {
  const publicKey = crypto.createPublicKey({
    key: Buffer.from(certificate.subjectPublicKeyInfo.toSchema().toBER(false)),
    format: 'der',
    type: 'spki',
  });
  const jwk = publicKey.export({ format: 'jwk' });
  const params: webcrypto.EcKeyImportParams | webcrypto.RsaHashedImportParams =
    jwk.kty === 'EC'
      ? { name: 'ECDSA', namedCurve: jwk.crv as string }
      : { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  return subtle.importKey('pkcs8', keyDer, params, false, ['sign']);
}

async function exportKey(key: webcrypto.CryptoKey): Promise<Uint8Array> {
  return new Uint8Array(await subtle.exportKey('pkcs8', key));
}
