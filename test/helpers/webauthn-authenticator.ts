import crypto from 'node:crypto';

/**
 * A software WebAuthn authenticator with one ES256 (P-256) credential: builds what a browser hands the
 * relying party after navigator.credentials.create() (attestation "none") and .get(). Each field a test may
 * want to falsify (origin, RP id, challenge, counter, flags) can be overridden per call.
 */
export type Overrides = {
  origin?: string;
  rpId?: string;
  challenge?: string;
  counter?: number;
  type?: string;
  flags?: number;
  signWith?: crypto.KeyObject;
};

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export function createSoftwareAuthenticator(defaults: { origin: string; rpId: string }) {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const credentialId = crypto.randomBytes(16);
  const id = credentialId.toString('base64url');
  let counter = 0;
  let userHandle: string | undefined;

  function clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  function authData(rpId: string, flags: number, signCount: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(signCount);
    return Buffer.concat([sha256(Buffer.from(rpId)), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  return {
    id,
    get counter() {
      return counter;
    },
    set counter(value: number) {
      counter = value;
    },

    /** RegistrationResponseJSON answering `options` (PublicKeyCredentialCreationOptionsJSON). */
    register(options: { challenge: string; rp: { id: string }; user: { id: string } }, overrides: Overrides = {}) {
      userHandle = options.user.id;
      const jwk = publicKey.export({ format: 'jwk' });
      const cosePublicKey = cbor(
        new Map<number, unknown>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x!, 'base64url')],
          [-3, Buffer.from(jwk.y!, 'base64url')],
        ]),
      );
      const length = Buffer.alloc(2);
      length.writeUInt16BE(credentialId.length);
      const attested = Buffer.concat([Buffer.alloc(16), length, credentialId, cosePublicKey]);
      const data = authData(
        overrides.rpId ?? defaults.rpId,
        overrides.flags ?? FLAG_UP | FLAG_UV | FLAG_AT,
        overrides.counter ?? counter,
        attested,
      );
      const attestationObject = cbor(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', data],
        ]),
      );
      return {
        id,
        rawId: id,
        type: 'public-key' as const,
        response: {
          clientDataJSON: clientData(
            overrides.type ?? 'webauthn.create',
            overrides.challenge ?? options.challenge,
            overrides.origin ?? defaults.origin,
          ).toString('base64url'),
          attestationObject: attestationObject.toString('base64url'),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },

    /** AuthenticationResponseJSON answering `options` (PublicKeyCredentialRequestOptionsJSON); moves the counter forward first. */
    assert(options: { challenge: string }, overrides: Overrides = {}) {
      if (overrides.counter === undefined) counter += 1;
      const data = authData(
        overrides.rpId ?? defaults.rpId,
        overrides.flags ?? FLAG_UP | FLAG_UV,
        overrides.counter ?? counter,
      );
      const client = clientData(
        overrides.type ?? 'webauthn.get',
        overrides.challenge ?? options.challenge,
        overrides.origin ?? defaults.origin,
      );
      const signature = crypto.sign('sha256', Buffer.concat([data, sha256(client)]), overrides.signWith ?? privateKey);
      return {
        id,
        rawId: id,
        type: 'public-key' as const,
        response: {
          clientDataJSON: client.toString('base64url'),
          authenticatorData: data.toString('base64url'),
          signature: signature.toString('base64url'),
          ...(userHandle ? { userHandle } : {}),
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
}

function sha256(data: Buffer): Buffer {
  return crypto.createHash('sha256').update(data).digest();
}

/** The CBOR subset WebAuthn needs: unsigned and negative integers, byte and text strings, maps (RFC 8949). */
export function cbor(value: unknown): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Map)
    return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  throw new Error(`cbor: unsupported ${typeof value}`);
}

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 256) return Buffer.from([(major << 5) | 24, n]);
  const b = Buffer.alloc(3);
  b[0] = (major << 5) | 25;
  b.writeUInt16BE(n, 1);
  return b;
}
