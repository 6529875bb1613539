import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertField, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { markSent } from '../helpers/envelope-states.ts';
import { replaceFile, uploadFile } from '../helpers/documents.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { pngDataUrl } from '../helpers/ceremony.ts';
import { sample } from '../helpers/schema-sample.ts';
import type { RouteAuth } from '../../src/http/authenticate.ts';

/*
 * RUNTIME.md "Who may do what": a stranger to a workflow (who cannot see it) gets 404; a participant who sees it but is not
 * its owner gets SPEC.md's INVALID_WORKFLOW_OWNER (400) for owner-only operations. Every route that names a workflow or a
 * document of one is listed below as owner-only or as open to participants; a new route fails the last test until it is
 * classified. Each owner-only operation is called by three callers on a SENT workflow of its own: a signer of it with
 * their own account (400 INVALID_WORKFLOW_OWNER), a user of another organization (404), then the owner (neither).
 */
const OWNER_ONLY = [
  'PUT /workflow/v1/rename/:workflowId',
  'PUT /workflow/v1/:workflowId',
  'PUT /document/v1/sequence/:workflowId',
  'PUT /workflow/v1/:workflowId/reminder',
  'DELETE /document/v1/:workflowId',
  'PUT /document/v1/:workflowId/change-sequence',
  'PUT /document/v1/:docId',
  'PUT /workflow/v1/user/folders/:folderId/:workflowID',
  'POST /workflow/v1/:workflowId/recipients',
  'PUT /workflow/v1/:workflowId/recipients',
  'DELETE /workflow/v1/:workflowId/recipients/:recipientId',
  'POST /workflow/v1/:documentId/fields',
  'PUT /workflow/v1/:documentId/fields/:fieldId',
  'PATCH /workflow/v1/:documentId/fields/:fieldId/required',
  'DELETE /workflow/v1/:workflowId/fields/:fieldId',
  'POST /workflow/v1/:workflowId/commence',
  'POST /workflow/v1/:workflowId/void',
];

/**
 * Owner-only operations that name the workflow elsewhere than in the path (a query or a body): each builds its own
 * request for the workflow.
 */
const OWNER_ONLY_ELSEWHERE: Record<
  string,
  (t: TestApp, token: string, target: Target) => ReturnType<TestApp['request']>
> = {
  'POST /document/v1?workflowId (append a document)': async (t, token, target) =>
    uploadFile(t, token, 'more.pdf', await makePdf(1), { query: { workflowId: target.workflowId } }),
  'PUT /document/v1/:docId (replace the file)': async (t, token, target) =>
    replaceFile(t, token, target.documentId, 'new.pdf', await makePdf(1)),
  'DELETE /document/v1 {ids} (remove documents)': (t, token, target) =>
    t.request('DELETE', '/document/v1', { token, body: { ids: [target.documentId] } }),
  'DELETE /document/v1/workflows {workflowIds} (delete workflows)': (t, token, target) =>
    t.request('DELETE', '/document/v1/workflows', { token, body: { workflowIds: String(target.workflowId) } }),
  'PUT /workflow/v1/user/folders/:folderId/workflows {workflowIds} (file workflows)': async (t, token, target) => {
    const folder = await t.request('POST', '/workflow/v1/user/folders', {
      token,
      body: { folderName: `Folder ${target.workflowId}` },
    });
    return t.request('PUT', `/workflow/v1/user/folders/${folder.body.id}/workflows`, {
      token,
      body: { workflowIds: String(target.workflowId) },
    });
  },
  'POST /organization/v1/templates {workflowId} (a template from it)': (t, token, target) =>
    t.request('POST', '/organization/v1/templates', {
      token,
      body: { name: 'From theirs', workflowId: target.workflowId },
    }),
};

/** Open to whoever sees the workflow (its recipients act, read and comment); the service checks the row, not the ownership. */
const PARTICIPANT = [
  'GET /workflow/v1/sequence/:workflowId',
  'GET /document/v1/docs-detail/:workflowId',
  'GET /document/v1/:docId',
  'GET /workflow/v1/:workflowId/signing-key',
  'POST /workflow/v1/:workflowId/signing-key/reset-code',
  'POST /workflow/v1/:workflowId/signing-key/reset',
  'POST /workflow/v1/:workflowId/comments',
  'GET /workflow/v1/:workflowId/comments',
  'GET /workflow/v1/:workflowId/recipients',
  'GET /workflow/v1/:workflowId/recipients/:recipientId',
  'GET /workflow/v1/:workflowId/fields',
  'GET /workflow/v1/:workflowId/all-fields',
  'GET /workflow/v1/:workflowId/fields/:fieldId',
  'GET /workflow/v1/:workflowId/history',
  'GET /workflow/v1/evidence-report/:workflowId',
  'GET /document/v1/download/:workflowId',
  'GET /document/v1/page-image/:workflowId',
  'POST /workflow/v1/:documentId/fields/save',
  'POST /workflow/v1/:workflowId/sign',
  'POST /workflow/v1/:workflowId/approve',
  'POST /workflow/v1/:workflowId/sign/csc',
  'POST /workflow/v1/:workflowId/signature/csc',
  'GET /workflow/v1/check-user-credits/:workflowId',
  'POST /workflow/v1/:workflowId/identity/verify-password',
  'POST /workflow/v1/:workflowId/identity/send-otp',
  'POST /workflow/v1/:workflowId/identity/verify-otp',
  'POST /workflow/v1/:workflowId/decline',
  'GET /workflow/v1/:workflowId/reject-details',
  'POST /workflow/v1/:workflowId/recipients/:recipientId/delegate',
  'GET /workflow/v1/:workflowId/signing/overview',
  'GET /workflow/v1/:workflowId/branding',
  // A Power Survey parent is never visible to its recipients (each signs a child): for them it does not exist (404).
  'GET /document/v1/power-survey/:parentWorkflowId/dispatch-progress',
  'GET /document/v1/power-survey/:parentWorkflowId/workflows',
  'GET /document/v1/power-survey/:parentWorkflowId/export.csv',
];

