import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, guestToken, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { addDocument, updateRecipient, updateWorkflow } from '../helpers/document-list.ts';
import { createListSearch } from '../../src/modules/documents/document-list-search.ts';
import { findSearchIds, isSnapshotCurrent, searchList } from '../../src/modules/documents/document-list.repo.ts';
import { probeOptions } from '../../src/modules/documents/search-probe.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const list = async (user: TestUser, query = '') => {
  const res = await t.request('GET', `/document/v1${query}`, { token: user.token });
  expect(res.status, `${query}: ${res.raw}`).toBe(200);
  return res.body as { content: any[]; totalElements: number };
};
const ids = (page: { content: any[] }) => page.content.map((i) => i.workflowId);

async function workflowIn(owner: TestUser, status: string, name = `${status} deal`) {
  const { workflow, document } = await createDraftWorkflow(t, owner, { name });
  if (status !== 'DRAFT') await updateWorkflow(t, workflow.id, { status, sentAt: new Date() });
  return { workflow, document };
}

describe('GET /document/v1: what the list holds', () => {
  it("lists the caller's workflows newest first, one item per workflow, with the documented fields", async () => {
    const owner = await createUser(t, { name: 'Olivia Owner' });
    const signer = await createUser(t, { name: 'Sam Signer' });
    const first = await workflowIn(owner, 'DRAFT', 'First');
    const second = await workflowIn(owner, 'SENT', 'Second');
    await addDocument(t, second.workflow.id, { name: 'Annex', position: 1 });
    await insertRecipient(t, second.workflow.id, { userId: signer.userId, name: 'Sam Signer', email: signer.email });
    const hidden = await insertRecipient(t, second.workflow.id, {
      userId: signer.userId,
      name: 'Sam Assistant',
      email: signer.email,
    });
    await updateRecipient(t, hidden.id, { isHidden: true, useDigitalCert: true });

    const page = await list(owner);
    expect(page.totalElements).toBe(2);
    expect(ids(page)).toEqual([second.workflow.id, first.workflow.id]);
    const [item, draft] = page.content;
    expect(item).toEqual({
      workflowId: second.workflow.id,
      documentCount: 2,
      recipientCount: 1,
      name: 'Second',
      ownerName: 'Olivia Owner',
      ownerUserId: owner.userId,
      status: 'SENT',
      sequence: 'UNORDERED',
      anyDigitalSignature: true,
      isPowerSurvey: false,
      isPowerSurveyChild: false,
      recipientId: null,
      recipientRole: null,
      enforceIdentity: null,
      folderId: null,
      dateCreated: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      dateSent: expect.stringMatching(/Z$/),
    });
    expect(draft).toMatchObject({
      documentCount: 1,
      recipientCount: 0,
      anyDigitalSignature: false,
      dateSent: null,
      status: 'DRAFT',
    });
    // A search brings its page's items back with the search itself (as JSON): the same items, field for field, for
    // the owner and for a recipient, whether the search is new (searchValue) or kept (same term, another request).
    expect((await list(owner, '?searchValue=s')).content).toEqual(page.content);
    expect((await list(owner, '?searchValue=s&size=5')).content).toEqual(page.content);
    await updateWorkflow(t, first.workflow.id, { status: 'SENT', sentAt: new Date() });
    await insertRecipient(t, first.workflow.id, {
      userId: signer.userId,
      name: 'Sam Signer',
      email: signer.email,
      role: 'APPROVER',
    });
    const signerPage = await list(signer);
    expect(signerPage.content.length).toBe(2);
    expect((await list(signer, '?searchValue=s')).content).toEqual(signerPage.content);
  });

  it("shows a workflow to its recipient only from SENT on, with that recipient's row", async () => {
    const owner = await createUser(t, { name: 'Olivia Owner' });
    const signer = await createUser(t, { name: 'Sam Signer' });
    const { workflow } = await workflowIn(owner, 'DRAFT', 'Shared deal');
    const delegated = await insertRecipient(t, workflow.id, {
      userId: signer.userId,
      name: 'Sam Signer',
      email: signer.email,
    });
    await updateRecipient(t, delegated.id, { status: 'DELEGATED' });
    const row = await insertRecipient(t, workflow.id, {
      userId: signer.userId,
      name: 'Sam Signer',
      email: signer.email,
      role: 'APPROVER',
      enforceIdentity: true,
    });
    expect((await list(signer)).totalElements).toBe(0);

    await updateWorkflow(t, workflow.id, { status: 'SENT' });
    const page = await list(signer);
    expect(page.totalElements).toBe(1);
    expect(page.content[0]).toMatchObject({
      workflowId: workflow.id,
      ownerName: 'Olivia Owner',
      recipientId: row.id,
      recipientRole: 'APPROVER',
      enforceIdentity: true,
      recipientCount: 1,
      folderId: null,
    });
    for (const status of ['COMPLETED', 'VOID']) {
      await updateWorkflow(t, workflow.id, { status });
      expect(ids(await list(signer))).toEqual([workflow.id]);
    }
  });

  it('never shows deleted workflows, to the owner or to recipients', async () => {
    const owner = await createUser(t);
    const signer = await createUser(t);
    const kept = await workflowIn(owner, 'SENT');
    const gone = await workflowIn(owner, 'SENT');
    for (const w of [kept, gone])
      await insertRecipient(t, w.workflow.id, { userId: signer.userId, name: 'Sam Signer', email: signer.email });
    await updateWorkflow(t, gone.workflow.id, { deletedAt: new Date() });
    expect(ids(await list(owner))).toEqual([kept.workflow.id]);
    expect(ids(await list(signer))).toEqual([kept.workflow.id]);
    const counts = (await t.request('GET', '/document/v1/count/documents-status', { token: owner.token })).body;
    expect(counts.sentDocCount).toBe(1);
  });

  it('Power Survey: the parent and its children are listed to the owner (children flagged); a child shows to its recipient', async () => {
    const owner = await createUser(t, { name: 'Olivia Owner' });
    const respondent = await createUser(t, { name: 'Rita Respondent' });
    const parent = await createDraftWorkflow(t, owner, { sequence: 'SURVEY', name: 'Survey' });
    await updateWorkflow(t, parent.workflow.id, { status: 'SENT' });
    const child = await createDraftWorkflow(t, owner, { sequence: 'SURVEY', name: 'Survey' });
    await updateWorkflow(t, child.workflow.id, { status: 'SENT', parentWorkflowId: parent.workflow.id });
    const row = await insertRecipient(t, child.workflow.id, {
      userId: respondent.userId,
      name: 'Rita Respondent',
      email: respondent.email,
    });

    const mine = await list(owner);
    expect(ids(mine)).toEqual([child.workflow.id, parent.workflow.id]);
    expect(mine.content[0]).toMatchObject({ isPowerSurvey: false, isPowerSurveyChild: true });
    expect(mine.content[1]).toMatchObject({ isPowerSurvey: true, isPowerSurveyChild: false });
    const theirs = await list(respondent);
    expect(theirs.content).toEqual([
      expect.objectContaining({
        workflowId: child.workflow.id,
        isPowerSurvey: false,
        isPowerSurveyChild: true,
        recipientId: row.id,
      }),
    ]);
  });
});

