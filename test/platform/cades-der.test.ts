import crypto from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { describe, expect, it } from 'vitest';
import {
  assembleCadesSignature,
  cadesSignedAttributes,
  signingCertificateV2,
} from '../../src/platform/crypto/cades.ts';
import { OID, parseCertificate } from '../../src/platform/crypto/certificates.ts';
import { caAsCard, createCa, issueCard } from '../helpers/card-certificates.ts';

/**
 * The CMS as pkijs built it before assembleCadesSignature wrote its DER directly (the same structure, object by
 * object): the two must agree byte for byte, for EC and RSA signers, a chain, and with a time-stamp token.
 */
function pkijsAssembly(input: {
  signedAttributes: Uint8Array;
  signatureValue: Uint8Array;
  certificateDer: Uint8Array;
  chainDer: Uint8Array[];
  token?: Uint8Array;
}): Uint8Array {
  const certificate = parseCertificate(input.certificateDer);
  const parsedAttributes = asn1js.fromBER(input.signedAttributes);
  const sha256 = () => new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256, algorithmParams: new asn1js.Null() });
  const keyAlgorithm = certificate.subjectPublicKeyInfo.algorithm.algorithmId;
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: certificate.issuer, serialNumber: certificate.serialNumber }),
    digestAlgorithm: sha256(),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({
      type: 0,
      attributes: (parsedAttributes.result as asn1js.Set).valueBlock.value.map(
        (element) => new pkijs.Attribute({ schema: element }),
      ),
    }),
    signatureAlgorithm: new pkijs.AlgorithmIdentifier({
      algorithmId: keyAlgorithm === '1.2.840.10045.2.1' ? '1.2.840.10045.4.3.2' : '1.2.840.113549.1.1.11',
    }),
    signature: new asn1js.OctetString({ valueHex: input.signatureValue }),
  });
  if (input.token) {
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [
        new pkijs.Attribute({ type: OID.signatureTimeStampToken, values: [asn1js.fromBER(input.token).result] }),
      ],
    });
  }
  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [sha256()],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    signerInfos: [signerInfo],
    certificates: [certificate, ...input.chainDer.map(parseCertificate)],
  });
  return new Uint8Array(
    new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) }).toSchema().toBER(false),
  );
}

/** The signed attributes as pkijs built them before (content-type, message-digest, signing-certificate-v2). */
function pkijsSignedAttributes(documentDigest: Uint8Array, certificateDer: Uint8Array): Uint8Array {
  const attributes = new pkijs.SignedAndUnsignedAttributes({
    type: 0,
    attributes: [
      new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
      new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: documentDigest })] }),
      signingCertificateV2(parseCertificate(certificateDer), certificateDer),
    ],
  });
  const der = new Uint8Array(attributes.toSchema().toBER(false));
  der[0] = 0x31;
  return der;
}

const derOf = (pem: string) => new Uint8Array(Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64'));

describe('the CAdES signature written as DER', () => {
  it('is byte for byte what pkijs wrote (the signed attributes and the CMS): EC and RSA signers, with their chain, with and without a time-stamp token', async () => {
    const ca = await createCa('Equivalence CA');
    const caDer = derOf(ca.pem);
    // A DER token stand-in of realistic size (a SEQUENCE holding a 3 KB OCTET STRING): the assembly embeds it as given.
    const token = new Uint8Array(
      Buffer.concat([Buffer.from([0x30, 0x82, 0x0b, 0xbc, 0x04, 0x82, 0x0b, 0xb8]), crypto.randomBytes(3000)]),
    );
    for (const kind of ['EC', 'RSA'] as const) {
      const card = await issueCard(ca, { email: `${kind.toLowerCase()}@example.com`, kind });
      const certificateDer = derOf(card.pem);
      for (const chainDer of [[], [caDer]]) {
        for (const withToken of [false, true]) {
          const digest = new Uint8Array(crypto.randomBytes(32));
          const signedAttributes = cadesSignedAttributes(digest, certificateDer);
          expect(
            Buffer.from(signedAttributes).equals(Buffer.from(pkijsSignedAttributes(digest, certificateDer))),
            `${kind} signed attributes`,
          ).toBe(true);
          // Long enough for a long-form length (an RSA value is 256 bytes).
          const signatureValue = new Uint8Array(crypto.randomBytes(kind === 'RSA' ? 256 : 71));
          const written = await assembleCadesSignature({
            signedAttributes,
            signatureValue,
            certificateDer,
            chainDer,
            ...(withToken ? { timestamp: async () => token } : {}),
          });
          const reference = pkijsAssembly({
            signedAttributes,
            signatureValue,
            certificateDer,
            chainDer,
            ...(withToken ? { token } : {}),
          });
          expect(
            Buffer.from(written).equals(Buffer.from(reference)),
            `${kind}, chain ${chainDer.length}, token ${withToken}`,
          ).toBe(true);
        }
      }
    }
    // The CA as its own signer (a self-issued certificate): the same.
    const self = await caAsCard(ca);
    const selfDer = derOf(self.pem);
    const signedAttributes = cadesSignedAttributes(new Uint8Array(32), selfDer);
    expect(Buffer.from(signedAttributes).equals(Buffer.from(pkijsSignedAttributes(new Uint8Array(32), selfDer)))).toBe(
      true,
    );
    const signatureValue = new Uint8Array(70);
    expect(
      Buffer.from(
        await assembleCadesSignature({ signedAttributes, signatureValue, certificateDer: selfDer, chainDer: [] }),
      ).equals(Buffer.from(pkijsAssembly({ signedAttributes, signatureValue, certificateDer: selfDer, chainDer: [] }))),
    ).toBe(true);
  });

  it('refuses signed attributes that are not a DER SET and a token that is not DER', async () => {
    const ca = await createCa('Refusal CA');
    const certificateDer = derOf((await issueCard(ca, { email: 'x@example.com', kind: 'EC' })).pem);
    const signedAttributes = cadesSignedAttributes(new Uint8Array(32), certificateDer);
    await expect(
      assembleCadesSignature({
        signedAttributes: Uint8Array.of(0x30, 0x00),
        signatureValue: new Uint8Array(70),
        certificateDer,
        chainDer: [],
      }),
    ).rejects.toThrow(/not a DER SET/);
    await expect(
      assembleCadesSignature({
        signedAttributes,
        signatureValue: new Uint8Array(70),
        certificateDer,
        chainDer: [],
        timestamp: async () => Uint8Array.of(0xff),
      }),
    ).rejects.toThrow(/not valid DER/);
  });
});