type Target = { workflowId: number; documentId: number; recipientId: number; fieldId: number };

let t: TestApp;
let owner: TestUser;
let participant: TestUser;
let stranger: TestUser;
const folders = new Map<number, number>();

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Olivia Owner' });
  participant = await createUser(t, { name: 'Pat Participant' });
  stranger = await createUser(t, { name: 'Sam Stranger' });
  for (const user of [owner, participant, stranger]) {
    const folder = await t.request('POST', '/workflow/v1/user/folders', {
      token: user.token,
      body: { folderName: 'Mine' },
    });
    expect(folder.status).toBe(200);
    folders.set(user.userId, folder.body.id);
  }
});
afterAll(async () => {
  await t?.close();
});

/** A SENT workflow of the owner whose one signer is the participant's own account, with a field of that row. */
async function sentWorkflow(): Promise<Target> {
  const { workflow, document } = await createDraftWorkflow(t, owner, { sequence: 'UNORDERED' });
  const row = await insertRecipient(t, workflow.id, {
    userId: participant.userId,
    name: participant.name,
    email: participant.email,
    recipientOrder: 1,
  });
  const field = await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: row.id,
    fieldType: 'SIGNATURE',
    fieldRequired: true,
  });
  await markSent(t, workflow.id, [row.id]);
  return { workflowId: workflow.id, documentId: document.id, recipientId: row.id, fieldId: field.id };
}

function requestFor(route: RouteAuth, target: Target, caller: TestUser) {
  const ids: Record<string, number> = {
    workflowId: target.workflowId,
    workflowID: target.workflowId,
    documentId: target.documentId,
    docId: target.documentId,
    recipientId: target.recipientId,
    fieldId: target.fieldId,
    folderId: folders.get(caller.userId)!,
  };
  const known = { ...ids, image: pngDataUrl() };
  const url = route.url.replace(/:([A-Za-z]+)/g, (_, name: string) => String(ids[name]));
  const query = route.schema.querystring
    ? new URLSearchParams(
        Object.entries(sample(route.schema.querystring, known) as object).map(([k, v]): [string, string] => [
          k,
          String(v),
        ]),
      ).toString()
    : '';
  const body = route.schema.body ? sample(route.schema.body, known) : undefined;
  return t.request(route.method, query ? `${url}?${query}` : url, { token: caller.token, body });
}

const routeName = (r: Pick<RouteAuth, 'method' | 'url'>) => `${r.method} ${r.url}`;
const scopedRoutes = () =>
  t.routes.filter(
    (r) =>
      r.auth !== 'public' &&
      r.auth !== 'operator' &&
      r.method !== 'HEAD' &&
      r.method !== 'OPTIONS' &&
      /:(workflowId|workflowID|parentWorkflowId|documentId|docId)\b/.test(r.url),
  );

describe('owner-only operations answer a participant 400 INVALID_WORKFLOW_OWNER, a stranger 404', () => {
  it('every route that names a workflow or document, by its path', async () => {
    const failures: string[] = [];
    for (const name of OWNER_ONLY) {
      const route = scopedRoutes().find((r) => routeName(r) === name);
      if (!route) {
        failures.push(`${name}: no such route`);
        continue;
      }
      const target = await sentWorkflow();
      const byParticipant = await requestFor(route, target, participant);
      if (byParticipant.status !== 400 || byParticipant.body.message !== 'INVALID_WORKFLOW_OWNER')
        failures.push(`${name} participant → ${byParticipant.status} ${byParticipant.raw.slice(0, 160)}`);
      const byStranger = await requestFor(route, target, stranger);
      if (byStranger.status !== 404)
        failures.push(`${name} stranger → ${byStranger.status} ${byStranger.raw.slice(0, 160)}`);
      const byOwner = await requestFor(route, target, owner);
      if (byOwner.status === 404 || byOwner.body?.message === 'INVALID_WORKFLOW_OWNER')
        failures.push(`${name} owner → ${byOwner.status} ${byOwner.raw.slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
  });

  it.each(Object.entries(OWNER_ONLY_ELSEWHERE))('%s', async (_name, call) => {
    const target = await sentWorkflow();
    const byParticipant = await call(t, participant.token, target);
    expect([byParticipant.status, byParticipant.body.message], byParticipant.raw).toEqual([
      400,
      'INVALID_WORKFLOW_OWNER',
    ]);
    const byStranger = await call(t, stranger.token, target);
    expect(byStranger.status, byStranger.raw).toBe(404);
    const byOwner = await call(t, owner.token, target);
    expect(byOwner.status === 404 || byOwner.body?.message === 'INVALID_WORKFLOW_OWNER', byOwner.raw).toBe(false);
  });

  it('every route that names a workflow or document is classified (owner-only or open to participants)', () => {
    const classified = new Set([...OWNER_ONLY, ...PARTICIPANT]);
    expect(
      scopedRoutes()
        .map(routeName)
        .filter((name) => !classified.has(name)),
    ).toEqual([]);
  });
});
