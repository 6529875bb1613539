import { describe, expect } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { commence, draftWithRecipients, saveAll, tokenFromMail } from '../helpers/ceremony.ts';
import { guestFromMail } from '../helpers/signing.ts';
import { listsAndRecounts } from '../helpers/document-list-recount.ts';
import { updateWorkflow } from '../helpers/document-list.ts';
import { createTemplate, sourceWorkflow } from '../templates/template-helpers.ts';
import { childrenOf, draftSurvey } from '../surveys/survey-helpers.ts';

/*
 * The list's read model (workflow_list_entries and the workflow_list_counts ledger, kept by database triggers) against
 * a recount from workflows and recipients with the list's rules written out again (helpers/document-list-recount.ts).
 */

async function expectListsMatch(
  t: TestApp,
  users: TestUser[],
  note: string,
  options: { folderId?: number; search?: string } = {},
) {
  for (const user of users) {
    const { served, recounted } = await listsAndRecounts(t, user, options);
    expect(served, `${note}: user ${user.userId} ${JSON.stringify(options)}`).toEqual(recounted);
  }
}

/** Small deterministic generator (mulberry32), so a failing sequence can be replayed from its seed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] };
}

/** Per user and key, the ledger's sums; and every entry: what a rebuild from scratch must reproduce. */
async function readModel(t: TestApp) {
  const ledger =
    await t.platform.db.execute(sql`select user_id, scope, status, folder_id, owned, sum(n)::int as n from workflow_list_counts
    where scope <> 'TOUCH' group by 1, 2, 3, 4, 5 having sum(n) <> 0 order by 1, 2, 3, 4, 5`);
  const entries = await t.platform.db.execute(sql`select * from workflow_list_entries order by user_id, workflow_id`);
  return { ledger: ledger.rows, entries: entries.rows };
}

