import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { displayedDate } from '../../src/modules/signing/field-dates.ts';
import { fields } from '../../src/platform/db/schema/index.ts';
import { formatDate } from '../../web/src/signing/field-rules.ts';
import { documentRows, pngDataUrl, waitForSeal } from '../helpers/ceremony.ts';
import { createDraftWorkflow, insertField } from '../helpers/factories.ts';
import { test } from '../helpers/fixtures.ts';
import { pdfText } from '../helpers/pdf-text.ts';

/**
 * A DATE field is drawn into the sealed file as the signer saw it: the long date in the field's language (its
 * styling.dateLang, English by default), not the stored YYYY-MM-DD. The page, the editor's "Shown as" and the stamp
 * write a date the same way.
 */
describe('dates in the sealed file', () => {
  test("are written in the field's language, as the signing page showed them", async ({ app: t, owner }) => {
    const { workflow, document, selfRecipient } = await createDraftWorkflow(t, owner, { sequence: 'SELF' });
    const recipientId = selfRecipient!.id;
    const place = (y: number) => ({ x: 72, y, width: 260, height: 24 });
    const english = await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId,
      fieldType: 'DATE',
      box: place(120),
    });
    const german = await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId,
      fieldType: 'DATE',
      box: place(170),
    });
    const signature = await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId,
      fieldType: 'SIGNATURE',
      box: { x: 72, y: 600, width: 180, height: 50 },
    });
    await t.platform.db
      .update(fields)
      .set({ styling: { dateLang: 'de' } })
      .where(eq(fields.id, german.id));

    const saved = await t.request('POST', `/workflow/v1/${document.id}/fields/save`, {
      token: owner.token,
      body: [
        { id: english.id, type: 'DATE', value: '2026-12-01' },
        { id: german.id, type: 'DATE', value: '2026-03-14' },
      ],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const signed = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
      token: owner.token,
      body: { id: signature.id, image: pngDataUrl(120, 40) },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect((await waitForSeal(t, workflow.id)).sealStatus).toBe('SEALED');

    const [sealed] = await documentRows(t, workflow.id);
    const text = (await pdfText(await t.platform.blobs.get(sealed.sealedBlobKey!))).replace(/\s+/g, ' ');
    expect(text).toContain('December 1, 2026');
    expect(text).toContain('14. März 2026');
    expect(text).not.toContain('2026-12-01');
    expect(text).not.toContain('2026-03-14');
  });

  test('the stamp and the signing page write every language alike', () => {
    for (const language of [
      undefined,
      'en',
      'de',
      'fr',
      'es',
      'it',
      'nl',
      'pt',
      'pl',
      'de-CH',
      'en-GB',
      'zz-Unknown9',
    ]) {
      for (const value of ['2026-12-01', '2024-02-29', '1999-07-04']) {
        expect(displayedDate(value, language), `${language} ${value}`).toBe(formatDate(value, language));
      }
    }
    expect(displayedDate('not a date', 'de')).toBe('not a date');
    expect(displayedDate('2026-12-01', 'de')).toBe('1. Dezember 2026');
  });
});
