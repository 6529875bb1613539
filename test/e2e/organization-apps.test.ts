import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { businessApps, webhookDeliveries } from '../../src/platform/db/schema/index.ts';
import { freePort } from '../helpers/free-port.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { startHttpsServer, type HttpsTestServer } from '../helpers/https-server.ts';
import { createOutbound } from '../../src/platform/outbound/outbound.ts';
import { clientSignin, registerApp } from '../business-apps/helpers.ts';
import { DESKTOP, expectNoAxeViolations, launchBrowser, openPage, screenshot, sendEnvelope } from './browser.ts';
import { signInThrough } from './workspace-kit.ts';

/**
 * Business apps and webhook deliveries through the organization screens: registering shows the client secret and
 * the webhook secret once (copy buttons, gone after a reload), the secret works for client credentials, an app is
 * disabled and enabled again, and the webhooks of a sent envelope, delivered to a real https receiver, are listed,
 * inspected and redelivered. An app whose receiver failed for 24 hours shows as paused, with what to do, and is
 * resumed from the apps screen.
 */
let t: TestApp;
let baseUrl: string;
let browser: Browser;
let receiver: HttpsTestServer;
let owner: TestUser;
const received: { path: string; eventId: string }[] = [];
/** Paths whose receiver answers 500. */
const down = new Set<string>();

function answer(req: IncomingMessage, res: ServerResponse) {
  req.resume();
  req.on('end', () => {
    received.push({ path: req.url ?? '/', eventId: String(req.headers['x-event-id'] ?? '') });
    res.writeHead(down.has(req.url ?? '/') ? 500 : 204).end();
  });
}

beforeAll(async () => {
  receiver = await startHttpsServer(['hooks.example.test'], answer);
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp(
    { publicUrl: baseUrl, outboundAllowPrivate: true },
    {
      outbound: createOutbound({
        allowPrivate: true,
        ca: [receiver.certificate],
        resolve: async (host) => (host === 'hooks.example.test' ? ['127.0.0.1'] : []),
      }),
    },
  );
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await launchBrowser();
  owner = await createUser(t, { name: 'Paul Partner' });
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await receiver?.close();
});

async function status(page: Page, text: string | RegExp) {
  await expect
    .poll(() => page.getByRole('status').allTextContents(), { timeout: 15_000 })
    .toContainEqual(expect.stringMatching(text));
}

