/**
 * The electronic-signature disclosure in the signing page's languages: GET answers it in the language asked for, and
 * the consent record holds the very text the client says it showed (X-Disclosure-SHA256), English when it names none;
 * a hash of no current text is refused and nothing is written. docs/signing.md "The disclosure and consent".
 */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { activities } from '../../src/platform/db/schema/index.ts';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { fieldRow, pngDataUrl, sentEnvelope } from '../helpers/ceremony.ts';

async function consentOf(t: TestApp, workflowId: number) {
  const rows = await t.platform.db.select().from(activities).where(eq(activities.workflowId, workflowId));
  return rows.filter((a) => a.kind === 'CONSENT_ACCEPTED').map((a) => a.consent as { text: string; textHash: string });
}

describe('the disclosure in eight languages', () => {
  test('is answered in each language asked for, a regional tag by its language, anything else in English', async ({
    app: t,
  }) => {
    const english = await t.request('GET', '/workflow/v1/signing/disclosure');
    expect(english.status).toBe(200);
    expect(english.body.lang).toBe('en');
    expect(english.body.text).toMatch(/^Electronic signature disclosure\./);
    const hashes = new Set<string>();
    for (const lang of ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl']) {
      const res = await t.request('GET', `/workflow/v1/signing/disclosure?lang=${lang}`);
      expect(res.status).toBe(200);
      expect(res.body.lang).toBe(lang);
      expect(res.body.textHash).toBe(crypto.createHash('sha256').update(res.body.text, 'utf8').digest('hex'));
      hashes.add(res.body.textHash);
    }
    expect(hashes.size).toBe(8);
    const swiss = await t.request('GET', '/workflow/v1/signing/disclosure?lang=de-CH');
    expect(swiss.body).toMatchObject({ lang: 'de' });
    expect(swiss.body.text).toMatch(/^Hinweis zur elektronischen Signatur\. Indem Sie dieses Dokument speichern/);
    expect((await t.request('GET', '/workflow/v1/signing/disclosure?lang=sv')).body.lang).toBe('en');
  });

  test('the consent records the text the signer was shown, by its hash; no hash: English', async ({
    app: t,
    owner,
  }) => {
    const german = (await t.request('GET', '/workflow/v1/signing/disclosure?lang=de')).body;
    const shown = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }]);
    const saved = await t.request('POST', `/workflow/v1/${shown.document.id}/fields/save`, {
      token: shown.aliceToken,
      headers: { 'x-disclosure-sha256': german.textHash },
      body: [{ id: shown.fields[0].id, type: 'SIGNATURE', value: pngDataUrl() }],
    });
    expect(saved.status, saved.raw).toBe(200);
    expect(await consentOf(t, shown.workflow.id)).toEqual([
      expect.objectContaining({ text: german.text, textHash: german.textHash }),
    ]);
    const history = await t.request('GET', `/workflow/v1/${shown.workflow.id}/history`, { token: owner.token });
    expect(JSON.stringify(history.body)).toContain('Hinweis zur elektronischen Signatur.');

    const english = (await t.request('GET', '/workflow/v1/signing/disclosure')).body;
    const none = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }]);
    const plain = await t.request('POST', `/workflow/v1/${none.document.id}/fields/save`, {
      token: none.aliceToken,
      body: [{ id: none.fields[0].id, type: 'SIGNATURE', value: pngDataUrl() }],
    });
    expect(plain.status, plain.raw).toBe(200);
    expect(await consentOf(t, none.workflow.id)).toEqual([
      expect.objectContaining({ text: english.text, textHash: english.textHash }),
    ]);
  });

  test('a hash of no current text is refused with 400 INVALID_REQUEST_BODY, nothing saved, no consent', async ({
    app: t,
    owner,
  }) => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }]);
    const stale = crypto.createHash('sha256').update('an older disclosure').digest('hex');
    const res = await t.request('POST', `/workflow/v1/${env.document.id}/fields/save`, {
      token: env.aliceToken,
      headers: { 'x-disclosure-sha256': stale },
      body: [{ id: env.fields[0].id, type: 'SIGNATURE', value: pngDataUrl() }],
    });
    expect(res.status, res.raw).toBe(400);
    expect(res.body.message).toBe('INVALID_REQUEST_BODY');
    expect(res.body.errorDescription).toMatch(/X-Disclosure-SHA256/);
    expect((await fieldRow(t, env.fields[0].id)).value).toBeNull();
    expect(await consentOf(t, env.workflow.id)).toEqual([]);
  });
});
