import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { freePort } from '../helpers/free-port.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { startSmtpPeer } from '../mail-settings/provider-servers.ts';
import { DESKTOP, expectNoAxeViolations, launchBrowser, openPage, screenshot } from './browser.ts';
import { signInThrough } from './workspace-kit.ts';

/**
 * Members, invitations and roles through the organization screens, with the platform's mail going to a real SMTP
 * peer: a role made with its permission checkboxes, a registered user invited (the invitation arrives at the peer),
 * accepting, what that member then sees (only the sections the role allows, refusals shown with the API's
 * message), role change and quota renewal by the owner, and the ownership transfer.
 */
let t: TestApp;
let baseUrl: string;
let browser: Browser;
let peer: Awaited<ReturnType<typeof startSmtpPeer>>;
let owner: TestUser;

beforeAll(async () => {
  peer = await startSmtpPeer({ user: 'platform', password: 'smtp secret' });
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    publicUrl: baseUrl,
    smtpUrl: `smtp://platform:${encodeURIComponent('smtp secret')}@127.0.0.1:${peer.port}`,
    mailFrom: 'platform@example.com',
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await launchBrowser();
  owner = await createUser(t, { name: 'Olga Owner' });
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await peer?.close();
});

async function status(page: Page, text: string | RegExp) {
  await expect
    .poll(() => page.getByRole('status').allTextContents(), { timeout: 15_000 })
    .toContainEqual(expect.stringMatching(text));
}

