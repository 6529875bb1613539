import { eq } from 'drizzle-orm';
import { loadImage } from '@napi-rs/canvas';
import { expect } from 'vitest';
import { test as base, fileUser } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import { guestToken, insertRecipient } from '../helpers/factories.ts';
import { markCompleted, markSent } from '../helpers/envelope-states.ts';
import { uploadFile } from '../helpers/documents.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { documents } from '../../src/platform/db/schema/index.ts';

const test = base.extend<{ signer: TestUser; outsider: TestUser }>({ signer: fileUser({ name: 'Sam Signer' }), outsider: fileUser() });

async function picture(t: TestApp, workflowId: number, token: string, query: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url: `/document/v1/page-image/${workflowId}?${query}`, headers: { authorization: `Bearer ${token}`, ...headers } });
  const jpeg = new Uint8Array(res.rawPayload);
  const isJpeg = res.statusCode === 200 && jpeg[0] === 0xff && jpeg[1] === 0xd8;
  const image = isJpeg ? await loadImage(Buffer.from(jpeg)) : null;
  const size = image ? { width: image.width, height: image.height } : null;
  return { status: res.statusCode, headers: res.headers, jpeg, size, body: isJpeg || res.statusCode === 304 ? null : res.json() };
}

async function uploaded(t: TestApp, owner: TestUser, pages: number) {
  const res = await uploadFile(t, owner.token, 'Lease.pdf', await makePdf(pages, { size: 'a4' }));
  expect(res.status, res.raw).toBe(201);
  return res.body as { id: number; workflowId: number };
}

test('page 1 of an upload is drawn at upload and answered from storage; other pages and widths are drawn on demand; the sealed file replaces it', async ({ app: t, owner, signer }) => {
  const { id: documentId, workflowId } = await uploaded(t, owner, 3);
  const [row] = await t.platform.db.select().from(documents).where(eq(documents.id, documentId));
  expect(row.pictureBlobKey).toMatch(/.+/);
  const stored = await t.platform.blobs.get(row.pictureBlobKey!);

  // Without documentId: the first document; the page size in points (the space of the fields' boxes) comes along.
  const first = await picture(t, workflowId, owner.token, 'page=1&width=640');
  expect(first.status).toBe(200);
  expect(first.headers['content-type']).toBe('image/jpeg');
  expect(first.headers['x-document-id']).toBe(String(documentId));
  expect(first.headers['x-image-width']).toBe('800');
  expect(Number(first.headers['x-page-width'])).toBeCloseTo(595.28, 1);
  expect(Number(first.headers['x-page-height'])).toBeCloseTo(841.89, 1);
  expect(first.headers['cache-control']).toBe('private, no-cache');
  expect(first.size).toEqual({ width: 800, height: 1131 });
  expect(Buffer.from(first.jpeg).equals(Buffer.from(stored))).toBe(true);
  // Revalidation: the same tag answers 304 with no body.
  const again = await picture(t, workflowId, owner.token, `documentId=${documentId}&page=1`, { 'if-none-match': String(first.headers.etag) });
  expect(again.status).toBe(304);
  expect(again.jpeg.byteLength).toBe(0);

  // Page 2, 300 wide: rounded up to 400 and drawn in the worker pool.
  const second = await picture(t, workflowId, owner.token, `documentId=${documentId}&page=2&width=300`);
  expect(second.status).toBe(200);
  expect(second.headers['x-image-width']).toBe('400');
  expect(second.size).toEqual({ width: 400, height: 566 });
  // Widths above 2000 are capped.
  expect((await picture(t, workflowId, owner.token, `documentId=${documentId}&page=3&width=4000`)).size?.width).toBe(2000);

  // A signer of the sent envelope, with its signing-link token.
  const recipient = await insertRecipient(t, workflowId, { userId: signer.userId, name: signer.name, email: signer.email });
  await markSent(t, workflowId, [recipient.id]);
  const token = await guestToken(t, recipient);
  expect((await picture(t, workflowId, token, 'page=1')).status).toBe(200);

  // Once sealed, the page is the sealed file's: drawn again, never the stored picture of the source.
  await markCompleted(t, workflowId, documentId, await makePdf(3, { size: 'letter' }));
  const sealed = await picture(t, workflowId, token, 'page=1&width=800');
  expect(sealed.status).toBe(200);
  expect(sealed.headers.etag).not.toBe(first.headers.etag);
  expect(sealed.size).toEqual({ width: 800, height: 1035 });
});

test('the same callers as download; a missing page, a foreign document or bad numbers are refused with the standard error', async ({ app: t, owner, signer, outsider }) => {
  const { id: documentId, workflowId } = await uploaded(t, owner, 2);
  const other = await uploaded(t, owner, 1);

  // A DRAFT is its owner's alone: a stranger, even a registered recipient-to-be, gets 404 (nothing tells it exists).
  await insertRecipient(t, workflowId, { userId: signer.userId, name: signer.name, email: signer.email });
  expect((await picture(t, workflowId, signer.token, 'page=1')).status).toBe(404);
  expect((await picture(t, workflowId, outsider.token, 'page=1')).status).toBe(404);

  const missingPage = await picture(t, workflowId, owner.token, `documentId=${documentId}&page=3`);
  expect(missingPage.status).toBe(404);
  expect(missingPage.body).toMatchObject({ message: 'NOT_FOUND' });
  expect(missingPage.body.errorDescription).toMatch(/2 page/);
  // Another workflow's document through this workflow: not found.
  expect((await picture(t, workflowId, owner.token, `documentId=${other.id}&page=1`)).status).toBe(404);
  for (const query of ['page=0', 'page=abc', 'width=10', 'width=99999', 'documentId=-1']) {
    const bad = await picture(t, workflowId, owner.token, query);
    expect(bad.status, query).toBe(400);
    expect(bad.body).toHaveProperty('errorDescription');
  }
  expect((await t.app.inject({ method: 'GET', url: `/document/v1/page-image/${workflowId}?page=1` })).statusCode).toBe(401);
});