describe("the document list's read model", () => {
  // Many requests and recounts per test: generous time on a busy machine.
  test('equals a recount after a randomised sequence of writes to workflows and recipients, rollbacks included', {
    timeout: 600_000,
  }, async ({ app: t }) => {
    const seed = Number(process.env.LIST_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const rnd = random(seed);
    const note = `seed ${seed} (LIST_SEED=${seed} replays it)`;
    const db = t.platform.db;
    const people = [
      await createUser(t),
      await createUser(t),
      await createUser(t),
      await createUser(t, { emailVerified: false }),
    ];
    // Guests: recipients only, no account to list with.
    const guests = (
      await db.execute(sql`insert into users (email, name, is_guest) select 'guest' || g || '-' || ${seed} || '@example.com', 'Guest ' || g, true
      from generate_series(1, 2) g returning id`)
    ).rows.map((r: any) => Number(r.id));
    const folders = new Map<number, number>();
    for (const person of people) {
      const res = await t.request('POST', '/workflow/v1/user/folders', {
        token: person.token,
        body: { folderName: `Folder ${person.userId}` },
      });
      folders.set(person.userId, res.body.id);
    }
    const userIds = [...people.map((p) => p.userId), ...guests];
    const names = ['Lease', 'Office lease', 'NDA', 'Offer 100%', 'file_v2', 'Renewal'];
    const statuses = ['DRAFT', 'SENT', 'SENT', 'COMPLETED', 'VOID', 'APPROVED'];
    const rowStatuses = ['PENDING', 'SENT', 'VIEWED', 'SIGNED', 'APPROVED', 'DECLINED', 'DELEGATED', 'SKIPPED'];
    // Read through the same connection as the writes (the embedded database has one: a second would wait for the transaction).
    const workflowIds = async (q: typeof db) =>
      (await q.execute(sql`select id from workflows order by id`)).rows.map((r: any) => Number(r.id));
    const recipientIds = async (q: typeof db) =>
      (await q.execute(sql`select id from recipients order by id`)).rows.map((r: any) => Number(r.id));

    const operations: Record<string, (q: typeof db) => Promise<unknown>> = {
      async newWorkflow(q) {
        const owner = rnd.pick(people);
        const sequence = rnd.pick(['UNORDERED', 'ORDERED', 'SURVEY', 'SELF']);
        const parents = (
          await q.execute(
            sql`select id from workflows where sequence = 'SURVEY' and parent_workflow_id is null and owner_user_id = ${owner.userId}`,
          )
        ).rows;
        const parent =
          sequence === 'SURVEY' && parents.length > 0 && rnd.next() < 0.5
            ? Number((rnd.pick(parents) as any).id)
            : null;
        const folder = rnd.next() < 0.3 ? folders.get(owner.userId)! : null;
        await q.execute(sql`insert into workflows (owner_user_id, organization_id, name, sequence, sign_type, status, folder_id, parent_workflow_id, deleted_at)
          values (${owner.userId}, ${owner.organizationId}, ${rnd.pick(names)}, ${sequence}, 'COUNTERSIGN', ${rnd.pick(statuses)}, ${folder}, ${parent},
            ${rnd.next() < 0.1 ? new Date().toISOString() : null})`);
      },
      async addRecipient(q) {
        const ids = await workflowIds(q);
        if (ids.length === 0) return;
        const user = rnd.pick(userIds);
        await q.execute(sql`insert into recipients (workflow_id, user_id, name, email, role, color, status)
          values (${rnd.pick(ids)}, ${user}, 'Someone', ${`r${user}@example.com`}, ${rnd.pick(['SIGNER', 'SIGNER', 'APPROVER', 'CC'])}, '#FF0000', ${rnd.pick(rowStatuses)})`);
      },
      async changeRecipient(q) {
        const ids = await recipientIds(q);
        if (ids.length === 0) return;
        const id = rnd.pick(ids);
        const change = rnd.pick(['status', 'status', 'role', 'user', 'workflow', 'delete']);
        if (change === 'status')
          await q.execute(sql`update recipients set status = ${rnd.pick(rowStatuses)} where id = ${id}`);
        if (change === 'role')
          await q.execute(sql`update recipients set role = ${rnd.pick(['SIGNER', 'APPROVER', 'CC'])} where id = ${id}`);
        if (change === 'user')
          await q.execute(sql`update recipients set user_id = ${rnd.pick(userIds)} where id = ${id}`);
        if (change === 'workflow')
          await q.execute(sql`update recipients set workflow_id = ${rnd.pick(await workflowIds(q))} where id = ${id}`);
        if (change === 'delete') await q.execute(sql`delete from recipients where id = ${id}`);
      },
      async changeWorkflow(q) {
        const ids = await workflowIds(q);
        if (ids.length === 0) return;
        const id = rnd.pick(ids);
        const change = rnd.pick([
          'status',
          'status',
          'delete',
          'undelete',
          'folder',
          'rename',
          'owner',
          'sequence',
          'parent',
        ]);
        if (change === 'status')
          await q.execute(sql`update workflows set status = ${rnd.pick(statuses)} where id = ${id}`);
        if (change === 'delete') await q.execute(sql`update workflows set deleted_at = now() where id = ${id}`);
        if (change === 'undelete') await q.execute(sql`update workflows set deleted_at = null where id = ${id}`);
        if (change === 'folder')
          await q.execute(
            sql`update workflows w set folder_id = case when folder_id is null then f.id end from folders f where f.user_id = w.owner_user_id and w.id = ${id}`,
          );
        if (change === 'rename') await q.execute(sql`update workflows set name = ${rnd.pick(names)} where id = ${id}`);
        if (change === 'owner') {
          const owner = rnd.pick(people);
          await q.execute(sql`update workflows set owner_user_id = ${owner.userId}, folder_id = null where id = ${id}`);
        }
        if (change === 'sequence')
          await q.execute(sql`update workflows set sequence = ${rnd.pick(['UNORDERED', 'SURVEY'])} where id = ${id}`);
        if (change === 'parent')
          await q.execute(
            sql`update workflows set parent_workflow_id = case when parent_workflow_id is null then ${rnd.pick(ids)}::int end where id = ${id}`,
          );
      },
      async manyRows(q) {
        // Several rows in one statement: the triggers see them together.
        const ids = await workflowIds(q);
        if (ids.length === 0) return;
        if (rnd.next() < 0.5)
          await q.execute(
            sql`update recipients set status = ${rnd.pick(rowStatuses)} where workflow_id = ${rnd.pick(ids)}`,
          );
        else
          await q.execute(
            sql`update workflows set status = ${rnd.pick(statuses)} where owner_user_id = ${rnd.pick(people).userId} and id % 2 = ${Math.floor(rnd.next() * 2)}`,
          );
      },
      async hardDelete(q) {
        // Recipients go with it (on delete cascade): both tables change in one statement.
        const ids = await workflowIds(q);
        if (ids.length === 0) return;
        const id = rnd.pick(ids);
        await q.execute(sql`update workflows set parent_workflow_id = null where parent_workflow_id = ${id}`);
        await q.execute(sql`delete from workflows where id = ${id}`);
      },
    };
    const weighted = [
      'newWorkflow',
      'newWorkflow',
      'newWorkflow',
      'addRecipient',
      'addRecipient',
      'addRecipient',
      'changeRecipient',
      'changeRecipient',
      'changeWorkflow',
      'changeWorkflow',
      'manyRows',
      'hardDelete',
    ];

    for (let step = 1; step <= 150; step++) {
      if (step % 25 === 0) {
        // A transaction that fails after its writes leaves nothing behind.
        await db
          .transaction(async (tx) => {
            for (let i = 0; i < 3; i++) await operations[rnd.pick(weighted)](tx as unknown as typeof db);
            tx.rollback();
          })
          .catch((error: unknown) => {
            if (!String(error).includes('Rollback')) throw error;
          });
      } else {
        await operations[rnd.pick(weighted)](db);
      }
      if (step === 75) await db.execute(sql`update users set email_verified_at = now() where id = ${people[3].userId}`);
      if (step % 30 === 0 || step === 150) {
        await expectListsMatch(t, people, `${note}, step ${step}`);
        await expectListsMatch(t, [people[0], people[3]], `${note}, step ${step}`, { search: 'lease' });
        await expectListsMatch(t, [people[1]], `${note}, step ${step}`, { folderId: folders.get(people[1].userId) });
      }
    }

    // What the writes maintained is what a rebuild from scratch gives (the migration's backfill does the same).
    const maintained = await readModel(t);
    await db.execute(sql`delete from workflow_list_entries`);
    await db.execute(sql`delete from workflow_list_counts`);
    await db.execute(sql`select workflow_list_refresh(array_agg(p.user_id), array_agg(p.workflow_id), null) from (
      select owner_user_id as user_id, id as workflow_id from workflows union select user_id, workflow_id from recipients) p`);
    expect(await readModel(t), note).toEqual(maintained);
    // Folding the ledger keeps every total.
    const users = (await db.execute(sql`select distinct user_id from workflow_list_counts`)).rows.map((r: any) =>
      Number(r.user_id),
    );
    await db.execute(sql`select workflow_list_compact(${sql.raw(`array[${users.join(',')}]::int[]`)})`);
    expect((await readModel(t)).ledger, note).toEqual(maintained.ledger);
    const [{ rows }] = [
      await db.execute(
        sql`select max(c) as rows from (select count(*)::int as c from workflow_list_counts group by user_id) x`,
      ),
    ];
    expect(Number((rows[0] as any).rows)).toBeLessThanOrEqual(40);
  });

  test('follows envelopes through the service: commence, sign, decline, delegate, complete, delete, folders, template use, Power Survey', {
    timeout: 600_000,
  }, async ({ app: t, owner }) => {
    const users = [owner];
    const check = async (note: string) => {
      // Follow-ups run as jobs (survey outcomes, seals): the lists are compared once they have.
      await t.drainJobs();
      await expectListsMatch(t, users, note);
    };

    const first = await draftWithRecipients(t, owner, {
      sequence: 'UNORDERED',
      recipients: [
        { name: 'Alice Signer', fields: [{ fieldType: 'SIGNATURE' }] },
        { name: 'Bob Signer', fields: [{ fieldType: 'SIGNATURE' }] },
      ],
    });
    const [alice, bob] = first.parties;
    users.push(alice.user, bob.user);
    await check('draft with recipients');
    await commence(t, owner, first.workflow.id);
    await check('commenced');
    const aliceToken = await tokenFromMail(t, alice.user.email);
    expect((await saveAll(t, aliceToken, first.document.id, first.fieldIds[0])).status).toBe(200);
    await check('alice signed');
    const bobToken = await tokenFromMail(t, bob.user.email);
    expect(
      (
        await t.request('POST', `/workflow/v1/${first.workflow.id}/decline`, {
          token: bobToken,
          body: { reason: 'Not today' },
        })
      ).status,
    ).toBe(200);
    await check('bob declined: void');

    const carol = await createUser(t, { name: 'Carol Delegate' });
    users.push(carol);
    const second = await draftWithRecipients(t, owner, {
      sequence: 'UNORDERED',
      recipients: [
        { name: 'Dan Signer', fields: [{ fieldType: 'SIGNATURE' }] },
        { name: 'Eve Signer', fields: [{ fieldType: 'SIGNATURE' }] },
      ],
    });
    const [dan, eve] = second.parties;
    users.push(dan.user, eve.user);
    await commence(t, owner, second.workflow.id);
    const danToken = await tokenFromMail(t, dan.user.email);
    const delegated = await t.request('POST', `/workflow/v1/${second.workflow.id}/recipients/${dan.row.id}/delegate`, {
      token: danToken,
      body: { name: 'Carol Delegate', emailAddress: carol.email },
    });
    expect(delegated.status, delegated.raw).toBe(200);
    await check('dan delegated to carol');
    const carolToken = await tokenFromMail(t, carol.email);
    expect((await saveAll(t, carolToken, second.document.id, second.fieldIds[0])).status).toBe(200);
    const eveToken = await tokenFromMail(t, eve.user.email);
    expect((await saveAll(t, eveToken, second.document.id, second.fieldIds[1])).status).toBe(200);
    await check('both signed: completed');

    expect((await t.request('DELETE', `/document/v1/${first.workflow.id}`, { token: owner.token })).status).toBe(200);
    await check('the void one deleted');
    const folder = (
      await t.request('POST', '/workflow/v1/user/folders', { token: owner.token, body: { folderName: 'Signed' } })
    ).body;
    expect(
      (await t.request('PUT', `/workflow/v1/user/folders/${folder.id}/${second.workflow.id}`, { token: owner.token }))
        .status,
    ).toBe(200);
    await check('filed');
    await expectListsMatch(t, [owner], 'filed', { folderId: folder.id });

    const source = await sourceWorkflow(t, owner);
    const template = await createTemplate(t, owner.token, { name: 'Lease template', workflowId: source.workflow.id });
    expect(
      (await t.request('GET', `/organization/v1/templates/${template.id}/use`, { token: owner.token })).status,
    ).toBe(200);
    await check('template used');

    const respondents = [
      await createUser(t, { name: 'Rita Respondent' }),
      await createUser(t, { name: 'Ray Respondent' }),
    ];
    users.push(...respondents);
    const survey = await draftSurvey(t, owner, { recipients: [] });
    const added = await t.request('POST', `/workflow/v1/${survey.workflowId}/recipients`, {
      token: owner.token,
      body: respondents.map((r) => ({
        name: r.name,
        emailAddress: r.email,
        useDigitalCert: false,
        recipientColor: '#1A56DB',
      })),
    });
    expect(added.status, added.raw).toBe(200);
    expect(
      (await t.request('POST', `/workflow/v1/${survey.workflowId}/commence`, { token: owner.token, body: {} })).status,
    ).toBe(202);
    await t.drainJobs();
    expect(await childrenOf(t, survey.workflowId)).toHaveLength(2);
    await check('survey dispatched');
    for (const [index, respondent] of respondents.entries()) {
      const { token, session } = await guestFromMail(t, respondent.email);
      const declined = await t.request('POST', `/workflow/v1/${session.workflowId}/decline`, {
        token,
        body: { reason: 'No thanks' },
      });
      expect(declined.status, declined.raw).toBe(200);
      await check(`respondent ${index + 1} declined`);
    }
  });

  test("a search's total and pages are exact after every kind of change, though they are reused between changes", {
    timeout: 300_000,
  }, async ({ app: t, owner }) => {
    const other = await createUser(t);
    const newcomer = await createUser(t, { emailVerified: false });
    const search = async (user: TestUser, query: string) => {
      const res = await t.request('GET', `/document/v1?${query}`, { token: user.token });
      expect(res.status, res.raw).toBe(200);
      return {
        total: res.body.totalElements as number,
        ids: res.body.content.map((i: { workflowId: number }) => i.workflowId) as number[],
      };
    };
    const same = async (user: TestUser, note: string) => {
      for (const query of [
        'searchValue=alpha&size=2',
        'searchValue=alpha&size=2&page=1',
        'searchValue=ALPHA&status=Sent',
        'searchValue=alpha&status=Pending',
      ]) {
        const first = await search(user, query);
        expect(await search(user, query), `${note}: ${query} asked again`).toEqual(first);
      }
      await expectListsMatch(t, [user], note, { search: 'alpha' });
    };
    const a = await createDraftWorkflow(t, owner, { name: 'Alpha one' });
    const b = await createDraftWorkflow(t, owner, { name: 'Beta' });
    await createDraftWorkflow(t, owner, { name: 'the alpha two' });
    await same(owner, 'start');
    expect((await search(owner, 'searchValue=alpha')).total).toBe(2);

    await updateWorkflow(t, b.workflow.id, { name: 'Alpha beta' });
    await same(owner, 'renamed into the search');
    expect((await search(owner, 'searchValue=alpha')).total).toBe(3);
    await createDraftWorkflow(t, owner, { name: 'ALPHA three' });
    await same(owner, 'a new match');
    await updateWorkflow(t, a.workflow.id, { status: 'SENT' });
    await same(owner, 'a status change');
    await updateWorkflow(t, a.workflow.id, { deletedAt: new Date() });
    await same(owner, 'deleted');
    expect((await search(owner, 'searchValue=alpha')).total).toBe(3);

    const incoming = await createDraftWorkflow(t, other, { name: 'Alpha from elsewhere' });
    const row = await insertRecipient(t, incoming.workflow.id, {
      userId: owner.userId,
      name: 'Owner',
      email: owner.email,
    });
    await same(owner, 'addressed while still a draft');
    await updateWorkflow(t, incoming.workflow.id, { status: 'SENT' });
    await same(owner, 'sent to the caller');
    await t.platform.db.execute(sql`update recipients set status = 'SENT' where id = ${row.id}`);
    await same(owner, "the caller's turn");
    expect((await search(owner, 'searchValue=alpha&status=Pending')).total).toBe(1);

    // An unverified account does not see what others addressed to it; once verified it does, at once.
    await insertRecipient(t, incoming.workflow.id, {
      userId: newcomer.userId,
      name: 'Newcomer',
      email: newcomer.email,
    });
    expect((await search(newcomer, 'searchValue=alpha')).total).toBe(0);
    await t.platform.db.execute(sql`update users set email_verified_at = now() where id = ${newcomer.userId}`);
    expect((await search(newcomer, 'searchValue=alpha')).total).toBe(1);
  });

  test.runIf(Boolean(process.env.DATABASE_URL))(
    "writers of one user's list never wait for each other (PostgreSQL)",
    async ({ app: t, owner }) => {
      const connect = async () => {
        const client = new pg.Client({ connectionString: t.databaseUrl });
        await client.connect();
        await client.query(`set statement_timeout = '5s'`);
        return client;
      };
      const [a, b] = [await connect(), await connect()];
      const insert = (client: pg.Client, name: string) =>
        client.query(
          `insert into workflows (owner_user_id, organization_id, name, sequence, sign_type)
      values ($1, $2, $3, 'UNORDERED', 'COUNTERSIGN')`,
          [owner.userId, owner.organizationId, name],
        );
      try {
        await a.query('begin');
        await insert(a, 'First');
        await a.query('select workflow_list_compact(array[$1]::int[])', [owner.userId]);
        // B adds to the same owner's totals and folds them while A holds its rows: no wait (a wait would hit the timeout).
        await b.query('begin');
        const started = Date.now();
        await insert(b, 'Second');
        await b.query('select workflow_list_compact(array[$1]::int[])', [owner.userId]);
        await b.query('commit');
        expect(Date.now() - started).toBeLessThan(4000);
        await a.query('commit');
      } finally {
        await a.end();
        await b.end();
      }
      await expectListsMatch(t, [owner], 'after two concurrent writers');
    },
  );
});