describe('GET /document/v1: filters, search, folders, pages', () => {
  it('filters by workflow status, ignoring case; an unknown filter is 400', async () => {
    const owner = await createUser(t);
    const made: Record<string, number> = {};
    for (const status of ['DRAFT', 'SENT', 'COMPLETED', 'VOID', 'APPROVED'])
      made[status] = (await workflowIn(owner, status)).workflow.id;
    expect((await list(owner, '?status=All')).totalElements).toBe(5);
    expect(ids(await list(owner, '?status=draft'))).toEqual([made.DRAFT]);
    expect(ids(await list(owner, '?status=SENT'))).toEqual([made.SENT]);
    expect(ids(await list(owner, '?status=Completed'))).toEqual([made.COMPLETED]);
    expect(ids(await list(owner, '?status=Voided'))).toEqual([made.VOID]);
    expect(ids(await list(owner, '?status=approved'))).toEqual([made.APPROVED]);
    for (const bad of ['Finished', 'DRAFTS', '%25']) {
      const res = await t.request('GET', `/document/v1?status=${bad}`, { token: owner.token });
      expect(res.status, bad).toBe(400);
      expect(res.body.message).toBe('BAD_REQUEST_BODY');
    }
  });

  it("Pending, Signed and Viewed read the caller's own row: action required, waiting for others, opened but not acted", async () => {
    const owner = await createUser(t);
    const me = await createUser(t);
    const make = async (rowStatus: string, role = 'SIGNER', workflowStatus = 'SENT') => {
      const { workflow } = await workflowIn(owner, workflowStatus);
      const row = await insertRecipient(t, workflow.id, {
        userId: me.userId,
        name: 'Me Myself',
        email: me.email,
        role,
      });
      await updateRecipient(t, row.id, { status: rowStatus });
      return workflow.id;
    };
    const myTurn = await make('SENT');
    const opened = await make('VIEWED');
    const signed = await make('SIGNED');
    const approved = await make('APPROVED', 'APPROVER');
    const notYet = await make('PENDING');
    const cc = await make('SENT', 'CC');
    const completed = await make('SIGNED', 'SIGNER', 'COMPLETED');

    expect(ids(await list(me, '?status=pending'))).toEqual([opened, myTurn]);
    expect(ids(await list(me, '?status=Viewed'))).toEqual([opened]);
    expect(ids(await list(me, '?status=SIGNED'))).toEqual([approved, signed]);
    expect(ids(await list(me, '?status=Sent'))).toEqual([cc, notYet, approved, signed, opened, myTurn]);
    expect(ids(await list(me, '?status=Completed'))).toEqual([completed]);
    // The owner holds no row in these: nothing is pending for them.
    expect((await list(owner, '?status=Pending')).totalElements).toBe(0);

    const counts = (await t.request('GET', '/document/v1/count/documents-status', { token: me.token })).body;
    expect(counts).toEqual({
      draftDocCount: 0,
      pendingDocCount: 2,
      sentDocCount: 6,
      signedDocCount: 2,
      completedDocCount: 1,
      voidDocCount: 0,
    });
  });

  it('the status counts equal the list totals under each filter', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    for (const status of ['DRAFT', 'DRAFT', 'SENT', 'COMPLETED', 'COMPLETED', 'COMPLETED', 'VOID'])
      await workflowIn(owner, status);
    const incoming = await workflowIn(other, 'SENT');
    const row = await insertRecipient(t, incoming.workflow.id, {
      userId: owner.userId,
      name: 'Olivia Owner',
      email: owner.email,
    });
    await updateRecipient(t, row.id, { status: 'SENT' });
    // Someone else's draft naming the caller is not counted.
    const draft = await workflowIn(other, 'DRAFT');
    await insertRecipient(t, draft.workflow.id, { userId: owner.userId, name: 'Olivia Owner', email: owner.email });

    const res = await t.request('GET', '/document/v1/count/documents-status', { token: owner.token });
    expect(res.status).toBe(200);
    const byFilter: Record<string, string> = {
      draftDocCount: 'Draft',
      pendingDocCount: 'Pending',
      sentDocCount: 'Sent',
      signedDocCount: 'Signed',
      completedDocCount: 'Completed',
      voidDocCount: 'Voided',
    };
    for (const [key, filter] of Object.entries(byFilter))
      expect(res.body[key], key).toBe((await list(owner, `?status=${filter}`)).totalElements);
    expect(res.body).toEqual({
      draftDocCount: 2,
      pendingDocCount: 1,
      sentDocCount: 2,
      signedDocCount: 0,
      completedDocCount: 3,
      voidDocCount: 1,
    });
  });

  it('searchValue matches the workflow name ignoring case, with wildcards taken literally', async () => {
    const owner = await createUser(t);
    const lease = await workflowIn(owner, 'DRAFT', 'Office Lease 2025');
    const percent = await workflowIn(owner, 'DRAFT', 'Discount 100% final');
    const underscore = await workflowIn(owner, 'DRAFT', 'file_v2');
    await workflowIn(owner, 'DRAFT', 'filev2 other');
    expect(ids(await list(owner, '?searchValue=lease'))).toEqual([lease.workflow.id]);
    expect(ids(await list(owner, '?searchValue=%25'))).toEqual([percent.workflow.id]);
    expect(ids(await list(owner, '?searchValue=_'))).toEqual([underscore.workflow.id]);
    expect(ids(await list(owner, '?searchValue=E_V'))).toEqual([underscore.workflow.id]);
    expect((await list(owner, '?searchValue=nothing-like-it')).totalElements).toBe(0);
    expect(ids(await list(owner, '?searchValue=LEASE&status=Draft'))).toEqual([lease.workflow.id]);
  });

  it("a search walking the caller's entries and one through the trigram index answer the same (small lists walk, large ones use the index)", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const names = [
      'Office Lease 2025',
      'Discount 100% final',
      'file_v2',
      'filev2 other',
      'Back\\slash lease',
      'ÉTÉ lease',
      'LEASE renewal',
    ];
    for (const [index, name] of names.entries())
      await workflowIn(owner, ['DRAFT', 'SENT', 'COMPLETED'][index % 3], name);
    const incoming = await workflowIn(other, 'SENT', 'Incoming lease');
    const row = await insertRecipient(t, incoming.workflow.id, {
      userId: owner.userId,
      name: 'Olivia Owner',
      email: owner.email,
    });
    await updateRecipient(t, row.id, { status: 'SENT' });
    for (const search of [
      'lease',
      'LEASE',
      '%',
      '_',
      'e_v',
      '\\',
      'été',
      'no such name',
      'o',
      'office lease',
      'Lease 2025',
      'été lease',
      '100% final',
      'v2 oth',
    ]) {
      for (const filter of [{}, { workflowStatus: 'DRAFT' }, { action: 'PENDING' as const }]) {
        const criteria = { userId: owner.userId, filter, search };
        const walked = await searchList(t.platform.db, criteria, 3, 0, Infinity);
        const indexed = await searchList(t.platform.db, criteria, 3, 0, -1);
        expect(walked.total, JSON.stringify(criteria)).toBe(indexed.total);
        expect(walked.ids).toEqual(indexed.ids);
        expect(await findSearchIds(t.platform.db, criteria, 3, 1, Infinity)).toEqual(
          await findSearchIds(t.platform.db, criteria, 3, 1, -1),
        );
        // The index asked for a part of the term (search-probe.ts), each part the term offers: the same answer.
        for (const searchProbe of probeOptions(search)) {
          const probed = await searchList(t.platform.db, { ...criteria, searchProbe }, 3, 0, -1);
          expect({ total: probed.total, ids: probed.ids }, `${JSON.stringify(criteria)} via ${searchProbe}`).toEqual({
            total: walked.total,
            ids: walked.ids,
          });
          expect(await findSearchIds(t.platform.db, { ...criteria, searchProbe }, 3, 1, -1)).toEqual(
            await findSearchIds(t.platform.db, criteria, 3, 1, Infinity),
          );
        }
      }
    }
    expect(
      (await searchList(t.platform.db, { userId: owner.userId, filter: {}, search: 'lease' }, 20, 0, Infinity)).total,
    ).toBe(5);
  });

  it('a search is run once for many concurrent requests, and again once after a change to the list', async () => {
    const owner = await createUser(t);
    const first = await workflowIn(owner, 'DRAFT', 'Concurrent Lease A');
    await workflowIn(owner, 'DRAFT', 'Concurrent Lease B');
    let searches = 0;
    const search = createListSearch(t.platform.db, {
      searchList: async (...args) => {
        searches += 1;
        return searchList(...args);
      },
      findSearchIds,
      isSnapshotCurrent,
    });
    const criteria = { userId: owner.userId, filter: {}, search: 'concurrent lease' };
    expect((await search.find(criteria, 20, 0)).total).toBe(2);
    const answers = await Promise.all(Array.from({ length: 20 }, () => search.find(criteria, 20, 0)));
    expect(answers.map((a) => a.total)).toEqual(Array(20).fill(2));
    expect(searches).toBe(1);
    await updateWorkflow(t, first.workflow.id, { name: 'Renamed' });
    expect((await search.find(criteria, 20, 0)).total).toBe(1);
    expect(searches).toBe(2);
  });

  it("folderID narrows to one of the caller's folders; someone else's folder is 404", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const filed = await workflowIn(owner, 'COMPLETED');
    await workflowIn(owner, 'COMPLETED');
    const folder = (
      await t.request('POST', '/workflow/v1/user/folders', { token: owner.token, body: { folderName: 'Done' } })
    ).body;
    await t.request('PUT', `/workflow/v1/user/folders/${folder.id}/${filed.workflow.id}`, { token: owner.token });
    const page = await list(owner, `?folderID=${folder.id}`);
    expect(ids(page)).toEqual([filed.workflow.id]);
    expect(page.content[0].folderId).toBe(folder.id);
    expect(ids(await list(owner, `?folderId=${folder.id}&status=Completed`))).toEqual([filed.workflow.id]);
    expect((await list(owner, `?folderID=${folder.id}&status=Draft`)).totalElements).toBe(0);
    expect((await t.request('GET', `/document/v1?folderID=${folder.id}`, { token: other.token })).status).toBe(404);
  });

  it('pages newest first with a total; bad page parameters are 400', async () => {
    const owner = await createUser(t);
    const made: number[] = [];
    for (let i = 0; i < 7; i++) made.push((await workflowIn(owner, i % 2 ? 'SENT' : 'DRAFT')).workflow.id);
    const newestFirst = [...made].reverse();
    expect(ids(await list(owner, '?page=0&size=3'))).toEqual(newestFirst.slice(0, 3));
    const last = await list(owner, '?page=2&size=3');
    expect(ids(last)).toEqual(newestFirst.slice(6));
    expect(last.totalElements).toBe(7);
    expect((await list(owner, '?page=5&size=3')).content).toEqual([]);
    for (const query of ['?size=0', '?size=1001', '?page=-1', '?page=x', '?page=1e300', '?page=1000001']) {
      expect((await t.request('GET', `/document/v1${query}`, { token: owner.token })).status, query).toBe(400);
    }
  });

  it('is for signed-in users: a signing-link token gets 403, no token 401', async () => {
    const owner = await createUser(t);
    const { workflow } = await workflowIn(owner, 'SENT');
    const row = await insertRecipient(t, workflow.id, {
      userId: owner.userId,
      name: 'Olivia Owner',
      email: owner.email,
    });
    expect((await t.request('GET', '/document/v1', { token: await guestToken(t, row) })).status).toBe(403);
    expect((await t.request('GET', '/document/v1')).status).toBe(401);
  });
});

