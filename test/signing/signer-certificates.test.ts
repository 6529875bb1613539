import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import * as pkijs from 'pkijs';
import { describe, expect } from 'vitest';
import { attemptEvents, fields, signerKeys, signerRevisions } from '../../src/platform/db/schema/index.ts';
import { readSignatures } from '../../src/platform/pdf/read-signatures.ts';
import { OID, formatName, pemEncode } from '../../src/platform/crypto/certificates.ts';
import { certificateSerialHex, generateSignerKeyPair } from '../../src/platform/crypto/signer-certificate.ts';
import { completeSignerRevision, prepareSignerRevision } from '../../src/modules/signing/signer-revisions.ts';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertField, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { setRecipient } from '../helpers/envelope-states.ts';
import { commence, documentRows, fieldRow, pngDataUrl, tokenFromMail, waitForSeal } from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';

const PASSWORD = 'my signing secret';

type SignerSpec = {
  user: TestUser;
  useDigitalCert?: boolean;
  fields: { fieldType: string; fieldRequired?: boolean }[];
};

/** An ORDERED envelope of `owner` with the given signers (registered users), each with its fields on page 1, committed over HTTP. */
async function orderedEnvelope(t: TestApp, owner: TestUser, signers: SignerSpec[]) {
  const { workflow, document } = await createDraftWorkflow(t, owner, { sequence: 'ORDERED' });
  const rows = [];
  const fieldIds: number[][] = [];
  for (const [index, spec] of signers.entries()) {
    const row = await insertRecipient(t, workflow.id, {
      userId: spec.user.userId,
      name: spec.user.name,
      email: spec.user.email,
      recipientOrder: index + 1,
    });
    if (spec.useDigitalCert) await setRecipient(t, row.id, { useDigitalCert: true });
    rows.push(row);
    const ids: number[] = [];
    for (const [i, field] of spec.fields.entries()) {
      ids.push(
        (
          await insertField(t, {
            workflowId: workflow.id,
            documentId: document.id,
            recipientId: row.id,
            box: { x: 72, y: 80 + 70 * (index * 3 + i), width: 180, height: 50 },
            ...field,
          })
        ).id,
      );
    }
    fieldIds.push(ids);
  }
  await commence(t, owner, workflow.id);
  return { workflow, document, rows, fieldIds };
}

function save(t: TestApp, token: string, documentId: number, body: unknown[]) {
  return t.request('POST', `/workflow/v1/${documentId}/fields/save`, { token, body });
}

function digital(id: number, password?: string, value: string = pngDataUrl(120, 40, 7)) {
  return { id, type: 'DIGITAL_SIGNATURE', value, ...(password === undefined ? {} : { password }) };
}

async function revisionsOf(t: TestApp, documentId: number) {
  return t.platform.db
    .select()
    .from(signerRevisions)
    .where(eq(signerRevisions.documentId, documentId))
    .orderBy(signerRevisions.id);
}

async function keyOf(t: TestApp, email: string) {
  return (await t.platform.db.select().from(signerKeys).where(eq(signerKeys.email, email.toLowerCase())))[0];
}

/** The signer certificate and the CMS signer identifier of one PDF signature. */
function cmsOf(contents: Uint8Array) {
  const info = pkijs.ContentInfo.fromBER(contents);
  const signed = new pkijs.SignedData({ schema: info.content });
  const [signerInfo] = signed.signerInfos;
  const certificates = (signed.certificates ?? []) as pkijs.Certificate[];
  const sid = signerInfo.sid;
  const byIssuerSerial = sid instanceof pkijs.IssuerAndSerialNumber;
  const certificate = byIssuerSerial
    ? certificates.find((c) => c.serialNumber.isEqual(sid.serialNumber) && c.issuer.isEqual(sid.issuer))
    : undefined;
  return {
    byIssuerSerial,
    certificate,
    serial: byIssuerSerial ? Buffer.from(sid.serialNumber.valueBlock.valueHexView).toString('hex') : null,
  };
}

