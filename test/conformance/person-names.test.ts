import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { recipientEntry } from '../helpers/recipients.ts';
import { commence, draftForSending, guestEmail } from '../helpers/signing.ts';
import { createDraftWorkflow } from '../helpers/factories.ts';
import { addMember } from '../organizations/org-helpers.ts';
import { createTemplate, sourceWorkflow } from '../templates/template-helpers.ts';
import { PERSON_NAME_PATTERN as SERVICE_PATTERN } from '../../src/modules/users/person-names.ts';
import { PERSON_NAME_PATTERN as WEB_PATTERN } from '../../web/src/shared/person-name.ts';

/*
 * RUNTIME.md "Names": letters of any script (with their combining marks); a hyphen or an apostrophe (' or ’) between two
 * letters is part of a name; lengths and single spaces stay as SPEC.md says. One rule (src/modules/users/person-names.ts)
 * in every name rule: sign-up, invitations and member names, recipients, template dispatch names, delegation.
 */
const ACCEPTED = ["Jean-Luc O'Brien", 'Mary-Jane O’Neil', 'Núñez-García', 'Zoë d’Arc', '李 小龍', 'Jose\u0301 Ruiz'];
const REFUSED = [
  '-Jean',
  'Jean-',
  'Jean--Luc',
  "O''Brien",
  'Jean -Luc',
  "Ann 'Lee",
  'R2 D2',
  'Ann  Lee',
  'Ann_Lee',
  'Ann.Lee',
];

let t: TestApp;
let owner: TestUser;
let templateId: number;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Olivia Owner' });
  const source = await sourceWorkflow(t, owner);
  templateId = (await createTemplate(t, owner.token, { name: 'Names', workflowId: source.workflow.id })).id;
});
afterAll(async () => {
  await t?.close();
});

/** Each rule: a call with the name, and the answer that says it was refused. */
const RULES: Record<
  string,
  { refusedAs: [number, string]; collapsesSpaces?: boolean; call: (name: string) => ReturnType<TestApp['request']> }
> = {
  'sign-up': {
    refusedAs: [400, 'BAD_REQUEST_BODY'],
    call: (name) =>
      t.request('POST', '/auth/v1/signup', {
        body: { name, email: guestEmail('signup'), password: 'correct horse battery' },
      }),
  },
  invitation: {
    refusedAs: [400, 'BAD_REQUEST_BODY'],
    call: (name) =>
      t.request('POST', '/organization/v1/user', {
        token: owner.token,
        body: { name, emailAddress: guestEmail('invite') },
      }),
  },
  'member name': {
    refusedAs: [400, 'BAD_REQUEST_BODY'],
    call: async (name) => {
      const member = await addMember(t, owner, null, 'Mia Member');
      return t.request('PUT', `/organization/v1/user/${member.userId}`, { token: owner.token, body: { name } });
    },
  },
  recipient: {
    refusedAs: [400, 'RECIPIENT_NAME_INVALID'],
    call: async (name) => {
      const { workflow } = await createDraftWorkflow(t, owner);
      return t.request('POST', `/workflow/v1/${workflow.id}/recipients`, {
        token: owner.token,
        body: [recipientEntry({ name })],
      });
    },
  },
  // SPEC.md: a dispatch name is trimmed and whitespace-collapsed before the rule applies.
  'template dispatch name': {
    refusedAs: [400, 'INVALID_FIELD_VALUE'],
    collapsesSpaces: true,
    call: (name) =>
      t.request('POST', `/workflow/v1/templates/${templateId}/dispatch`, {
        token: owner.token,
        body: [{ recipientIndex: 1, name, emailAddress: guestEmail('dispatch') }],
      }),
  },
  delegation: {
    refusedAs: [400, 'RECIPIENT_NAME_INVALID'],
    call: async (name) => {
      const { workflow, rows } = await draftForSending(t, owner, { recipients: [{ name: 'Una Signer' }] });
      expect((await commence(t, owner, workflow.id)).status).toBe(200);
      return t.request('POST', `/workflow/v1/${workflow.id}/recipients/${rows[0].id}/delegate`, {
        token: owner.token,
        body: { name, emailAddress: guestEmail('delegate') },
      });
    },
  },
};

describe.each(Object.entries(RULES))('the %s rule', (_rule, { refusedAs, collapsesSpaces, call }) => {
  it.each(collapsesSpaces ? [...ACCEPTED, 'Ann  Lee'] : ACCEPTED)('accepts %s', async (name) => {
    const res = await call(name);
    expect(res.status, res.raw).toBeLessThan(300);
  });
  it.each(collapsesSpaces ? REFUSED.filter((name) => name !== 'Ann  Lee') : REFUSED)('refuses %s', async (name) => {
    const res = await call(name);
    expect([res.status, res.body.message], res.raw).toEqual(refusedAs);
  });
});

describe('one rule', () => {
  it("the web app checks names with the service's pattern", () => {
    expect(WEB_PATTERN).toBe(SERVICE_PATTERN);
  });

  it('the OpenAPI document gives the pattern for sign-up and invitations', async () => {
    const doc = (await t.request('GET', '/docs/json')).body;
    expect(
      doc.paths['/auth/v1/signup'].post.requestBody.content['application/json'].schema.properties.name.pattern,
    ).toBe(SERVICE_PATTERN);
  });
});