describe('the organization screens in Chromium: business apps and webhooks', { timeout: 300_000 }, () => {
  it('registering shows both secrets once with copy buttons; the client secret signs the app in; disable and enable', async () => {
    const { page, problems, close } = await openPage(browser, DESKTOP);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    try {
      await signInThrough(page, baseUrl, owner, '/organization/apps');
      await page.getByText('No business apps yet.').waitFor();
      await page.getByRole('button', { name: 'Register app' }).click();
      const dialog = page.getByRole('dialog', { name: 'Register a business app' });
      await dialog.getByRole('textbox', { name: 'App name' }).fill('Partner CRM');
      await dialog.getByRole('textbox', { name: 'Client ID' }).fill('partner-crm');
      await dialog.getByRole('textbox', { name: 'Webhook URL' }).fill('http://hooks.example.test/hook');
      await dialog.getByRole('button', { name: 'Register' }).click();
      // Not https: refused before the call, on the field.
      await expect
        .poll(() => dialog.locator('.ws-field-error').allTextContents())
        .toContainEqual(expect.stringContaining('An https address'));
      // The API refuses an address it may never reach (cloud metadata): its sentence on the field.
      await dialog.getByRole('textbox', { name: 'Webhook URL' }).fill('https://169.254.169.254/hook');
      await dialog.getByRole('button', { name: 'Register' }).click();
      await expect
        .poll(() => dialog.locator('.ws-field-error').allTextContents())
        .toContainEqual(expect.stringMatching(/refused address/));
      await expectNoAxeViolations(page, 'register refused');
      await dialog
        .getByRole('textbox', { name: 'Webhook URL' })
        .fill(`https://hooks.example.test:${receiver.port}/hook`);
      await dialog.getByRole('button', { name: 'Register' }).click();

      const secrets = page.getByRole('region', { name: 'Secrets of Partner CRM' });
      await secrets.waitFor();
      const clientSecret = await secrets.getByRole('textbox', { name: 'Client secret' }).inputValue();
      const webhookSecret = await secrets.getByRole('textbox', { name: 'Webhook secret' }).inputValue();
      expect(clientSecret.length).toBeGreaterThan(20);
      expect(webhookSecret.length).toBeGreaterThan(20);
      await secrets.getByRole('button', { name: 'Copy client secret' }).click();
      await secrets.getByText('Client secret copied to the clipboard.').waitFor();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(clientSecret);
      await secrets.getByRole('button', { name: 'Copy webhook secret' }).click();
      await secrets.getByText('Webhook secret copied to the clipboard.').waitFor();
      await expectNoAxeViolations(page, 'secrets shown');
      await screenshot(page, 'organization-20-app-secrets');

      const signedIn = await clientSignin(t, { clientId: 'partner-crm', clientSecret }, owner.email);
      expect(signedIn.status, signedIn.raw).toBe(200);

      await secrets.getByRole('button', { name: 'I have saved the secrets' }).click();
      await status(page, 'The secrets are hidden now and cannot be shown again.');
      expect(await page.getByRole('region', { name: 'Secrets of Partner CRM' }).count()).toBe(0);
      await page.reload();
      await page.getByRole('rowheader', { name: 'Partner CRM' }).waitFor();
      expect(await page.content()).not.toContain(clientSecret);
      expect(await page.content()).not.toContain(webhookSecret);

      await page.getByRole('button', { name: 'Disable Partner CRM' }).click();
      await status(page, /Partner CRM is disabled/);
      expect((await clientSignin(t, { clientId: 'partner-crm', clientSecret }, owner.email)).status).not.toBe(200);
      await page.getByRole('button', { name: 'Enable Partner CRM' }).click();
      await status(page, 'Partner CRM is enabled.');
      await expectNoAxeViolations(page, 'apps list');
      await screenshot(page, 'organization-21-apps');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('webhook deliveries of a sent envelope: listed, the body inspected, one redelivered to the receiver', async () => {
    await sendEnvelope(t, owner, {
      title: 'Hooked agreement',
      recipients: [
        { name: 'Hugo Hooked', email: 'hugo@example.com', fields: [{ fieldType: 'SIGNATURE', label: 'Signature' }] },
      ],
    });
    await t.drainJobs();
    await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, '/organization/webhooks');
      const row = page.getByRole('row', { name: /Sent/ }).first();
      await row.waitFor();
      await expect.poll(() => row.textContent()).toContain('Delivered');
      await expectNoAxeViolations(page, 'webhook deliveries');
      await screenshot(page, 'organization-22-webhooks');

      const detailsButton = row.getByRole('button', { name: /^Details of delivery/ });
      await detailsButton.click();
      const dialog = page.getByRole('dialog', { name: /^Webhook delivery \d+$/ });
      await dialog.getByText('"type": "workflow.sent"').waitFor();
      await expectNoAxeViolations(page, 'delivery details');
      await dialog.getByRole('button', { name: 'Close' }).click();

      const before = received.length;
      await row.getByRole('button', { name: /^Redeliver delivery/ }).click();
      await status(page, /Sent event sent again \(delivery \d+\)\./);
      await t.drainJobs();
      await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(before);
      expect(received.filter((r) => r.eventId === received.at(-1)!.eventId).length).toBeGreaterThanOrEqual(2);
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page
        .getByText(/^Redelivery of \d+$/)
        .first()
        .waitFor();
      await expectNoAxeViolations(page, 'after redelivery');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('an app whose webhooks failed for a day shows as paused, with what to do; resuming sends the held deliveries', async () => {
    down.add('/down');
    const app = await registerApp(t, owner.token, {
      appName: 'Down CRM',
      callbackUrl: `https://hooks.example.test:${receiver.port}/down`,
    });
    await sendEnvelope(t, owner, {
      title: 'Held agreement',
      recipients: [
        { name: 'Hanna Held', email: 'hanna@example.com', fields: [{ fieldType: 'SIGNATURE', label: 'Signature' }] },
      ],
    });
    const [row] = await t.platform.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.appId, app.id));
    await expect
      .poll(
        async () =>
          (await t.platform.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, row.id)))[0].attempts,
        { timeout: 30_000 },
      )
      .toBe(1);
    // A day of failures, simulated: the next failure pauses the app.
    await t.platform.db
      .update(businessApps)
      .set({ callbackFailingSince: new Date(Date.now() - 25 * 3600 * 1000) })
      .where(eq(businessApps.id, app.id));
    await t.platform.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date() })
      .where(eq(webhookDeliveries.id, row.id));
    await expect
      .poll(
        async () =>
          (await t.platform.db.select().from(businessApps).where(eq(businessApps.id, app.id)))[0].callbackPausedAt,
        { timeout: 30_000 },
      )
      .not.toBeNull();

    const { page, problems, close } = await openPage(browser, DESKTOP);
    try {
      await signInThrough(page, baseUrl, owner, '/organization/apps');
      const notice = page.getByRole('region', { name: 'Webhooks to Down CRM are paused' });
      await notice.waitFor();
      await expect.poll(() => notice.textContent()).toMatch(/failed since .*held.*resume/s);
      await expect.poll(() => page.getByRole('row', { name: /Down CRM/ }).textContent()).toContain('Webhooks paused');
      await expectNoAxeViolations(page, 'apps with a paused app');
      await screenshot(page, 'organization-23-apps-paused');

      await notice.getByRole('link', { name: 'See the webhook deliveries' }).click();
      await page.getByText('Webhooks paused for Down CRM.', { exact: false }).waitFor();
      await page.getByLabel('Status').selectOption('PAUSED');
      const held = page.getByRole('row', { name: /Down CRM/ }).first();
      await expect.poll(() => held.textContent()).toContain("Held: the app's webhooks are paused");
      await expectNoAxeViolations(page, 'paused deliveries');
      await screenshot(page, 'organization-24-webhooks-paused');

      down.delete('/down');
      await page.goto(`${baseUrl}/organization/apps`);
      await notice.getByRole('button', { name: 'Resume webhooks to Down CRM' }).click();
      await status(page, 'Webhooks to Down CRM resumed: the held deliveries are being sent.');
      expect(await page.getByRole('region', { name: 'Webhooks to Down CRM are paused' }).count()).toBe(0);
      await expect
        .poll(
          async () =>
            (await t.platform.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, row.id)))[0].status,
          { timeout: 30_000 },
        )
        .toBe('DELIVERED');
      await expectNoAxeViolations(page, 'apps resumed');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