async function mailAtPeer(to: string): Promise<string> {
  await t.drainJobs();
  let found: string | undefined;
  await expect
    .poll(
      () => {
        found = peer.received.find((m) => m.to.includes(to))?.raw;
        return Boolean(found);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return found!;
}

const ORG_NAME = "Olga Owner's organization";

// A loaded machine makes each browser step slow: the steps of one test get several minutes.
describe('the organization screens in Chromium: members and roles', { timeout: 300_000 }, () => {
  let mia: TestUser;

  it('the owner makes a role with its permission checkboxes and edits it', async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, '/organization');
      await page.waitForURL(`${baseUrl}/organization/members`);
      const sections = page.getByRole('navigation', { name: 'Organization sections' });
      for (const name of [
        'Members',
        'Roles',
        'Billing',
        'Branding',
        'Mail settings',
        'Business apps',
        'Webhook deliveries',
      ]) {
        await sections.getByRole('link', { name, exact: true }).waitFor();
      }
      await expectNoAxeViolations(page, 'members of a new organization');
      await sections.getByRole('link', { name: 'Roles' }).click();
      await page.getByRole('heading', { level: 2, name: 'Roles' }).waitFor();
      await page.getByRole('button', { name: 'New role' }).click();
      const dialog = page.getByRole('dialog', { name: 'New role' });
      await dialog.waitFor();
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Template editors');
      await dialog.getByLabel('Description').fill('Write and send templates');
      await dialog.getByRole('checkbox', { name: 'Add Templates' }).check();
      await dialog.getByRole('checkbox', { name: 'View Members' }).check();
      // Editing without viewing makes no sense: checking Edit checks View too.
      await dialog.getByRole('checkbox', { name: 'Edit Branding' }).check();
      expect(await dialog.getByRole('checkbox', { name: 'View Branding' }).isChecked()).toBe(true);
      await dialog.getByRole('checkbox', { name: 'View Branding' }).uncheck();
      expect(await dialog.getByRole('checkbox', { name: 'Edit Branding' }).isChecked()).toBe(false);
      await expectNoAxeViolations(page, 'role editor');
      await screenshot(page, 'organization-01-role-editor');
      await dialog.getByRole('button', { name: 'Create role' }).click();
      await status(page, 'Role Template editors created.');
      await page.getByRole('rowheader', { name: 'Template editors' }).waitFor();

      // A second role with the same name is refused by the API; its sentence shows in the dialog.
      await page.getByRole('button', { name: 'New role' }).click();
      await page
        .getByRole('dialog', { name: 'New role' })
        .getByRole('textbox', { name: 'Name', exact: true })
        .fill('template EDITORS');
      await page.getByRole('dialog', { name: 'New role' }).getByRole('button', { name: 'Create role' }).click();
      await expect
        .poll(() => page.getByRole('dialog', { name: 'New role' }).getByRole('alert').textContent())
        .toBeTruthy();
      await page.getByRole('dialog', { name: 'New role' }).getByRole('button', { name: 'Cancel' }).click();

      await page.getByRole('button', { name: 'Edit role Template editors' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit role Template editors' });
      await edit.getByLabel('Electronic signatures until renewed').fill('25');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await status(page, 'Role Template editors saved.');
      const roleSearch = page.getByRole('search');
      await roleSearch.getByLabel('Search roles by name or description').fill('no such role');
      await roleSearch.getByRole('button', { name: 'Search' }).click();
      await expect.poll(() => page.getByRole('rowheader', { name: 'Template editors' }).count()).toBe(0);
      await roleSearch.getByLabel('Search roles by name or description').fill('EDITORS');
      await roleSearch.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('rowheader', { name: 'Template editors' }).waitFor();

      const roles = (await t.request('GET', '/user/v1/roles', { token: owner.token })).body.content as any[];
      const role = roles.find((r) => r.name === 'Template editors');
      expect(role.description).toBe('Write and send templates');
      expect(role.signatureSettings.quotaElectronic).toBe(25);
      expect([...role.permissions].sort((a: any, b: any) => a.moduleName.localeCompare(b.moduleName))).toEqual([
        { moduleName: 'TEMPLATES', accessRights: { canView: true, canAdd: true, canEdit: false, canDelete: false } },
        { moduleName: 'USERS', accessRights: { canView: true, canAdd: false, canEdit: false, canDelete: false } },
      ]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the owner invites a registered user (mailed through the SMTP peer) and someone without an account', async () => {
    mia = await createUser(t, { name: 'Mia Member' });
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, '/organization/members');
      await page.getByRole('button', { name: 'Invite member' }).click();
      const dialog = page.getByRole('dialog', { name: 'Invite a member' });
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Mia 2');
      await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill('not an email');
      await dialog.getByRole('button', { name: 'Send invitation' }).click();
      await dialog.getByText('Enter a valid email address.').waitFor();
      expect(await dialog.getByRole('textbox', { name: 'Name', exact: true }).getAttribute('aria-invalid')).toBe(
        'true',
      );
      await expectNoAxeViolations(page, 'invite with errors');
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Mia Member');
      await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill(mia.email);
      await dialog.getByLabel('Role').selectOption({ label: 'Template editors' });
      await dialog.getByRole('button', { name: 'Send invitation' }).click();
      await status(page, `Invitation sent to ${mia.email}.`);
      const row = page.getByRole('row', { name: /Mia Member/ });
      await expect.poll(() => row.textContent()).toContain('Invited');
      expect(await mailAtPeer(mia.email)).toContain('Olga Owner');

      // Inviting the same person again: 409, the API's sentence in the dialog.
      await page.getByRole('button', { name: 'Invite member' }).click();
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Mia Member');
      await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill(mia.email);
      await dialog.getByRole('button', { name: 'Send invitation' }).click();
      await expect.poll(() => dialog.getByRole('alert').textContent()).toMatch(/already been invited/);
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      await page.getByRole('button', { name: 'Invite member' }).click();
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Nina Newcomer');
      await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill('nina.newcomer@example.com');
      await dialog.getByRole('button', { name: 'Send invitation' }).click();
      await status(page, 'Invitation sent to nina.newcomer@example.com.');
      expect(await mailAtPeer('nina.newcomer@example.com')).toMatch(/\/invite\//);
      await expectNoAxeViolations(page, 'members with invitations');
      await screenshot(page, 'organization-02-members');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("the invitee accepts in the app and then sees only what the role allows; refusals show the API's message", async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, mia, '/organization');
      const invitation = page.getByRole('region', { name: 'Invitations for you' });
      await invitation.waitFor();
      await expectNoAxeViolations(page, 'pending invitation');
      await invitation.getByRole('button', { name: `Accept invitation to ${ORG_NAME}` }).click();
      await status(page, `You joined ${ORG_NAME}. Sign out and in again to work in it.`);
      await page.getByRole('navigation', { name: 'Account' }).getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/organization'));
      await signInThrough(page, baseUrl, mia, '/organization/members');

      const sections = page.getByRole('navigation', { name: 'Organization sections' });
      await sections.getByRole('link', { name: 'Members' }).waitFor();
      expect(await sections.getByRole('link').allTextContents()).toEqual(['Members']);
      await page.getByRole('row', { name: /Olga Owner/ }).waitFor();
      // Changing members is the owner's alone (SPEC.md "Permission rules"): a member reads the list, with no actions.
      expect(await page.getByRole('button', { name: 'Invite member' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Change role of Nina Newcomer' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Renew quota of / }).count()).toBe(0);
      await expectNoAxeViolations(page, 'member reads the members');
      await screenshot(page, 'organization-03-member-reads');

      // A section the role does not allow, opened by its address: the API's refusal, no navigation entry.
      await page.goto(`${baseUrl}/organization/roles`);
      await page.getByText('Your role does not grant canView on ROLES').waitFor();
      await expectNoAxeViolations(page, 'section refused');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the owner changes the role, renews the quota, withdraws an invitation and transfers the ownership', async () => {
    const reviewers = await t.request('POST', '/user/v1/roles', {
      token: owner.token,
      body: {
        name: 'Reviewers',
        signatureSettings: {
          allowSignElectronic: true,
          allowSignAdvanced: false,
          allowSignQualified: false,
          allowDocSend: false,
          allowDocUseTemplates: true,
          quotaElectronic: 5,
          quotaAdvanced: 0,
          quotaQualified: 0,
        },
      },
    });
    expect(reviewers.status).toBe(200);
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, '/organization/members');
      // The search applies when submitted: only the matching member stays; an empty search shows everyone again.
      await page.getByRole('row', { name: /Nina Newcomer/ }).waitFor();
      const search = page.getByRole('search').getByLabel('Search members by name or email');
      await search.fill('  mia ');
      await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
      await expect.poll(() => page.getByRole('row', { name: /Nina Newcomer/ }).count()).toBe(0);
      await page.getByRole('row', { name: /Mia Member/ }).waitFor();
      await search.fill('');
      await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
      await page.getByRole('row', { name: /Nina Newcomer/ }).waitFor();
      await page.getByRole('button', { name: 'Change role of Mia Member' }).click();
      const roleDialog = page.getByRole('dialog', { name: 'Change the role of Mia Member' });
      await roleDialog.getByLabel('Role').selectOption({ label: 'Reviewers' });
      await roleDialog.getByRole('button', { name: 'Save role' }).click();
      await status(page, 'Mia Member now has the role Reviewers.');

      await page.getByRole('button', { name: 'Renew quota of Mia Member' }).click();
      const renew = page.getByRole('dialog', { name: 'Renew the signature quota of Mia Member?' });
      await expectNoAxeViolations(page, 'renew quota dialog');
      await renew.getByRole('button', { name: 'Renew quota' }).click();
      await status(page, 'The quota of Mia Member was renewed.');

      await page.getByRole('button', { name: 'Withdraw invitation of Nina Newcomer' }).click();
      await page
        .getByRole('dialog', { name: 'Withdraw the invitation of Nina Newcomer?' })
        .getByRole('button', { name: 'Withdraw invitation' })
        .click();
      await status(page, 'The invitation of Nina Newcomer was withdrawn.');
      await expect.poll(() => page.getByRole('row', { name: /Nina Newcomer/ }).count()).toBe(0);

      await page.getByRole('button', { name: 'Make Mia Member the owner' }).click();
      const transfer = page.getByRole('dialog', { name: 'Make Mia Member the owner?' });
      await transfer.getByRole('button', { name: 'Transfer ownership' }).click();
      await transfer.getByText("Type the organization's name.").waitFor();
      await transfer.getByLabel("Type the organization's name to confirm").fill('Some other organization');
      await transfer.getByRole('button', { name: 'Transfer ownership' }).click();
      await expect.poll(() => transfer.getByRole('alert').textContent()).toBeTruthy();
      await expectNoAxeViolations(page, 'transfer refused');
      await screenshot(page, 'organization-04-transfer');
      await transfer.getByLabel("Type the organization's name to confirm").fill(ORG_NAME);
      await transfer.getByRole('button', { name: 'Transfer ownership' }).click();
      // The page reloads: the former owner, now a member without a role, sees no section.
      await page
        .getByText('Your role in this organization gives you no access to its settings.')
        .waitFor({ timeout: 30_000 })
        .catch(async (error: Error) => {
          await screenshot(page, 'organization-debug');
          throw error;
        });
      await expectNoAxeViolations(page, 'former owner');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
    const members = await t.request('GET', '/organization/v1/users', { token: await createUserToken(mia) });
    expect(members.status).toBe(200);
    expect(members.body.content.find((m: any) => m.isOwner).emailAddress).toBe(mia.email);
  });
});

/** A fresh token for `user` in the organization it now acts in (after accepting an invitation, the inviting one). */
async function createUserToken(user: TestUser): Promise<string> {
  const res = await t.request('POST', '/auth/v1/signin', {
    body: { grant_type: 'PASSWORD', username: user.email, password: user.password },
  });
  expect(res.status, res.raw).toBe(200);
  return res.body.accessToken;
}