describe('document reads', () => {
  it("GET /document/v1/{docId}: the list item plus the document's id, name, size, pages and isViewed", async () => {
    const owner = await createUser(t, { name: 'Olivia Owner' });
    const { workflow, document } = await createDraftWorkflow(t, owner, { name: 'NDA', pages: 3 });
    const res = await t.request('GET', `/document/v1/${document.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: document.id,
      documentName: 'NDA',
      size: document.size,
      pages: 3,
      isViewed: false,
      position: 0,
      workflowId: workflow.id,
      name: 'NDA',
      ownerName: 'Olivia Owner',
      status: 'DRAFT',
      documentCount: 1,
      recipientId: null,
    });
    expect((await t.request('GET', '/document/v1/999999', { token: owner.token })).status).toBe(404);
  });

  it("is readable by recipients once sent and by the workflow's signing-link token, hidden from everyone else", async () => {
    const owner = await createUser(t);
    const signer = await createUser(t);
    const stranger = await createUser(t);
    const { workflow, document } = await createDraftWorkflow(t, owner);
    const row = await insertRecipient(t, workflow.id, {
      userId: signer.userId,
      name: 'Sam Signer',
      email: signer.email,
      enforceIdentity: true,
    });
    const guest = await guestToken(t, row);
    expect((await t.request('GET', `/document/v1/${document.id}`, { token: signer.token })).status).toBe(404);

    await updateWorkflow(t, workflow.id, { status: 'SENT' });
    for (const token of [signer.token, guest]) {
      const res = await t.request('GET', `/document/v1/${document.id}`, { token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: document.id,
        recipientId: row.id,
        recipientRole: 'SIGNER',
        enforceIdentity: true,
        folderId: null,
      });
      const detail = await t.request('GET', `/document/v1/docs-detail/${workflow.id}`, { token });
      expect(detail.body.map((d: any) => d.id)).toEqual([document.id]);
    }
    const other = await createDraftWorkflow(t, owner);
    const otherRow = await insertRecipient(t, other.workflow.id, {
      userId: stranger.userId,
      name: 'Stan Stranger',
      email: stranger.email,
    });
    await updateWorkflow(t, other.workflow.id, { status: 'SENT' });
    for (const token of [stranger.token, await guestToken(t, otherRow)]) {
      expect((await t.request('GET', `/document/v1/${document.id}`, { token })).status).toBe(404);
      expect((await t.request('GET', `/document/v1/docs-detail/${workflow.id}`, { token })).status).toBe(404);
    }
  });

  it('GET /document/v1/docs-detail/{workflowId}: every document in position order, same shape', async () => {
    const owner = await createUser(t);
    const { workflow, document } = await createDraftWorkflow(t, owner, { name: 'Main' });
    const annexB = await addDocument(t, workflow.id, { name: 'Annex B', position: 2 });
    const annexA = await addDocument(t, workflow.id, { name: 'Annex A', position: 1 });
    const res = await t.request('GET', `/document/v1/docs-detail/${workflow.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.map((d: any) => [d.id, d.documentName, d.position])).toEqual([
      [document.id, 'Main', 0],
      [annexA.id, 'Annex A', 1],
      [annexB.id, 'Annex B', 2],
    ]);
    expect(
      res.body.every((d: any) => d.workflowId === workflow.id && d.documentCount === 3 && typeof d.size === 'number'),
    ).toBe(true);
    expect((await t.request('GET', '/document/v1/docs-detail/999999', { token: owner.token })).status).toBe(404);
  });
});
