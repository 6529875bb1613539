import { describe, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { organizations, recipients, templates, workflows } from '../../src/platform/db/schema/index.ts';
import { fileUser, test as base } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { guestToken, type TestUser } from '../helpers/factories.ts';
import { insertBusinessApp } from '../helpers/auth.ts';
import { countWorkflows, createTemplate, sourceWorkflow, templatesMember, workflowOf } from './template-helpers.ts';
import { addMember, ALL_ALLOWED, createRole, grant } from '../organizations/org-helpers.ts';

const test = base.extend<{ outsider: TestUser }>({
  outsider: fileUser({ name: 'Oscar Outsider' }),
});

let counter = 0;
const uniqueName = (base = 'Template') =>
  `${base} ${String.fromCharCode(65 + (counter++ % 26))}${String.fromCharCode(65 + (Math.floor(counter / 26) % 26))}`;

async function labelledTemplate(
  t: TestApp,
  owner: TestUser,
  labels: { order: number; label: string }[] = [{ order: 2, label: 'Client' }],
  extra: Record<string, unknown> = {},
) {
  const source = await sourceWorkflow(t, owner);
  const template = await createTemplate(t, owner.token, {
    name: uniqueName(),
    workflowId: source.workflow.id,
    recipientLabels: labels,
    ...extra,
  });
  return { source, template };
}

describe('creating a template from a workflow', () => {
  test('snapshots documents, recipient slots with labels, fields with styling and reminders; later edits of the source change nothing', async ({
    app: t,
    owner,
  }) => {
    const source = await sourceWorkflow(t, owner);
    const res = await t.request('POST', '/organization/v1/templates', {
      token: owner.token,
      body: {
        name: '  Sales contract ',
        description: 'NDA',
        workflowId: source.workflow.id,
        recipientLabels: [
          { order: 2, label: ' Client ' },
          { order: 1, label: '  ' },
        ],
        reminderEnabled: true,
        reminderIntervalDays: 3,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Sales contract',
      description: 'NDA',
      workflowId: source.workflow.id,
      folderId: null,
      recipientLabels: [{ order: 2, label: 'Client' }],
      reminderEnabled: true,
      reminderIntervalDays: 3,
    });

    const slots = await t.request('GET', `/workflow/v1/templates/${res.body.id}/recipients`, { token: owner.token });
    expect(slots.status).toBe(200);
    expect(slots.body.map((s: any) => [s.name, s.role, s.order, s.label])).toEqual([
      ['Alice Signer', 'SIGNER', 1, null],
      ['Bob Signer', 'SIGNER', 2, 'Client'],
    ]);

    // Edit the source after the snapshot: rename a recipient, remove rows.
    await t.platform.db
      .update(recipients)
      .set({ name: 'Changed Name' })
      .where(eq(recipients.workflowId, source.workflow.id));
    const again = await t.request('GET', `/workflow/v1/templates/${res.body.id}/recipients`, { token: owner.token });
    expect(again.body.map((s: any) => s.name)).toEqual(['Alice Signer', 'Bob Signer']);

    // The snapshot workflow is invisible to every workflow endpoint and list.
    const [row] = await t.platform.db.select().from(templates).where(eq(templates.id, res.body.id));
    expect((await t.request('GET', `/workflow/v1/${row.workflowId}/recipients`, { token: owner.token })).status).toBe(
      404,
    );
    const list = await t.request('GET', '/document/v1?page=0&size=100', { token: owner.token });
    expect(list.body.content.map((w: any) => w.workflowId)).not.toContain(row.workflowId);

    // A workflow made from it carries the fields with styling, no values, and the template's reminders.
    const used = await t.request('GET', `/organization/v1/templates/${res.body.id}/use`, { token: owner.token });
    expect(used.status).toBe(200);
    const made = await workflowOf(t, used.body.id);
    expect(made.workflow).toMatchObject({
      status: 'DRAFT',
      ownerUserId: owner.userId,
      templateId: res.body.id,
      name: 'Sales contract',
      reminderEnabled: true,
      reminderIntervalDays: 3,
    });
    expect(made.recipients.map((r) => r.name)).toEqual(['Alice Signer', 'Bob Signer']);
    expect(made.fields.map((f) => f.fieldType).sort()).toEqual(['SIGNATURE', 'SIGNATURE', 'TEXT']);
    const text = made.fields.find((f) => f.fieldType === 'TEXT')!;
    expect(text).toMatchObject({
      styling: { bold: true, fontSize: 14 },
      value: null,
      label: 'Company',
      recipientId: made.recipients[0].id,
    });
    expect((await t.request('GET', `/workflow/v1/${used.body.id}/recipients`, { token: owner.token })).status).toBe(
      200,
    );
  });

  test("refuses bad sources and labels: another user's workflow 404, SELF 400, a label beyond the slots 400, reminders without interval 400", async ({
    app: t,
    owner,
    outsider,
  }) => {
    const theirs = await sourceWorkflow(t, outsider);
    expect(
      (
        await t.request('POST', '/organization/v1/templates', {
          token: owner.token,
          body: { name: 'X', workflowId: theirs.workflow.id },
        })
      ).status,
    ).toBe(404);
    const source = await sourceWorkflow(t, owner);
    const beyond = await t.request('POST', '/organization/v1/templates', {
      token: owner.token,
      body: { name: 'X', workflowId: source.workflow.id, recipientLabels: [{ order: 3, label: 'C' }] },
    });
    expect([beyond.status, beyond.body.message]).toEqual([400, 'INVALID_REQUEST_BODY']);
    const twice = await t.request('POST', '/organization/v1/templates', {
      token: owner.token,
      body: {
        name: 'X',
        workflowId: source.workflow.id,
        recipientLabels: [
          { order: 1, label: 'A' },
          { order: 1, label: 'B' },
        ],
      },
    });
    expect(twice.status).toBe(400);
    expect(
      (
        await t.request('POST', '/organization/v1/templates', {
          token: owner.token,
          body: { name: 'X', workflowId: source.workflow.id, reminderEnabled: true },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.request('POST', '/organization/v1/templates', {
          token: owner.token,
          body: { name: ' ', workflowId: source.workflow.id },
        })
      ).body.message,
    ).toBe('INVALID_REQUEST_BODY');
    expect(
      (
        await t.request('POST', '/organization/v1/templates', {
          token: owner.token,
          body: { name: 'N'.repeat(51), workflowId: source.workflow.id },
        })
      ).status,
    ).toBe(400);
    await t.platform.db
      .update(workflows)
      .set({ sequence: 'SELF', signType: 'SELFSIGN' })
      .where(eq(workflows.id, source.workflow.id));
    const selfRes = await t.request('POST', '/organization/v1/templates', {
      token: owner.token,
      body: { name: 'X', workflowId: source.workflow.id },
    });
    expect([selfRes.status, selfRes.body.message]).toEqual([400, 'OPERATION_IS_NOT_ALLOWED']);
  });

  test('a name taken in the same folder is 409 (ignoring case); another folder may reuse it', async ({
    app: t,
    owner,
  }) => {
    const source = await sourceWorkflow(t, owner);
    await createTemplate(t, owner.token, { name: 'Lease', workflowId: source.workflow.id });
    const dup = await t.request('POST', '/organization/v1/templates', {
      token: owner.token,
      body: { name: 'LEASE', workflowId: source.workflow.id },
    });
    expect([dup.status, dup.body.message, dup.body.errorCode]).toEqual([409, 'TEMPLATE_NAME_TAKEN', 19001]);
    const folder = await t.request('POST', '/organization/v1/template-folders', {
      token: owner.token,
      body: { name: 'Leases' },
    });
    expect(
      (
        await t.request('POST', '/organization/v1/templates', {
          token: owner.token,
          body: { name: 'Lease', workflowId: source.workflow.id, folderId: folder.body.id },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await t.request('POST', '/organization/v1/templates', {
          token: owner.token,
          body: { name: 'Lease', workflowId: source.workflow.id, folderId: 999999 },
        })
      ).status,
    ).toBe(404);
  });
});

describe('reading, renaming, moving, cloning, deleting', () => {
  test('lists a page and all, reads one, downloads the source document', async ({ app: t, owner }) => {
    const { template } = await labelledTemplate(t, owner);
    const page = await t.request('GET', '/organization/v1/templates?page=0&size=2', { token: owner.token });
    expect(page.status).toBe(200);
    expect(page.body.content).toHaveLength(2);
    expect(page.body.totalElements).toBeGreaterThanOrEqual(3);
    expect(page.body.content[0].id).toBe(template.id);
    const all = await t.request('GET', '/organization/v1/templates/all', { token: owner.token });
    expect(all.body).toContainEqual({ id: template.id, name: template.name });
    expect(
      (await t.request('GET', `/organization/v1/templates/${template.id}`, { token: owner.token })).body.name,
    ).toBe(template.name);
    const file = await t.app.inject({
      method: 'GET',
      url: `/organization/v1/templates/download/${template.id}`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('application/pdf');
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await t.request('GET', '/organization/v1/templates/999999', { token: owner.token })).status).toBe(404);
  });

  test('renames (409 on a taken name), moves (all or nothing), clones with its own snapshot, deletes with ids repeated', async ({
    app: t,
    owner,
  }) => {
    const { template: a } = await labelledTemplate(t, owner);
    const { template: b } = await labelledTemplate(t, owner);
    expect(
      (
        await t.request('PUT', '/organization/v1/rename/templates', {
          token: owner.token,
          body: { id: a.id, name: b.name.toLowerCase() },
        })
      ).status,
    ).toBe(409);
    const renamed = await t.request('PUT', '/organization/v1/rename/templates', {
      token: owner.token,
      body: { id: a.id, name: 'Renamed one' },
    });
    expect(renamed.body.name).toBe('Renamed one');

    const folder = await t.request('POST', '/organization/v1/template-folders', {
      token: owner.token,
      body: { name: uniqueName('Folder') },
    });
    expect(
      (
        await t.request('PUT', '/organization/v1/templates/move', {
          token: owner.token,
          body: { ids: [a.id, 999999], folderId: folder.body.id },
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.request('GET', `/organization/v1/templates/${a.id}`, { token: owner.token })).body.folderId,
    ).toBeNull();
    const moved = await t.request('PUT', '/organization/v1/templates/move', {
      token: owner.token,
      body: { ids: [a.id, b.id], folderId: folder.body.id },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.map((m: any) => m.folderId)).toEqual([folder.body.id, folder.body.id]);
    const inFolder = await t.request('GET', `/organization/v1/templates?folderId=${folder.body.id}`, {
      token: owner.token,
    });
    expect(inFolder.body.content.map((m: any) => m.id).sort()).toEqual([a.id, b.id].sort());

    const clone = await t.request('POST', `/organization/v1/templates/${a.id}/clone`, { token: owner.token, body: {} });
    expect(clone.status).toBe(200);
    expect(clone.body).toMatchObject({
      name: 'Copy of Renamed one',
      folderId: folder.body.id,
      recipientLabels: [{ order: 2, label: 'Client' }],
    });
    const second = await t.request('POST', `/organization/v1/templates/${a.id}/clone`, {
      token: owner.token,
      body: {},
    });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.name).toBe('Copy of Renamed one (2)');
    const [original, copy] = await Promise.all(
      [a.id, clone.body.id].map(
        async (id) => (await t.platform.db.select().from(templates).where(eq(templates.id, id)))[0],
      ),
    );
    expect(copy.workflowId).not.toBe(original.workflowId);

    const del = await t.request('DELETE', `/organization/v1/templates?ids=${a.id}&ids=${clone.body.id}`, {
      token: owner.token,
    });
    expect(del.status).toBe(204);
    expect((await t.request('GET', `/organization/v1/templates/${a.id}`, { token: owner.token })).status).toBe(404);
    expect((await t.request('DELETE', `/organization/v1/templates?ids=${a.id}`, { token: owner.token })).status).toBe(
      404,
    );
    expect((await t.request('DELETE', '/organization/v1/templates', { token: owner.token })).status).toBe(400);
    // A deleted name is free again.
    expect(
      (
        await t.request('PUT', '/organization/v1/rename/templates', {
          token: owner.token,
          body: { id: b.id, name: 'Renamed one' },
        })
      ).status,
    ).toBe(200);
  });

  test('update: overwrite false changes settings only; overwrite true retakes the snapshot', async ({
    app: t,
    owner,
  }) => {
    const { source, template } = await labelledTemplate(t, owner);
    const base = { id: template.id, name: template.name, workflowId: source.workflow.id };
    const other = await sourceWorkflow(t, owner);
    const refused = await t.request('PUT', '/organization/v1/templates', {
      token: owner.token,
      body: { ...base, workflowId: other.workflow.id },
    });
    expect([refused.status, refused.body.message]).toEqual([400, 'INVALID_REQUEST_BODY']);
    const settings = await t.request('PUT', '/organization/v1/templates', {
      token: owner.token,
      body: { ...base, description: 'New', recipientLabels: [] },
    });
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({ description: 'New', recipientLabels: [], workflowId: source.workflow.id });

    await t.platform.db
      .update(recipients)
      .set({ name: 'Carol Changed' })
      .where(eq(recipients.id, other.parties[0].row.id));
    const overwritten = await t.request('PUT', '/organization/v1/templates', {
      token: owner.token,
      body: {
        ...base,
        workflowId: other.workflow.id,
        overwrite: true,
        recipientLabels: [{ order: 1, label: 'Buyer' }],
      },
    });
    expect(overwritten.status, JSON.stringify(overwritten.body)).toBe(200);
    expect(overwritten.body.workflowId).toBe(other.workflow.id);
    const slots = await t.request('GET', `/workflow/v1/templates/${template.id}/recipients`, { token: owner.token });
    expect(slots.body.map((s: any) => [s.name, s.label])).toEqual([
      ['Carol Changed', 'Buyer'],
      ['Bob Signer', null],
    ]);
  });
});

describe('dispatch and apply', () => {
  test('apply: overrides fill the placeholder, names are collapsed, the rest falls back; DRAFT and no mail', async ({
    app: t,
    owner,
  }) => {
    const { template } = await labelledTemplate(t, owner);
    const mailsBefore = (await t.mails()).length;
    const res = await t.request('POST', `/workflow/v1/templates/${template.id}/apply`, {
      token: owner.token,
      body: [
        {
          recipientIndex: 2,
          name: '  Carla   de   Vries ',
          emailAddress: 'Carla@Example.com',
          recipientColor: '#00AA00',
        },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const made = await workflowOf(t, res.body.id);
    expect(made.workflow.status).toBe('DRAFT');
    expect(made.recipients.map((r) => [r.name, r.email, r.color])).toEqual([
      ['Alice Signer', expect.stringContaining('@example.com'), '#FF0000'],
      ['Carla de Vries', 'carla@example.com', '#00AA00'],
    ]);
    expect((await t.mails()).length).toBe(mailsBefore);
  });

  test('refuses every override rule with nothing created', async ({ app: t, owner }) => {
    const { template } = await labelledTemplate(t, owner);
    const before = await countWorkflows(t);
    const apply = (body: unknown) =>
      t.request('POST', `/workflow/v1/templates/${template.id}/apply`, { token: owner.token, body });
    const fill = { recipientIndex: 2, name: 'Carla Vries', emailAddress: 'carla@example.com' };
    const cases: [unknown, number, string][] = [
      [[], 400, 'REQUIRED_FIELD_EMPTY'],
      [[{ recipientIndex: 2, name: 'Carla Vries' }], 400, 'REQUIRED_FIELD_EMPTY'],
      [[fill, { recipientIndex: 3 }], 400, 'BAD_REQUEST_BODY'],
      [[{ recipientIndex: 0 }, fill], 400, 'BAD_REQUEST_BODY'],
      [[fill, { ...fill }], 400, 'BAD_REQUEST_BODY'],
      [[fill, {}, {}], 400, 'BAD_REQUEST_BODY'],
      [[{ ...fill, name: 'Al' }], 400, 'INVALID_FIELD_VALUE'],
      [[{ ...fill, name: 'A'.repeat(51) }], 400, 'INVALID_FIELD_VALUE'],
      [[{ ...fill, name: 'Agent 007' }], 400, 'INVALID_FIELD_VALUE'],
      [[{ ...fill, name: 'Carla & Co' }], 400, 'INVALID_FIELD_VALUE'],
      [[{ ...fill, emailAddress: `${'a'.repeat(244)}@example.com` }], 400, 'INVALID_FIELD_VALUE'],
      [[{ ...fill, emailAddress: 'not-an-email' }], 400, 'INVALID_FIELD_VALUE'],
      [[{ ...fill, recipientColor: 'red' }], 400, 'INVALID_FIELD_VALUE'],
      [
        [
          { recipientIndex: 1, emailAddress: 'same@example.com' },
          { ...fill, emailAddress: 'SAME@example.com' },
        ],
        400,
        'DUPLICATE_RECIPIENT',
      ],
      [[{ ...fill, name: 12 }], 400, 'BAD_REQUEST_BODY'],
      [{ not: 'an array' }, 400, 'BAD_REQUEST_BODY'],
    ];
    for (const [body, status, message] of cases) {
      const res = await apply(body);
      expect([res.status, res.body.message], JSON.stringify(body)).toEqual([status, message]);
    }
    expect(await countWorkflows(t)).toBe(before);
    // The limits themselves pass: 3 and 50 characters, a 255-character email.
    expect((await apply([{ ...fill, name: 'Ann' }])).status).toBe(200);
    expect((await apply([{ ...fill, name: 'A'.repeat(50) }])).status).toBe(200);
    expect((await apply([{ ...fill, emailAddress: `${'a'.repeat(243)}@example.com` }])).status).toBe(200);
    // Positional overrides: the second entry fills slot 2.
    expect((await apply([{}, { name: 'Dora Diaz', emailAddress: 'dora@example.com' }])).status).toBe(200);
  });

  test('dispatch sends at once (mails, SENT, a credit) in one transaction; a refusal of sending leaves nothing', async ({
    app: t,
    owner,
  }) => {
    const { template } = await labelledTemplate(t, owner);
    const res = await t.request('POST', `/workflow/v1/templates/${template.id}/dispatch`, {
      token: owner.token,
      body: [{ recipientIndex: 2, name: 'Carla Vries', emailAddress: 'carla.dispatch@example.com' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const made = await workflowOf(t, res.body.id);
    expect(made.workflow.status).toBe('SENT');
    expect(made.workflow.templateId).toBe(template.id);
    expect((await t.mails({ to: 'carla.dispatch@example.com', kind: 'COMMENCE' })).length).toBe(1);

    const before = await countWorkflows(t);
    await t.platform.db.update(organizations).set({ credits: 0 }).where(eq(organizations.id, owner.organizationId));
    const broke = await t.request('POST', `/workflow/v1/templates/${template.id}/dispatch`, {
      token: owner.token,
      body: [{ recipientIndex: 2, name: 'Carla Vries', emailAddress: 'carla.broke@example.com' }],
    });
    expect([broke.status, broke.body.message]).toEqual([400, 'INSUFFICIENT_CREDITS']);
    expect(await countWorkflows(t)).toBe(before);
    expect((await t.mails({ to: 'carla.broke@example.com' })).length).toBe(0);
    await t.platform.db.update(organizations).set({ credits: 100 }).where(eq(organizations.id, owner.organizationId));
  });

  test("a partner's CLIENT token applies for its user", async ({ app: t, owner }) => {
    const { template } = await labelledTemplate(t, owner);
    const app = await insertBusinessApp(t, owner.organizationId);
    const token = await t.platform.tokens.sign(
      { sub: String(owner.userId), type: 'CLIENT', organizationId: owner.organizationId, appId: app.appId },
      600,
    );
    const res = await t.request('POST', `/workflow/v1/templates/${template.id}/apply`, {
      token,
      body: [{ recipientIndex: 2, name: 'Paula Partner', emailAddress: 'paula@example.com' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await workflowOf(t, res.body.id)).workflow).toMatchObject({ status: 'DRAFT', ownerUserId: owner.userId });
  });
});

describe('who may call', () => {
  test('no token 401, a guest 403, a member without TEMPLATES 403, another organization 404, rights per action', async ({
    app: t,
    owner,
    outsider,
  }) => {
    const { source, template } = await labelledTemplate(t, owner);
    const fill = [{ recipientIndex: 2, name: 'Carla Vries', emailAddress: 'carla.rights@example.com' }];
    const routes: [string, string, unknown?][] = [
      ['GET', '/organization/v1/templates'],
      ['GET', '/organization/v1/templates/all'],
      ['GET', `/organization/v1/templates/${template.id}`],
      ['GET', `/organization/v1/templates/${template.id}/use`],
      ['GET', `/organization/v1/templates/download/${template.id}`],
      ['GET', `/workflow/v1/templates/${template.id}/recipients`],
      ['POST', `/workflow/v1/templates/${template.id}/apply`, fill],
      ['POST', `/workflow/v1/templates/${template.id}/dispatch`, fill],
      ['POST', `/organization/v1/templates/${template.id}/clone`, {}],
      ['PUT', '/organization/v1/rename/templates', { id: template.id, name: 'Whatever' }],
      ['PUT', '/organization/v1/templates/move', { ids: [template.id], folderId: null }],
      ['PUT', '/organization/v1/templates', { id: template.id, name: template.name, workflowId: source.workflow.id }],
      ['DELETE', `/organization/v1/templates?ids=${template.id}`],
    ];
    const guest = await guestToken(t, source.parties[0].row);
    const { member: noRight } = await templatesMember(t, owner, null, 'Nina Noright');
    for (const [method, url, body] of routes) {
      expect((await t.request(method, url, { body })).status, `${method} ${url}`).toBe(401);
      expect((await t.request(method, url, { token: guest, body })).status, `${method} ${url}`).toBe(403);
      expect((await t.request(method, url, { token: noRight.token, body })).status, `${method} ${url}`).toBe(403);
      if (!url.endsWith('/templates') && !url.endsWith('/all')) {
        expect((await t.request(method, url, { token: outsider.token, body })).status, `${method} ${url}`).toBe(404);
      }
    }
    // The outsider's own list does not show it.
    expect(
      (await t.request('GET', '/organization/v1/templates/all', { token: outsider.token })).body,
    ).not.toContainEqual(expect.objectContaining({ id: template.id }));

    const { member: viewer } = await templatesMember(t, owner, { canView: true }, 'Vera Viewer');
    expect((await t.request('GET', `/organization/v1/templates/${template.id}`, { token: viewer.token })).status).toBe(
      200,
    );
    expect(
      (await t.request('POST', `/workflow/v1/templates/${template.id}/apply`, { token: viewer.token, body: fill }))
        .status,
    ).toBe(200);
    expect(
      (
        await t.request('POST', '/organization/v1/templates', {
          token: viewer.token,
          body: { name: 'Mine', workflowId: source.workflow.id },
        })
      ).status,
    ).toBe(403);
    expect(
      (await t.request('DELETE', `/organization/v1/templates?ids=${template.id}`, { token: viewer.token })).status,
    ).toBe(403);
  });

  test('a role without allowDocUseTemplates may read but not use templates', async ({ app: t, owner }) => {
    const { template } = await labelledTemplate(t, owner);
    const role = await createRole(t, owner, {
      permissions: [grant('TEMPLATES', { canView: true })],
      signatureSettings: { ...ALL_ALLOWED, allowDocUseTemplates: false },
    });
    const member = await addMember(t, owner, role.id, 'Uma User');
    expect((await t.request('GET', `/organization/v1/templates/${template.id}`, { token: member.token })).status).toBe(
      200,
    );
    const before = await countWorkflows(t);
    const used = await t.request('GET', `/organization/v1/templates/${template.id}/use`, { token: member.token });
    expect([used.status, used.body.message]).toEqual([403, 'ROLE_TEMPLATES_NOT_ALLOWED']);
    const applied = await t.request('POST', `/workflow/v1/templates/${template.id}/apply`, {
      token: member.token,
      body: [{ recipientIndex: 2, name: 'Carla Vries', emailAddress: 'c@example.com' }],
    });
    expect(applied.status).toBe(403);
    expect(await countWorkflows(t)).toBe(before);
  });
});
