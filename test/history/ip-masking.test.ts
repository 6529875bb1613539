import { describe, expect } from 'vitest';
import { test as base } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser } from '../helpers/factories.ts';
import { draftForSending, linkFromMail } from '../helpers/signing.ts';
import { pngDataUrl } from '../helpers/ceremony.ts';
import { storedFields } from '../helpers/recipients.ts';
import { pdfText } from '../helpers/pdf-text.ts';

/**
 * Issue 7 item 11 (history half): a participant other than the owner sees IP addresses and user agents only
 * on its own rows, in the history JSON and in the evidence report; the owner sees all of them.
 */
const test = base.override({ ownerName: 'Olivia Owner' });

const OWNER = { ip: '10.0.0.1', agent: 'OwnerAgent/1.0' };
const ANNA = { ip: '10.0.0.11', agent: 'AnnaAgent/2.0' };
const BEN = { ip: '10.0.0.22', agent: 'BenAgent/3.0' };

/** A request from a given address and user agent (the test app's `request` always comes from 127.0.0.1). */
async function from(
  t: TestApp,
  origin: { ip: string; agent: string },
  method: 'GET' | 'POST',
  url: string,
  token?: string,
  body?: unknown,
) {
  const response = await t.app.inject({
    method,
    url,
    remoteAddress: origin.ip,
    headers: {
      'user-agent': origin.agent,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = String(response.headers['content-type'] ?? '').includes('application/json');
  return { status: response.statusCode, body: json ? response.json() : response.body, raw: response.body };
}

async function guestSession(t: TestApp, origin: { ip: string; agent: string }, email: string): Promise<string> {
  const [mail] = await t.mails({ to: email, kind: 'COMMENCE' });
  const res = await from(t, origin, 'GET', `/auth/v1/getGuestToken/${linkFromMail(t, mail).code}`);
  expect(res.status, res.raw).toBe(200);
  return res.body.accessToken;
}

async function signAll(
  t: TestApp,
  origin: { ip: string; agent: string },
  token: string,
  workflowId: number,
  fieldId: number,
) {
  const res = await from(t, origin, 'POST', `/workflow/v1/${workflowId}/sign`, token, {
    id: fieldId,
    image: pngDataUrl(),
  });
  expect(res.status, res.raw).toBe(200);
  return res.body;
}

describe('IP addresses and user agents in history', () => {
  test('shows a recipient only its own, the owner all, in the history and the evidence report', async ({
    app: t,
    owner,
  }) => {
    const { workflow, rows } = await draftForSending(t, owner, {
      recipients: [{ name: 'Anna Able' }, { name: 'Ben Baker' }],
    });
    const [anna, ben] = rows;
    expect((await from(t, OWNER, 'POST', `/workflow/v1/${workflow.id}/commence`, owner.token, {})).status).toBe(200);
    const annaToken = await guestSession(t, ANNA, anna.email);
    const benToken = await guestSession(t, BEN, ben.email);
    const fields = await storedFields(t, workflow.id);
    await signAll(t, ANNA, annaToken, workflow.id, fields.find((f) => f.recipientId === anna.id)!.id);

    const ownerView = (await from(t, OWNER, 'GET', `/workflow/v1/${workflow.id}/history`, owner.token)).body;
    const benView = (await from(t, BEN, 'GET', `/workflow/v1/${workflow.id}/history`, benToken)).body;
    expect(ownerView.activities.map((a: any) => a.action)).toEqual(benView.activities.map((a: any) => a.action));

    const addressesOf = (view: any) => view.activities.map((a: any) => `${a.action}:${a.userName}:${a.ipAddress}`);
    expect(addressesOf(ownerView)).toEqual(
      expect.arrayContaining([
        `Sent:Olivia Owner:${OWNER.ip}`,
        `Opened:Anna Able:${ANNA.ip}`,
        `Opened:Ben Baker:${BEN.ip}`,
        `Signed:Anna Able:${ANNA.ip}`,
      ]),
    );
    expect(addressesOf(benView)).toEqual(
      expect.arrayContaining([
        'Sent:Olivia Owner:',
        'Opened:Anna Able:',
        `Opened:Ben Baker:${BEN.ip}`,
        'Signed:Anna Able:',
      ]),
    );
    expect(JSON.stringify(benView)).not.toContain(ANNA.ip);
    expect(JSON.stringify(benView)).not.toContain(ANNA.agent);

    // Anna's consent: whole for the owner and for Anna, without network details for Ben.
    const consentOf = (view: any) => view.activities.find((a: any) => a.consent !== null).consent;
    expect(consentOf(ownerView)).toMatchObject({
      recipientName: 'Anna Able',
      ipAddress: ANNA.ip,
      userAgent: ANNA.agent,
    });
    const annaView = (await from(t, ANNA, 'GET', `/workflow/v1/${workflow.id}/history`, annaToken)).body;
    expect(consentOf(annaView)).toMatchObject({ ipAddress: ANNA.ip, userAgent: ANNA.agent });
    expect(addressesOf(annaView)).toEqual(expect.arrayContaining(['Opened:Ben Baker:', `Signed:Anna Able:${ANNA.ip}`]));
    const benSeesConsent = consentOf(benView);
    expect(benSeesConsent).toMatchObject({ recipientName: 'Anna Able', textHash: consentOf(ownerView).textHash });
    expect(benSeesConsent).not.toHaveProperty('ipAddress');
    expect(benSeesConsent).not.toHaveProperty('userAgent');

    // The evidence report (once COMPLETED) follows the same rule; its chain verdict is computed on the stored rows.
    await signAll(t, BEN, benToken, workflow.id, fields.find((f) => f.recipientId === ben.id)!.id);
    const ownerReport = await from(t, OWNER, 'GET', `/workflow/v1/evidence-report/${workflow.id}`, owner.token);
    const benReport = await from(t, BEN, 'GET', `/workflow/v1/evidence-report/${workflow.id}`, benToken);
    expect(ownerReport.status).toBe(200);
    expect(benReport.status).toBe(200);
    for (const value of [OWNER.ip, ANNA.ip, BEN.ip, ANNA.agent, BEN.agent]) expect(ownerReport.raw).toContain(value);
    for (const value of [BEN.ip, BEN.agent]) expect(benReport.raw).toContain(value);
    for (const value of [OWNER.ip, ANNA.ip, ANNA.agent, OWNER.agent]) expect(benReport.raw).not.toContain(value);
    expect(benReport.raw).toContain('INTACT');
    expect(ownerReport.raw).toContain('INTACT');

    // The certificate of completion (alone or in the zip) lists IP addresses too: same rule.
    const certificateText = async (origin: typeof OWNER, token: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/document/v1/download/${workflow.id}?selectedOption=downloadCoc`,
        remoteAddress: origin.ip,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      return pdfText(res.rawPayload);
    };
    const ownerCertificate = await certificateText(OWNER, owner.token);
    const benCertificate = await certificateText(BEN, benToken);
    for (const value of [ANNA.ip, BEN.ip]) expect(ownerCertificate).toContain(value);
    expect(benCertificate).toContain(BEN.ip);
    expect(benCertificate).not.toContain(ANNA.ip);
  });

  test('applies to a registered recipient reading with its own account', async ({ app: t, owner }) => {
    const member = await createUser(t, { name: 'Rita Registered' });
    const { workflow } = await draftForSending(t, owner, {
      recipients: [{ name: 'Anna Able' }, { name: 'Rita Registered', email: member.email }],
    });
    expect((await from(t, OWNER, 'POST', `/workflow/v1/${workflow.id}/commence`, owner.token, {})).status).toBe(200);
    const [annaRow] = (await t.mails({ kind: 'COMMENCE' })).filter(
      (m) => m.workflowId === workflow.id && m.toAddress !== member.email,
    );
    await guestSession(t, ANNA, annaRow.toAddress);
    const view = (await from(t, BEN, 'GET', `/workflow/v1/${workflow.id}/history`, member.token)).body;
    expect(view.activities.map((a: any) => a.action)).toContain('Opened');
    expect(JSON.stringify(view)).not.toContain(ANNA.ip);
    expect(JSON.stringify(view)).not.toContain(OWNER.ip);
  });
});