function emailOf(certificate: pkijs.Certificate): string | undefined {
  const san = certificate.extensions?.find((e) => e.extnID === '2.5.29.17')?.parsedValue as pkijs.AltName | undefined;
  return san?.altNames.find((n) => n.type === 1)?.value as string | undefined;
}

describe('per-signer certificates (useDigitalCert)', () => {
  test('two certificate signers and a plain one, ORDERED: each signature its own revision, every one valid, the seal last over the whole file', async ({
    app: t,
    owner,
  }) => {
    const ada = await createUser(t, { name: 'Ada Certified' });
    const ben = await createUser(t, { name: 'Ben Plain' });
    const cleo = await createUser(t, { name: 'Cleo Certified' });
    const { workflow, document, fieldIds, rows } = await orderedEnvelope(t, owner, [
      {
        user: ada,
        useDigitalCert: true,
        fields: [
          { fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true },
          { fieldType: 'TEXT' },
          { fieldType: 'SIGNATURE' },
        ],
      },
      { user: ben, fields: [{ fieldType: 'SIGNATURE' }] },
      { user: cleo, useDigitalCert: true, fields: [{ fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true }] },
    ]);
    const adaToken = await tokenFromMail(t, ada.email);
    const status = await t.request('GET', `/workflow/v1/${workflow.id}/signing-key`, { token: adaToken });
    expect(status.body).toMatchObject({
      useDigitalCert: true,
      provisioned: false,
      certificate: null,
      minPasswordLength: 8,
    });

    expect(
      (await save(t, adaToken, document.id, [{ id: fieldIds[0][1], type: 'TEXT', value: 'Clause 4 accepted' }])).status,
    ).toBe(200);
    const withoutPassword = await save(t, adaToken, document.id, [digital(fieldIds[0][0])]);
    expect(withoutPassword.status).toBe(400);
    expect(withoutPassword.body.errorCode).toBe(15102);
    const tooShort = await save(t, adaToken, document.id, [digital(fieldIds[0][0], 'short')]);
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.errorCode).toBe(15103);
    expect(await keyOf(t, ada.email)).toBeUndefined();
    const passwordOnText = await save(t, adaToken, document.id, [
      { id: fieldIds[0][1], type: 'TEXT', value: 'x', password: PASSWORD },
    ]);
    expect(passwordOnText.status).toBe(400);

    // First use provisions Ada's key and appends her signature; her still unsigned SIGNATURE keeps her from finishing.
    const signed = await save(t, adaToken, document.id, [digital(fieldIds[0][0], PASSWORD)]);
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body.recipientStatus).not.toBe('SIGNED');
    const adaKey = await keyOf(t, ada.email);
    expect(adaKey).toBeDefined();
    expect(adaKey.wrappedKey).not.toContain('PRIVATE');
    const [firstRevision] = await revisionsOf(t, document.id);
    expect(firstRevision).toMatchObject({
      status: 'COMPLETED',
      signerKind: 'LOCAL_KEY',
      certificateSerial: adaKey.certificateSerial,
    });
    expect((firstRevision.drawnFieldIds as number[]).sort()).toEqual([fieldIds[0][0], fieldIds[0][1]].sort());
    expect((await fieldRow(t, fieldIds[0][0])).value).toMatch(/^data:image\/png;base64,/);
    // Her signed values are hers: the row can no longer be handed to someone else.
    const delegated = await t.request('POST', `/workflow/v1/${workflow.id}/recipients/${rows[0].id}/delegate`, {
      token: owner.token,
      body: { name: 'Someone Else', emailAddress: 'someone.else@example.com' },
    });
    expect(delegated.status).toBe(400);
    expect(delegated.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
    // What she signed cannot change any more.
    const change = await save(t, adaToken, document.id, [
      { id: fieldIds[0][1], type: 'TEXT', value: 'Clause 4 rejected' },
    ]);
    expect(change.status).toBe(400);
    expect(change.body.errorCode).toBe(15104);
    const otherImage = await save(t, adaToken, document.id, [digital(fieldIds[0][0], PASSWORD, pngDataUrl(60, 60, 9))]);
    expect(otherImage.body.errorCode).toBe(15104);
    // Sent again unchanged (a page re-sending every value on finish), signed values are left alone: no second signature.
    const again = await save(t, adaToken, document.id, [
      digital(fieldIds[0][0], PASSWORD),
      { id: fieldIds[0][1], type: 'TEXT', value: 'Clause 4 accepted' },
    ]);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.savedFieldIds).toEqual([]);
    expect(await revisionsOf(t, document.id)).toHaveLength(1);
    const adaDone = await save(t, adaToken, document.id, [
      { id: fieldIds[0][2], type: 'SIGNATURE', value: pngDataUrl(80, 30, 2) },
    ]);
    expect(adaDone.body.recipientStatus).toBe('SIGNED');
    const afterAda = await t.request('GET', `/workflow/v1/${workflow.id}/signing-key`, { token: adaToken });
    expect(afterAda.body).toMatchObject({ provisioned: true, certificate: { serialNumber: adaKey.certificateSerial } });
    expect(afterAda.body.certificate.subject).toContain('CN=Ada Certified');

    // Ben is a plain signer: a password on his (non-certificate) row is refused; his image is drawn by the seal.
    const benToken = await tokenFromMail(t, ben.email);
    expect(
      (await save(t, benToken, document.id, [{ id: fieldIds[1][0], type: 'SIGNATURE', value: pngDataUrl(90, 30, 4) }]))
        .body.recipientStatus,
    ).toBe('SIGNED');

    const cleoToken = await tokenFromMail(t, cleo.email);
    const cleoSigned = await save(t, cleoToken, document.id, [digital(fieldIds[2][0], 'cleo signs here')]);
    expect(cleoSigned.status, JSON.stringify(cleoSigned.body)).toBe(200);
    expect(cleoSigned.body).toMatchObject({ recipientStatus: 'SIGNED', workflowStatus: 'COMPLETED' });
    const revisions = await revisionsOf(t, document.id);
    expect(revisions).toHaveLength(2);
    // Cleo's revision draws Ben's finished signature and Ada's SIGNATURE (both finished), never Ada's signed fields again.
    expect((revisions[1].drawnFieldIds as number[]).sort()).toEqual(
      [fieldIds[0][2], fieldIds[1][0], fieldIds[2][0]].sort(),
    );
    expect(revisions[1].baseRevisionId).toBe(revisions[0].id);

    expect((await waitForSeal(t, workflow.id)).sealStatus).toBe('SEALED');
    const [doc] = await documentRows(t, workflow.id);
    const sealed = await t.platform.blobs.get(doc.sealedBlobKey!);
    // Pure incremental updates: each signed revision is a byte-identical prefix of the next and of the sealed file.
    const first = await t.platform.blobs.get(revisions[0].blobKey);
    const second = await t.platform.blobs.get(revisions[1].blobKey);
    expect(Buffer.from(second.subarray(0, first.length)).equals(Buffer.from(first))).toBe(true);
    expect(Buffer.from(sealed.subarray(0, second.length)).equals(Buffer.from(second))).toBe(true);

    const report = await pdfsig(sealed);
    expect(report.signatures, report.output).toBe(3);
    expect(report.allValid, report.output).toBe(true);
    const blocks = report.output.split(/^Signature #\d+:$/m).slice(1);
    expect(blocks[2]).toMatch(/Signature Field Name: PlatformSeal/);
    expect(blocks[2]).toMatch(/Total document signed/);
    expect(blocks[0]).toMatch(/Not total document signed/);
    expect(blocks[1]).toMatch(/Not total document signed/);

    // With the platform CA trusted, poppler's NSS accepts the signer certificates' chain and key usage too.
    const caDer = (await t.app.inject({ method: 'GET', url: '/pki/v1/ca.crt' })).rawPayload;
    const trustedReport = await pdfsig(sealed, { trustedCaPems: [pemEncode(new Uint8Array(caDer), 'CERTIFICATE')] });
    expect(trustedReport.allValid, trustedReport.output).toBe(true);
    if (trustedReport.trustChecked) expect(trustedReport.trusted, trustedReport.output).toBe(true);

    const signatures = await readSignatures(sealed);
    expect(signatures).toHaveLength(3);
    const [adaSignature, cleoSignature, seal] = signatures;
    expect(seal.byteRange[2] + seal.byteRange[3]).toBe(sealed.length);
    expect(adaSignature.byteRange[2] + adaSignature.byteRange[3]).toBe(first.length);
    expect(cleoSignature.byteRange[2] + cleoSignature.byteRange[3]).toBe(second.length);
    for (const [entry, person, serial] of [
      [adaSignature, ada, adaKey.certificateSerial],
      [cleoSignature, cleo, (await keyOf(t, cleo.email)).certificateSerial],
    ] as const) {
      const cms = cmsOf(entry.contents);
      expect(cms.byIssuerSerial).toBe(true);
      expect(cms.serial).toBe(serial);
      expect(cms.certificate).toBeDefined();
      const subject = formatName(cms.certificate!.subject);
      expect(subject).toContain(`CN=${person.name}`);
      expect(subject).toContain(`E=${person.email}`);
      expect(emailOf(cms.certificate!)).toBe(person.email);
      const issuer = cms.certificate!.issuer.typesAndValues.find((tv) => tv.type === OID.commonName)?.value.valueBlock
        .value;
      expect(issuer).toMatch(/^Signature Service Root CA /);
    }
    expect(cmsOf(seal.contents).byIssuerSerial).toBe(true);
  }, 180_000);

  test('the same person in a second workflow: a wrong password is 400 and appends nothing; the right one signs with the same certificate', async ({
    app: t,
    owner,
  }) => {
    const dora = await createUser(t, { name: 'Dora Twice' });
    const one = await orderedEnvelope(t, owner, [
      { user: dora, useDigitalCert: true, fields: [{ fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true }] },
    ]);
    const firstToken = await tokenFromMail(t, dora.email);
    expect(
      (await save(t, firstToken, one.document.id, [digital(one.fieldIds[0][0], PASSWORD)])).body.workflowStatus,
    ).toBe('COMPLETED');
    const serial = (await keyOf(t, dora.email)).certificateSerial;

    const two = await orderedEnvelope(t, owner, [
      {
        user: dora,
        useDigitalCert: true,
        fields: [{ fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true }, { fieldType: 'TEXT' }],
      },
    ]);
    const secondToken = await tokenFromMail(t, dora.email);
    expect(
      (await t.request('GET', `/workflow/v1/${two.workflow.id}/signing-key`, { token: secondToken })).body.provisioned,
    ).toBe(true);
    const wrong = await save(t, secondToken, two.document.id, [
      digital(two.fieldIds[0][0], 'not my password'),
      { id: two.fieldIds[0][1], type: 'TEXT', value: 'typed' },
    ]);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ errorCode: 15101, responseBody: { attemptsLeft: 9 } });
    expect(await revisionsOf(t, two.document.id)).toHaveLength(0);
    expect((await fieldRow(t, two.fieldIds[0][0])).value).toBeNull();
    expect((await fieldRow(t, two.fieldIds[0][1])).value).toBeNull();

    const right = await save(t, secondToken, two.document.id, [digital(two.fieldIds[0][0], PASSWORD)]);
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(right.body.workflowStatus).toBe('COMPLETED');
    expect((await keyOf(t, dora.email)).certificateSerial).toBe(serial);
    const [revision] = await revisionsOf(t, two.document.id);
    expect(revision.certificateSerial).toBe(serial);

    await waitForSeal(t, two.workflow.id);
    const [doc] = await documentRows(t, two.workflow.id);
    const sealed = await t.platform.blobs.get(doc.sealedBlobKey!);
    const report = await pdfsig(sealed);
    expect(report.signatures, report.output).toBe(2);
    expect(report.allValid, report.output).toBe(true);
    const [signature] = await readSignatures(sealed);
    expect(cmsOf(signature.contents).serial).toBe(serial);
  });

  test('brute force: 10 wrong signing passwords lock the key, the right one included, across workflows', async ({
    app: t,
    owner,
  }) => {
    const eve = await createUser(t, { name: 'Eve Guessed' });
    const one = await orderedEnvelope(t, owner, [
      { user: eve, useDigitalCert: true, fields: [{ fieldType: 'DIGITAL_SIGNATURE' }, { fieldType: 'SIGNATURE' }] },
    ]);
    const token = await tokenFromMail(t, eve.email);
    expect((await save(t, token, one.document.id, [digital(one.fieldIds[0][0], PASSWORD)])).status).toBe(200);

    const two = await orderedEnvelope(t, owner, [
      { user: eve, useDigitalCert: true, fields: [{ fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true }] },
    ]);
    const secondToken = await tokenFromMail(t, eve.email);
    for (let i = 1; i <= 10; i++) {
      const res = await save(t, secondToken, two.document.id, [digital(two.fieldIds[0][0], `guess number ${i}`)]);
      expect(res.status).toBe(400);
      expect(res.body.responseBody.attemptsLeft).toBe(10 - i);
    }
    const locked = await save(t, secondToken, two.document.id, [digital(two.fieldIds[0][0], PASSWORD)]);
    expect(locked.status).toBe(401);
    expect(locked.body.message).toBe('ACCOUNT_TEMPORARILY_LOCKED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    expect(await revisionsOf(t, two.document.id)).toHaveLength(0);

    // The window passes (events moved back 16 minutes): the right password works again.
    await t.platform.db
      .update(attemptEvents)
      .set({ occurredAt: new Date(Date.now() - 16 * 60 * 1000) })
      .where(eq(attemptEvents.subject, eve.email.toLowerCase()));
    expect((await save(t, secondToken, two.document.id, [digital(two.fieldIds[0][0], PASSWORD)])).status).toBe(200);
  });

  test('a recipient without useDigitalCert cannot send a signing password; its DIGITAL_SIGNATURE stays a drawn value', async ({
    app: t,
    owner,
  }) => {
    const finn = await createUser(t, { name: 'Finn Plain' });
    const { workflow, document, fieldIds } = await orderedEnvelope(t, owner, [
      { user: finn, fields: [{ fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true }] },
    ]);
    const token = await tokenFromMail(t, finn.email);
    expect((await t.request('GET', `/workflow/v1/${workflow.id}/signing-key`, { token })).body).toMatchObject({
      useDigitalCert: false,
      provisioned: false,
    });
    const refused = await save(t, token, document.id, [digital(fieldIds[0][0], PASSWORD)]);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
    expect(await keyOf(t, finn.email)).toBeUndefined();
    const plain = await save(t, token, document.id, [digital(fieldIds[0][0])]);
    expect(plain.body.workflowStatus).toBe('COMPLETED');
    await waitForSeal(t, workflow.id);
    const [doc] = await documentRows(t, workflow.id);
    const report = await pdfsig(await t.platform.blobs.get(doc.sealedBlobKey!));
    expect(report.signatures, report.output).toBe(1);
    expect(report.allValid, report.output).toBe(true);
  });

  test('a remote signer (the CSC path): prepare answers the hash; another hash is refused, a stale preparation too; the right value completes', async ({
    app: t,
    owner,
  }) => {
    const gus = await createUser(t, { name: 'Gus Remote' });
    const { workflow, document, fieldIds, rows } = await orderedEnvelope(t, owner, [
      {
        user: gus,
        fields: [
          { fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true },
          { fieldType: 'DIGITAL_SIGNATURE' },
          { fieldType: 'TEXT' },
        ],
      },
    ]);
    const keys = await generateSignerKeyPair();
    const signer = await t.platform.seal.ca.issueSignerCertificate(
      { name: 'Gus Remote', email: gus.email },
      keys.publicKey,
    );
    const recipient = { id: rows[0].id, name: gus.name, email: gus.email };
    const deps = { blobs: t.platform.blobs };
    const prepare = (fieldId: number) =>
      t.platform.db.transaction((tx) =>
        prepareSignerRevision(tx, deps, {
          workflowId: workflow.id,
          documentId: document.id,
          fieldId,
          recipient,
          signer,
        }),
      );
    const complete = (revisionId: number, signatureValue: Uint8Array) =>
      t.platform.db.transaction((tx) =>
        completeSignerRevision(tx, deps, { workflowId: workflow.id, revisionId, signatureValue }),
      );
    const sign = (data: Uint8Array, dsaEncoding: 'der' | 'ieee-p1363') =>
      new Uint8Array(
        crypto.sign('sha256', data, {
          key: crypto.createPrivateKey({ key: Buffer.from(keys.privateKeyPkcs8), format: 'der', type: 'pkcs8' }),
          dsaEncoding,
        }),
      );

    const first = await prepare(fieldIds[0][0]);
    const signedAttributes = Buffer.from(first.pending.signedAttributes, 'base64');
    expect(Buffer.from(first.hash).equals(crypto.createHash('sha256').update(signedAttributes).digest())).toBe(true);
    expect(first.pending.hashToSign).toBe(Buffer.from(first.hash).toString('base64'));
    // A value over anything else is refused and appends nothing.
    await expect(complete(first.revisionId, sign(Buffer.from('another hash'), 'der'))).rejects.toMatchObject({
      code: 'SIGNER_SIGNATURE_MISMATCH',
      status: 422,
    });
    expect((await revisionsOf(t, document.id)).filter((r) => r.status === 'COMPLETED')).toHaveLength(0);

    // Two preparations on one document: the one completed first wins, the other must be prepared again.
    const second = await prepare(fieldIds[0][1]);
    await complete(second.revisionId, sign(Buffer.from(second.pending.signedAttributes, 'base64'), 'ieee-p1363'));
    await expect(complete(first.revisionId, sign(signedAttributes, 'der'))).rejects.toMatchObject({
      code: 'SIGNER_REVISION_STALE',
      status: 409,
    });
    // A value the revision shows that changes before completion makes the preparation stale too.
    const setText = (value: string) => t.platform.db.update(fields).set({ value }).where(eq(fields.id, fieldIds[0][2]));
    await setText('first answer');
    const shown = await prepare(fieldIds[0][0]);
    await setText('changed answer');
    await expect(
      complete(shown.revisionId, sign(Buffer.from(shown.pending.signedAttributes, 'base64'), 'der')),
    ).rejects.toMatchObject({ code: 'SIGNER_REVISION_STALE' });
    const again = await prepare(fieldIds[0][0]);
    expect(again.pending.baseRevisionId).toBe(second.revisionId);
    expect(Object.keys(again.pending.drawnValues)).toEqual([String(fieldIds[0][2])]);
    const done = await complete(again.revisionId, sign(Buffer.from(again.pending.signedAttributes, 'base64'), 'der'));
    await expect(
      complete(again.revisionId, sign(Buffer.from(again.pending.signedAttributes, 'base64'), 'der')),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await fieldRow(t, fieldIds[0][0])).value).toMatch(/^Digitally signed by Gus Remote/);

    const bytes = await t.platform.blobs.get(done.blobKey);
    const report = await pdfsig(bytes);
    expect(report.signatures, report.output).toBe(2);
    expect(report.allValid, report.output).toBe(true);
    expect(cmsOf((await readSignatures(bytes))[1].contents).serial).toBe(certificateSerialHex(signer.certificateDer));
  });
});
