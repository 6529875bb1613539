import { eq } from 'drizzle-orm';
import { loadImage } from '@napi-rs/canvas';
import { expect } from 'vitest';
import { test as base, fileUser } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import { guestToken, insertRecipient } from '../helpers/factories.ts';
import { markCompleted, markSent } from '../helpers/envelope-states.ts';
import { replaceFile, uploadFile } from '../helpers/documents.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { documents } from '../../src/platform/db/schema/index.ts';

const test = base.extend<{ signer: TestUser; outsider: TestUser }>({
  signer: fileUser({ name: 'Sam Signer' }),
  outsider: fileUser(),
});

async function picture(
  t: TestApp,
  workflowId: number,
  token: string,
  query: string,
  headers: Record<string, string> = {},
) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/document/v1/page-image/${workflowId}?${query}`,
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
  const jpeg = new Uint8Array(res.rawPayload);
  const isJpeg = res.statusCode === 200 && jpeg[0] === 0xff && jpeg[1] === 0xd8;
  const image = isJpeg ? await loadImage(Buffer.from(jpeg)) : null;
  const size = image ? { width: image.width, height: image.height } : null;
  return {
    status: res.statusCode,
    headers: res.headers,
    jpeg,
    size,
    body: isJpeg || res.statusCode === 304 ? null : res.json(),
  };
}

async function uploaded(t: TestApp, owner: TestUser, pages: number) {
  const res = await uploadFile(t, owner.token, 'Lease.pdf', await makePdf(pages, { size: 'a4' }));
  expect(res.status, res.raw).toBe(201);
  return res.body as { id: number; workflowId: number };
}

async function storedPicture(t: TestApp, documentId: number) {
  const [row] = await t.platform.db.select().from(documents).where(eq(documents.id, documentId));
  return row.pictureBlobKey;
}

test('page 1 of an upload is drawn on the first ask, stored and then answered from storage; other pages and widths are drawn on demand; the sealed file replaces it', async ({
  app: t,
  owner,
  signer,
}) => {
  const { id: documentId, workflowId } = await uploaded(t, owner, 3);
  // The upload draws the thumbnail only: a document no one looks at never pays for its page picture.
  expect(await storedPicture(t, documentId)).toBeNull();

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
  const pictureKey = await storedPicture(t, documentId);
  expect(pictureKey).toMatch(/.+/);
  expect(Buffer.from(first.jpeg).equals(Buffer.from(await t.platform.blobs.get(pictureKey!)))).toBe(true);
  // Revalidation: the same tag answers 304 with no body.
  const again = await picture(t, workflowId, owner.token, `documentId=${documentId}&page=1`, {
    'if-none-match': String(first.headers.etag),
  });
  expect(again.status).toBe(304);
  expect(again.jpeg.byteLength).toBe(0);
  // Any width up to 800 is the stored picture, read again rather than drawn again.
  const narrow = await picture(t, workflowId, owner.token, 'page=1&width=200');
  expect(narrow.headers.etag).toBe(first.headers.etag);
  expect(Buffer.from(narrow.jpeg).equals(Buffer.from(first.jpeg))).toBe(true);
  expect(await storedPicture(t, documentId)).toBe(pictureKey);

  // Page 2, 300 wide: rounded up to 400 and drawn in the worker pool.
  const second = await picture(t, workflowId, owner.token, `documentId=${documentId}&page=2&width=300`);
  expect(second.status).toBe(200);
  expect(second.headers['x-image-width']).toBe('400');
  expect(second.size).toEqual({ width: 400, height: 566 });
  // Widths above 2000 are capped.
  expect((await picture(t, workflowId, owner.token, `documentId=${documentId}&page=3&width=4000`)).size?.width).toBe(
    2000,
  );

  // A signer of the sent envelope, with its signing-link token.
  const recipient = await insertRecipient(t, workflowId, {
    userId: signer.userId,
    name: signer.name,
    email: signer.email,
  });
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

test('page 1 asked for by several at once is drawn once; a replaced file forgets the old picture and draws its own', async ({
  app: t,
  owner,
}) => {
  const { id: documentId, workflowId } = await uploaded(t, owner, 2);
  // Each drawing stores its picture once: count what is stored while the four ask.
  const blobs = t.platform.blobs;
  const put = blobs.put;
  let stored = 0;
  blobs.put = (bytes) => {
    stored += 1;
    return put.call(blobs, bytes);
  };
  const answers = await Promise.all(
    [1, 2, 3, 4].map(() => picture(t, workflowId, owner.token, 'page=1&width=800')),
  ).finally(() => {
    blobs.put = put;
  });
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
  expect(stored).toBe(1);
  expect(new Set(answers.map((answer) => answer.headers.etag)).size).toBe(1);
  expect(answers[0].size).toEqual({ width: 800, height: 1131 });
  const pictureKey = await storedPicture(t, documentId);
  expect(pictureKey).toMatch(/.+/);

  // The DRAFT's file replaced by a Letter-sized one: the A4 picture is not this file's.
  const replaced = await replaceFile(t, owner.token, documentId, 'Lease.pdf', await makePdf(2, { size: 'letter' }));
  expect(replaced.status, replaced.raw).toBe(200);
  expect(await storedPicture(t, documentId)).toBeNull();
  const redrawn = await picture(t, workflowId, owner.token, 'page=1&width=800');
  expect(redrawn.status).toBe(200);
  expect(redrawn.size).toEqual({ width: 800, height: 1035 });
  expect(redrawn.headers.etag).not.toBe(answers[0].headers.etag);
  const newKey = await storedPicture(t, documentId);
  expect(newKey).toMatch(/.+/);
  expect(newKey).not.toBe(pictureKey);
});

test('the same callers as download; a missing page, a foreign document or bad numbers are refused with the standard error', async ({
  app: t,
  owner,
  signer,
  outsider,
}) => {
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
  expect((await t.app.inject({ method: 'GET', url: `/document/v1/page-image/${workflowId}?page=1` })).statusCode).toBe(
    401,
  );
});
