import { expect } from 'vitest';
import { test as base } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import { multipartBody } from '../helpers/documents.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';

const test = base.override({ ownerName: 'Olivia Owner' });

async function upload(t: TestApp, owner: TestUser, query: string, filename: string, userAgent: string) {
  const { body, contentType } = multipartBody([
    { name: 'file', filename, contentType: 'application/pdf', data: await makePdf(1) },
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: `/document/v1${query}`,
    payload: body,
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': contentType, 'user-agent': userAgent },
  });
  return res.json();
}

// Upload and history are separate modules; this ties the activity the upload records to the timeline rule.
test('uploads through the real endpoint give one Created row, carrying the channel of the first upload', async ({
  app: t,
  owner,
}) => {
  const first = await upload(t, owner, '', 'contract.pdf', 'okhttp/4.12.0');
  await upload(t, owner, `?workflowId=${first.workflowId}`, 'annex.pdf', 'Mozilla/5.0 (X11; Linux x86_64)');
  const res = await t.request('GET', `/workflow/v1/${first.workflowId}/history`, { token: owner.token });
  expect(res.status).toBe(200);
  const created = res.body.activities.filter((a: { action: string }) => a.action === 'Created');
  expect(created).toHaveLength(1);
  expect(created[0]).toMatchObject({ userName: 'Olivia Owner', accessChannel: 'mobile', consent: null });
  expect(created[0].activity).toContain('contract');
  expect(res.body.metadata.documentName).toEqual(['contract', 'annex']);
  expect(res.body.metadata.dateSent).toBe('');
});
