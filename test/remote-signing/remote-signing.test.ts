import crypto from 'node:crypto';
import { describe, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { memberships, remoteSignaturePreparations, signerRevisions } from '../../src/platform/db/schema/index.ts';
import { PREPARATION_GRACE_MS, sweepExpiredPreparations } from '../../src/modules/remote-signing/preparation-sweep.ts';
import { createUser, insertField } from '../helpers/factories.ts';
import { sentEnvelope, pngDataUrl, waitForSeal, workflowRow } from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';
import { createTestApp } from '../helpers/test-app.ts';
import { setWorkflow } from '../helpers/envelope-states.ts';
import {
  appended,
  sealedBytes,
  selfWorkflowWithDigitalField,
  signatureFieldNames,
  test,
  useEnterprisePlan,
  usedQualified,
} from './helpers.ts';

const CSC = 'CSC_2';

describe('remote (CSC) signing over HTTP', () => {
  test('a recipient lists its credentials, prepares, authorizes at the provider and signs; pdfsig shows its signature valid and the seal last', async ({
    app,
    owner,
    csc,
  }) => {
    await useEnterprisePlan(app, owner);
    const {
      workflow,
      document,
      alice,
      bobSignature,
      fields: [digital],
      aliceToken,
      bobToken,
    } = await sentEnvelope(app, owner, [{ fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true }]);
    // A signing link's CSC account is the recipient's address.
    const [qes, aes] = await csc.addCredentials(alice.email, 'Alice Signer', [
      { signatureQualifier: 'eu_eidas_qes', key: 'EC', description: 'Qualified seal card' },
      { signatureQualifier: 'eu_eidas_aes' },
    ]);

    const keys = await app.request('GET', `/workflow/v1/list/user/keys?connectorName=${CSC}`, { token: aliceToken });
    expect(keys.status, JSON.stringify(keys.body)).toBe(200);
    expect(keys.body).toEqual([
      {
        credentialID: qes,
        description: 'Qualified seal card',
        keyAlgorithm: 'ECDSA',
        qualifiers: ['QES'],
        certificate: {
          subject: 'CN=Alice Signer, O=CSC Test Provider',
          issuer: 'CN=Test CSC Qualified CA, O=CSC Test Provider',
          notBefore: expect.any(String),
          notAfter: expect.any(String),
        },
      },
      expect.objectContaining({ credentialID: aes, keyAlgorithm: 'RSA', qualifiers: ['AES'] }),
    ]);

    // Without credentialID: the first credential that makes QES signatures.
    const prepared = await app.request('POST', `/workflow/v1/${workflow.id}/sign/csc`, {
      token: aliceToken,
      body: { id: digital.id, connectorName: CSC, qualifier: 'QES' },
    });
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(200);
    expect(prepared.body.credentialID).toBe(qes);
    expect(Buffer.from(prepared.body.hash, 'base64')).toHaveLength(32);
    const url = new URL(prepared.body.authorizeUrl);
    expect(url.origin + url.pathname).toBe(`${csc.url}/oauth2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      scope: 'credential',
      credentialID: qes,
      numSignatures: '1',
      redirect_uri: 'http://localhost:8080/csc/callback',
      hashes: Buffer.from(prepared.body.hash, 'base64').toString('base64url'),
      hashAlgorithmOID: '2.16.840.1.101.3.4.2.1',
      code_challenge_method: 'S256',
    });

    const { code, redirect } = await csc.authorize(prepared.body.authorizeUrl);
    expect(redirect.startsWith('http://localhost:8080/csc/callback?')).toBe(true);
    const signed = await app.request('POST', `/workflow/v1/${workflow.id}/signature/csc`, {
      token: aliceToken,
      body: { hash: prepared.body.hash, code, connectorName: CSC, qualifier: 'QES', credentialID: qes },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body).toMatchObject({
      workflowId: workflow.id,
      recipientId: alice.id,
      recipientStatus: 'SIGNED',
      workflowStatus: 'SENT',
      savedFieldIds: [digital.id],
    });
    expect(await appended(app, document.id, digital.id)).toMatchObject({
      revisions: 1,
      value: expect.stringContaining('Digitally signed by Alice Signer'),
    });

    // The same code again: the preparation is used.
    const again = await app.request('POST', `/workflow/v1/${workflow.id}/signature/csc`, {
      token: aliceToken,
      body: { hash: prepared.body.hash, code, connectorName: CSC, qualifier: 'QES', credentialID: qes },
    });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe('CSC_HASH_NOT_PREPARED');

    const bobSigns = await app.request('POST', `/workflow/v1/${workflow.id}/sign`, {
      token: bobToken,
      body: { id: bobSignature.id, image: pngDataUrl() },
    });
    expect(bobSigns.body.workflowStatus).toBe('COMPLETED');
    const sealed = await waitForSeal(app, workflow.id);
    expect(sealed.sealStatus, sealed.sealError ?? '').toBe('SEALED');
    const report = await pdfsig(await sealedBytes(app, document.id));
    expect(report.allValid, report.output).toBe(true);
    expect(report.signatures).toBe(2);
    const names = signatureFieldNames(report.output);
    expect(names.at(-1)).toMatch(/^PlatformSeal/);
    expect(report.output).toContain('Signer Certificate Common Name: Alice Signer');
    expect(report.output.split(/^Signature #\d+:$/m).at(-1)).toContain('Total document signed');
    // The first test also starts the file's service and provider: on a loaded machine that alone can take half a minute.
  }, 180_000);

  test('a member signs its own workflows in one batch under its saved CSC account: all signed, QES counted per signature, both sealed', async ({
    app,
    owner,
    csc,
  }) => {
    await useEnterprisePlan(app, owner);
    const saved = await app.request('PUT', '/user/v1/settings/signatures', {
      token: owner.token,
      body: { digitalSignatures: { source: 'CSC_2', csc: { userName: 'olga-at-provider' } } },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const [credential] = await csc.addCredentials('olga-at-provider', 'Olga Owner', [
      { signatureQualifier: 'eu_eidas_qes', key: 'RSA' },
    ]);
    const first = await selfWorkflowWithDigitalField(app, owner, 'Batch one');
    const second = await selfWorkflowWithDigitalField(app, owner, 'Batch two');
    const before = await usedQualified(app, owner);
    const credits = await app.request('GET', `/workflow/v1/check-user-credits/${first.workflow.id}?qualifier=QES`, {
      token: owner.token,
    });
    expect(credits.body).toEqual({ qualifier: 'QES', allowed: true, remaining: 1000 - before });
    expect((await app.request('GET', '/workflow/v1/service-plan-qualifier', { token: owner.token })).body).toEqual({
      qualifiers: ['SES', 'AES', 'QES'],
    });

    const items = [
      { workflowId: first.workflow.id, id: first.field.id },
      { workflowId: second.workflow.id, id: second.field.id },
    ];
    const prepared = await app.request('POST', '/workflow/v1/sign/csc/batch', {
      token: owner.token,
      body: { connectorName: CSC, qualifier: 'QES', credentialID: credential, items },
    });
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(200);
    expect(prepared.body.items.map((i: any) => [i.workflowId, i.id])).toEqual(items.map((i) => [i.workflowId, i.id]));
    expect(new URL(prepared.body.authorizeUrl).searchParams.get('numSignatures')).toBe('2');

    // The single call cannot take part of a batch.
    const { code } = await csc.authorize(prepared.body.authorizeUrl);
    const part = await app.request('POST', `/workflow/v1/${first.workflow.id}/signature/csc`, {
      token: owner.token,
      body: { hash: prepared.body.items[0].hash, code, connectorName: CSC, qualifier: 'QES', credentialID: credential },
    });
    expect(part.status).toBe(422);
    expect(part.body.message).toBe('CSC_HASH_NOT_PREPARED');

    const signed = await app.request('POST', '/workflow/v1/signature/csc/batch', {
      token: owner.token,
      body: { code, connectorName: CSC, qualifier: 'QES', credentialID: credential, items: prepared.body.items },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body.items.map((r: any) => [r.workflowId, r.workflowStatus, r.savedFieldIds])).toEqual([
      [first.workflow.id, 'COMPLETED', [first.field.id]],
      [second.workflow.id, 'COMPLETED', [second.field.id]],
    ]);
    expect(await usedQualified(app, owner)).toBe(before + 2);
    for (const { workflow, document } of [first, second]) {
      expect((await waitForSeal(app, workflow.id)).sealStatus).toBe('SEALED');
      const report = await pdfsig(await sealedBytes(app, document.id));
      expect(report.allValid, report.output).toBe(true);
      expect(signatureFieldNames(report.output).at(-1)).toMatch(/^PlatformSeal/);
      expect(report.output).toContain('Signer Certificate Common Name: Olga Owner');
    }
  });

  test("someone else's workflow, field or credential, a qualifier the plan or credential does not offer, and a spent quota are refused before the provider signs", async ({
    app,
    csc,
  }) => {
    // An owner of its own, on the default plan until told otherwise.
    const owner = await createUser(app, { name: 'Stella Starter' });
    const {
      workflow,
      fields: [digital, text],
      aliceToken,
      bobToken,
      alice,
    } = await sentEnvelope(app, owner, [{ fieldType: 'DIGITAL_SIGNATURE' }, { fieldType: 'TEXT' }]);
    const [aes] = await csc.addCredentials(alice.email, 'Alice Signer', [{ signatureQualifier: 'eu_eidas_aes' }]);
    const [foreign] = await csc.addCredentials('mallory@example.com', 'Mallory', [
      { signatureQualifier: 'eu_eidas_qes' },
    ]);
    const prepare = (token: string, body: object, workflowId = workflow.id) =>
      app.request('POST', `/workflow/v1/${workflowId}/sign/csc`, { token, body: { connectorName: CSC, ...body } });

    // The default plan offers electronic signatures only.
    expect((await app.request('GET', '/workflow/v1/service-plan-qualifier', { token: aliceToken })).body).toEqual({
      qualifiers: ['SES'],
    });
    const notInPlan = await prepare(aliceToken, { id: digital.id, qualifier: 'AES' });
    expect([notInPlan.status, notInPlan.body.message]).toEqual([400, 'QUALIFIER_NOT_IN_PLAN']);
    await useEnterprisePlan(app, owner);

    const outsider = await createUser(app);
    expect((await prepare(outsider.token, { id: digital.id, qualifier: 'AES' })).status).toBe(404);
    expect(
      (
        await app.request('GET', `/workflow/v1/check-user-credits/${workflow.id}?qualifier=QES`, {
          token: outsider.token,
        })
      ).status,
    ).toBe(404);
    const othersField = await prepare(bobToken, { id: digital.id, qualifier: 'AES' });
    expect([othersField.status, othersField.body.message]).toEqual([403, 'USER_NOT_HAVE_ACCESS']);
    const elsewhere = await sentEnvelope(app, owner, [{ fieldType: 'DIGITAL_SIGNATURE' }]);
    expect((await prepare(aliceToken, { id: elsewhere.fields[0].id, qualifier: 'AES' })).status).toBe(404);
    const notDigital = await prepare(aliceToken, { id: text.id, qualifier: 'AES' });
    expect([notDigital.status, notDigital.body.message]).toEqual([400, 'INVALID_FIELD']);
    expect((await prepare(aliceToken, { id: digital.id, qualifier: 'XES' })).status).toBe(400);
    expect(
      (await app.request('GET', '/workflow/v1/list/user/keys?connectorName=CSC_1', { token: aliceToken })).status,
    ).toBe(400);

    const notHeld = await prepare(aliceToken, { id: digital.id, qualifier: 'QES', credentialID: foreign });
    expect([notHeld.status, notHeld.body.message]).toEqual([422, 'CSC_CREDENTIAL_INVALID']);
    const wrongLevel = await prepare(aliceToken, { id: digital.id, qualifier: 'QES', credentialID: aes });
    expect([wrongLevel.status, wrongLevel.body.message]).toEqual([422, 'CSC_CREDENTIAL_INVALID']);
    const noneForQes = await prepare(aliceToken, { id: digital.id, qualifier: 'QES' });
    expect([noneForQes.status, noneForQes.body.message]).toEqual([422, 'CSC_CREDENTIAL_INVALID']);

    // Bob (a guest of another organization) has no personal quota; a member whose quota is spent is refused.
    expect(
      (await app.request('GET', `/workflow/v1/check-user-credits/${workflow.id}?qualifier=QES`, { token: bobToken }))
        .body,
    ).toEqual({ qualifier: 'QES', allowed: true, remaining: null });
    const self = await selfWorkflowWithDigitalField(app, owner);
    await app.platform.db.update(memberships).set({ usedAdvanced: 1000 }).where(eq(memberships.userId, owner.userId));
    expect(
      (
        await app.request('GET', `/workflow/v1/check-user-credits/${self.workflow.id}?qualifier=AES`, {
          token: owner.token,
        })
      ).body,
    ).toEqual({ qualifier: 'AES', allowed: false, remaining: 0 });
    const spent = await prepare(owner.token, { id: self.field.id, qualifier: 'AES' }, self.workflow.id);
    expect([spent.status, spent.body.message]).toEqual([400, 'SIGNATURE_QUOTA_EXCEEDED']);
    await app.platform.db.update(memberships).set({ usedAdvanced: 0 }).where(eq(memberships.userId, owner.userId));
  });

  test('a wrong hash, a wrong or refused code, a hash of another recipient: 422, nothing appended', async ({
    app,
    owner,
    csc,
  }) => {
    await useEnterprisePlan(app, owner);
    const {
      workflow,
      document,
      fields: [digital],
      alice,
      aliceToken,
      bobToken,
    } = await sentEnvelope(app, owner, [{ fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true }]);
    const [credential] = await csc.addCredentials(alice.email, 'Alice Signer', [
      { signatureQualifier: 'eu_eidas_qes' },
    ]);
    const prepared = await app.request('POST', `/workflow/v1/${workflow.id}/sign/csc`, {
      token: aliceToken,
      body: { id: digital.id, connectorName: CSC, qualifier: 'QES', credentialID: credential },
    });
    expect(prepared.status).toBe(200);
    const sign = (token: string, body: object) =>
      app.request('POST', `/workflow/v1/${workflow.id}/signature/csc`, {
        token,
        body: {
          connectorName: CSC,
          qualifier: 'QES',
          credentialID: credential,
          hash: prepared.body.hash,
          code: 'x',
          ...body,
        },
      });

    const otherHash = await sign(aliceToken, { hash: crypto.randomBytes(32).toString('base64') });
    expect([otherHash.status, otherHash.body.message]).toEqual([422, 'CSC_HASH_NOT_PREPARED']);
    // Bob cannot complete Alice's preparation even with her hash.
    const bobTries = await sign(bobToken, {});
    expect(bobTries.status).toBe(422);
    const otherQualifier = await sign(aliceToken, { qualifier: 'AES' });
    expect([otherQualifier.status, otherQualifier.body.message]).toEqual([422, 'CSC_HASH_NOT_PREPARED']);
    const wrongCode = await sign(aliceToken, { code: 'not-a-code' });
    expect([wrongCode.status, wrongCode.body.message]).toEqual([422, 'CSC_AUTHORIZATION_INVALID']);
    csc.fail({ refuseAuthorization: true });
    const refused = await csc.authorize(prepared.body.authorizeUrl);
    csc.fail({});
    expect(refused).toMatchObject({ code: null, error: 'access_denied' });
    expect(await appended(app, document.id, digital.id)).toEqual({ revisions: 0, value: null });

    // The preparation is still open: a fresh authorization of the same URL signs it.
    const { code } = await csc.authorize(prepared.body.authorizeUrl);
    const ok = await sign(aliceToken, { code });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await workflowRow(app, workflow.id)).status).toBe('SENT');
  });

  test('expired preparations are swept an hour after expiry: an unused one with its pending revision, a used one alone; completed signatures stay', async ({
    app,
    owner,
    csc,
  }) => {
    await useEnterprisePlan(app, owner);
    const first = await sentEnvelope(app, owner, [{ fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true }]);
    const second = await sentEnvelope(app, owner, [{ fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true }]);
    const [credential] = await csc.addCredentials(first.alice.email, 'Alice Signer', [
      { signatureQualifier: 'eu_eidas_qes' },
    ]);
    await csc.addCredentials(second.alice.email, 'Alice Signer', [{ signatureQualifier: 'eu_eidas_qes' }]);
    const prepare = (e: typeof first) =>
      app.request('POST', `/workflow/v1/${e.workflow.id}/sign/csc`, {
        token: e.aliceToken,
        body: { id: e.fields[0].id, connectorName: CSC, qualifier: 'QES' },
      });
    const used = await prepare(first);
    const abandoned = await prepare(second);
    expect([used.status, abandoned.status]).toEqual([200, 200]);
    const { code } = await csc.authorize(used.body.authorizeUrl);
    const signed = await app.request('POST', `/workflow/v1/${first.workflow.id}/signature/csc`, {
      token: first.aliceToken,
      body: { hash: used.body.hash, code, connectorName: CSC, qualifier: 'QES', credentialID: credential },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);

    const rows = async () => ({
      preparations: (await app.platform.db.select().from(remoteSignaturePreparations)).filter((p) =>
        [first.workflow.id, second.workflow.id].includes(p.workflowId),
      ).length,
      pending: (
        await app.platform.db.select().from(signerRevisions).where(eq(signerRevisions.status, 'PENDING'))
      ).filter((r) => r.workflowId === second.workflow.id).length,
    });
    expect(await rows()).toEqual({ preparations: 2, pending: 1 });
    const [preparation] = await app.platform.db
      .select()
      .from(remoteSignaturePreparations)
      .where(eq(remoteSignaturePreparations.workflowId, second.workflow.id));
    // Just inside the grace: nothing goes.
    await sweepExpiredPreparations(
      app.platform.db,
      new Date(preparation.expiresAt.getTime() + PREPARATION_GRACE_MS - 1000),
    );
    expect(await rows()).toEqual({ preparations: 2, pending: 1 });
    const swept = await sweepExpiredPreparations(
      app.platform.db,
      new Date(preparation.expiresAt.getTime() + PREPARATION_GRACE_MS + 1000),
    );
    expect(swept.revisions).toBeGreaterThanOrEqual(1);
    expect(await rows()).toEqual({ preparations: 0, pending: 0 });
    expect(await appended(app, first.document.id, first.fields[0].id)).toMatchObject({ revisions: 1 });

    // The abandoned hash can no longer be signed; preparing the field again and signing works.
    const { code: late } = await csc.authorize(abandoned.body.authorizeUrl);
    const stale = await app.request('POST', `/workflow/v1/${second.workflow.id}/signature/csc`, {
      token: second.aliceToken,
      body: {
        hash: abandoned.body.hash,
        code: late,
        connectorName: CSC,
        qualifier: 'QES',
        credentialID: abandoned.body.credentialID,
      },
    });
    expect([stale.status, stale.body.message]).toEqual([422, 'CSC_HASH_NOT_PREPARED']);
    const again = await prepare(second);
    const { code: fresh } = await csc.authorize(again.body.authorizeUrl);
    const ok = await app.request('POST', `/workflow/v1/${second.workflow.id}/signature/csc`, {
      token: second.aliceToken,
      body: {
        hash: again.body.hash,
        code: fresh,
        connectorName: CSC,
        qualifier: 'QES',
        credentialID: again.body.credentialID,
      },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await appended(app, second.document.id, second.fields[0].id)).toMatchObject({ revisions: 1 });
  });

  test('a provider that times out, answers 401, or signs another hash: refused, nothing appended, the preparation still usable', async ({
    app,
    owner,
    csc,
  }) => {
    await useEnterprisePlan(app, owner);
    const {
      workflow,
      document,
      fields: [digital],
      alice,
      aliceToken,
    } = await sentEnvelope(app, owner, [{ fieldType: 'DIGITAL_SIGNATURE', fieldRequired: true }]);
    const [credential] = await csc.addCredentials(alice.email, 'Alice Signer', [
      { signatureQualifier: 'eu_eidas_qes', key: 'EC' },
    ]);
    const prepared = await app.request('POST', `/workflow/v1/${workflow.id}/sign/csc`, {
      token: aliceToken,
      body: { id: digital.id, connectorName: CSC, qualifier: 'QES', credentialID: credential },
    });
    const attempt = async () => {
      const { code } = await csc.authorize(prepared.body.authorizeUrl);
      return app.request('POST', `/workflow/v1/${workflow.id}/signature/csc`, {
        token: aliceToken,
        body: { hash: prepared.body.hash, code, connectorName: CSC, qualifier: 'QES', credentialID: credential },
      });
    };

    csc.fail({ stall: 'signHash' });
    const started = Date.now();
    const slow = await attempt();
    expect([slow.status, slow.body.message]).toEqual([503, 'CSC_PROVIDER_UNAVAILABLE']);
    expect(Date.now() - started).toBeLessThan(10_000);

    csc.fail({ unauthorized: 'signHash' });
    const unauthorized = await attempt();
    expect([unauthorized.status, unauthorized.body.message]).toEqual([422, 'CSC_AUTHORIZATION_INVALID']);

    csc.fail({ wrongHash: true });
    const otherHash = await attempt();
    expect([otherHash.status, otherHash.body.message]).toEqual([422, 'SIGNER_SIGNATURE_MISMATCH']);
    expect(await appended(app, document.id, digital.id)).toEqual({ revisions: 0, value: null });

    csc.fail({ unauthorized: 'service' });
    const listing = await app.request('GET', `/workflow/v1/list/user/keys?connectorName=${CSC}`, { token: aliceToken });
    expect([listing.status, listing.body.message]).toEqual([503, 'CSC_PROVIDER_UNAVAILABLE']);

    csc.fail({});
    const ok = await attempt();
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.recipientStatus).toBe('SIGNED');
    expect(await appended(app, document.id, digital.id)).toMatchObject({ revisions: 1 });
  });

  test('a batch where one document fails signs none of them', async ({ app, owner, csc }) => {
    await useEnterprisePlan(app, owner);
    const saved = await app.request('PUT', '/user/v1/settings/signatures', {
      token: owner.token,
      body: { digitalSignatures: { source: 'CSC_2', csc: { userName: 'olga-batch' } } },
    });
    expect(saved.status).toBe(200);
    const [credential] = await csc.addCredentials('olga-batch', 'Olga Owner', [{ signatureQualifier: 'eu_eidas_qes' }]);
    const one = await selfWorkflowWithDigitalField(app, owner, 'Fails not');
    const two = await selfWorkflowWithDigitalField(app, owner, 'Fails');
    const before = await usedQualified(app, owner);
    const items = [
      { workflowId: one.workflow.id, id: one.field.id },
      { workflowId: two.workflow.id, id: two.field.id },
    ];

    // Two fields of one document cannot share a batch; a duplicate neither; nothing is prepared.
    const extra = await insertField(app, {
      workflowId: one.workflow.id,
      documentId: one.document.id,
      recipientId: one.recipient.id,
      fieldType: 'DIGITAL_SIGNATURE',
    });
    const sameDocument = await app.request('POST', '/workflow/v1/sign/csc/batch', {
      token: owner.token,
      body: {
        connectorName: CSC,
        qualifier: 'QES',
        credentialID: credential,
        items: [...items, { workflowId: one.workflow.id, id: extra.id }],
      },
    });
    expect([sameDocument.status, sameDocument.body.message]).toEqual([400, 'INVALID_REQUEST_BODY']);

    const prepared = await app.request('POST', '/workflow/v1/sign/csc/batch', {
      token: owner.token,
      body: { connectorName: CSC, qualifier: 'QES', credentialID: credential, items },
    });
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(200);
    const { code } = await csc.authorize(prepared.body.authorizeUrl);
    const body = { code, connectorName: CSC, qualifier: 'QES', credentialID: credential, items: prepared.body.items };

    const subset = await app.request('POST', '/workflow/v1/signature/csc/batch', {
      token: owner.token,
      body: { ...body, items: [prepared.body.items[0]] },
    });
    expect([subset.status, subset.body.message]).toEqual([422, 'CSC_HASH_NOT_PREPARED']);

    // The second workflow is voided after the preparation: the whole batch is refused after the provider signed.
    await setWorkflow(app, two.workflow.id, { status: 'VOID' });
    const failed = await app.request('POST', '/workflow/v1/signature/csc/batch', { token: owner.token, body });
    expect([failed.status, failed.body.message]).toEqual([400, 'INVALID_WORKFLOW_STATUS']);
    for (const { document, field, workflow } of [one, two]) {
      expect(await appended(app, document.id, field.id)).toEqual({ revisions: 0, value: null });
      expect((await workflowRow(app, workflow.id)).status).not.toBe('COMPLETED');
    }
    expect(await usedQualified(app, owner)).toBe(before);
  });

  test('remote signing asked for without CSC_BASE_URL: 400 CSC_NOT_CONFIGURED; the plan calls still answer', async () => {
    const bare = await createTestApp();
    try {
      const user = await createUser(bare);
      const keys = await bare.request('GET', `/workflow/v1/list/user/keys?connectorName=${CSC}`, { token: user.token });
      expect([keys.status, keys.body.message]).toEqual([400, 'CSC_NOT_CONFIGURED']);
      const self = await selfWorkflowWithDigitalField(bare, user);
      const prepared = await bare.request('POST', `/workflow/v1/${self.workflow.id}/sign/csc`, {
        token: user.token,
        body: { id: self.field.id, connectorName: CSC, qualifier: 'SES' },
      });
      expect([prepared.status, prepared.body.message]).toEqual([400, 'CSC_NOT_CONFIGURED']);
      expect((await bare.request('GET', '/workflow/v1/service-plan-qualifier', { token: user.token })).body).toEqual({
        qualifiers: ['SES'],
      });
      expect((await bare.request('GET', '/workflow/v1/service-plan-qualifier')).status).toBe(401);
    } finally {
      await bare.close();
    }
  }, 120_000);
});
