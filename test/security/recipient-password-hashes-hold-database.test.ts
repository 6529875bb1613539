import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RECIPIENT_PASSWORDS_PER_CALL } from '../../src/modules/recipients/recipients.schemas.ts';
import { createDraftWorkflow, createUser, type TestUser } from '../helpers/factories.ts';
import { listen, whileProbingHealth } from '../helpers/health-probe.ts';
import { addRecipients, recipientEntry, storedRecipients } from '../helpers/recipients.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTemplate } from '../templates/template-helpers.ts';

/*
 * The attack: any account adds 1,000 recipients to its own draft, each with recipientPassword 'p'. Every password was
 * hashed with argon2id (about 110 ms) inside the transaction that holds the workflow's row lock, about 110 s in all; on
 * the embedded database that transaction is the only session, so every other request (the health check, other users)
 * waited for it. Template apply and dispatch hashed the overrides' passwords the same way. Now the passwords are hashed
 * before the transaction, and one call carries at most MAX_RECIPIENT_PASSWORDS_PER_CALL of them (else 400
 * RECIPIENT_PASSWORD_LIMIT at once).
 */
const ANSWER_BOUND_MS = 1000;
/**
 * While 50 passwords are hashed (on the pool's threads, of a machine that may be busy with other work): before the fix
 * the health check waited 2.9 s for those 50 hashes here, and longer on a busier machine.
 */
const HASHING_BOUND_MS = 2000;
/** A refused call: at once, against the two minutes the attack took (the measured time includes the bystander's request). */
const REFUSAL_BOUND_MS = 3000;

let t: TestApp;
let base: string;
let attacker: TestUser;
let bystander: TestUser;
let bystanderWorkflowId: number;

beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t);
  attacker = await createUser(t, { name: 'Mallory Attacker' });
  bystander = await createUser(t, { name: 'Betty Bystander' });
  bystanderWorkflowId = (await createDraftWorkflow(t, bystander)).workflow.id;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

function withPasswords(count: number) {
  return Array.from({ length: count }, () => recipientEntry({ recipientPassword: 'p' }));
}

/**
 * Runs `attack` while the health check is probed, and asks one request of another user once the attack is under way:
 * answers the attack's result, the slowest health answer and how long the other user's request took.
 */
async function duringAttack<T>(attack: () => Promise<T>) {
  let bystanderMs = Number.NaN;
  const probed = await whileProbingHealth(base, async () => {
    const running = attack();
    await sleep(300);
    const started = performance.now();
    const other = await t.request('GET', `/workflow/v1/${bystanderWorkflowId}/recipients`, { token: bystander.token });
    bystanderMs = performance.now() - started;
    expect(other.status).toBe(200);
    return running;
  });
  return { ...probed, bystanderMs };
}

describe('recipient passwords are hashed outside the transaction, and capped per call', () => {
  it('POST with 1,000 password-bearing recipients is refused at once (400 RECIPIENT_PASSWORD_LIMIT); nobody waits', async () => {
    const { workflow } = await createDraftWorkflow(t, attacker);
    const {
      result: res,
      slowestHealthMs,
      bystanderMs,
      elapsedMs,
    } = await duringAttack(() =>
      t.request('POST', `/workflow/v1/${workflow.id}/recipients`, { token: attacker.token, body: withPasswords(1000) }),
    );
    expect(res.status, res.raw.slice(0, 300)).toBe(400);
    expect(res.body.message).toBe('RECIPIENT_PASSWORD_LIMIT');
    expect(res.body.responseBody).toMatchObject({ limit: MAX_RECIPIENT_PASSWORDS_PER_CALL, given: 1000 });
    expect(elapsedMs).toBeLessThan(REFUSAL_BOUND_MS);
    expect(slowestHealthMs).toBeLessThan(ANSWER_BOUND_MS);
    expect(bystanderMs).toBeLessThan(ANSWER_BOUND_MS);
    expect(await storedRecipients(t, workflow.id)).toEqual([]);
  }, 30_000);

  it(`POST with ${MAX_RECIPIENT_PASSWORDS_PER_CALL} password-bearing recipients (the cap) succeeds while the health check and another user answer quickly`, async () => {
    const { workflow } = await createDraftWorkflow(t, attacker);
    const {
      result: res,
      slowestHealthMs,
      bystanderMs,
    } = await duringAttack(() =>
      t.request('POST', `/workflow/v1/${workflow.id}/recipients`, {
        token: attacker.token,
        body: withPasswords(MAX_RECIPIENT_PASSWORDS_PER_CALL),
      }),
    );
    expect(res.status, res.raw.slice(0, 300)).toBe(200);
    expect(slowestHealthMs).toBeLessThan(HASHING_BOUND_MS);
    expect(bystanderMs).toBeLessThan(HASHING_BOUND_MS);
    const rows = await storedRecipients(t, workflow.id);
    expect(rows).toHaveLength(MAX_RECIPIENT_PASSWORDS_PER_CALL);
    expect(rows.every((row) => row.passwordHash?.startsWith('$argon2id$'))).toBe(true);
    // Recipients without a password cost no hash and are not capped by it.
    expect(
      (
        await t.request('POST', `/workflow/v1/${workflow.id}/recipients`, {
          token: attacker.token,
          body: Array.from({ length: 200 }, () => recipientEntry()),
        })
      ).status,
    ).toBe(200);
  }, 60_000);

  it('PUT that sets more passwords than the cap is refused at once and changes nothing', async () => {
    const { workflow } = await createDraftWorkflow(t, attacker);
    const rows = await addRecipients(
      t,
      attacker.token,
      workflow.id,
      Array.from({ length: 200 }, () => recipientEntry()),
    );
    const body = rows.map((row) =>
      recipientEntry({ id: row.id, name: row.name, emailAddress: row.emailAddress, recipientPassword: 'p' }),
    );
    const {
      result: res,
      slowestHealthMs,
      elapsedMs,
    } = await duringAttack(() =>
      t.request('PUT', `/workflow/v1/${workflow.id}/recipients`, { token: attacker.token, body }),
    );
    expect(res.status, res.raw.slice(0, 300)).toBe(400);
    expect(res.body.message).toBe('RECIPIENT_PASSWORD_LIMIT');
    expect(elapsedMs).toBeLessThan(REFUSAL_BOUND_MS);
    expect(slowestHealthMs).toBeLessThan(ANSWER_BOUND_MS);
    expect((await storedRecipients(t, workflow.id)).every((row) => row.passwordHash === null)).toBe(true);
  }, 30_000);

  it('template apply with a password for each of 60 slots is refused at once; nobody waits', async () => {
    const { workflow } = await createDraftWorkflow(t, attacker);
    await addRecipients(
      t,
      attacker.token,
      workflow.id,
      Array.from({ length: 60 }, () => recipientEntry()),
    );
    const template = await createTemplate(t, attacker.token, { name: 'Sixty slots', workflowId: workflow.id });
    const overrides = Array.from({ length: 60 }, (_, i) => ({ recipientPassword: `p${i}` }));
    const {
      result: res,
      slowestHealthMs,
      bystanderMs,
      elapsedMs,
    } = await duringAttack(() =>
      t.request('POST', `/workflow/v1/templates/${template.id}/apply`, { token: attacker.token, body: overrides }),
    );
    expect(res.status, res.raw.slice(0, 300)).toBe(400);
    expect(res.body.message).toBe('RECIPIENT_PASSWORD_LIMIT');
    expect(elapsedMs).toBeLessThan(REFUSAL_BOUND_MS);
    expect(slowestHealthMs).toBeLessThan(ANSWER_BOUND_MS);
    expect(bystanderMs).toBeLessThan(ANSWER_BOUND_MS);

    // Under the cap the passwords are hashed before the transaction: the others still answer quickly.
    const under = await duringAttack(() =>
      t.request('POST', `/workflow/v1/templates/${template.id}/apply`, {
        token: attacker.token,
        body: overrides.slice(0, MAX_RECIPIENT_PASSWORDS_PER_CALL),
      }),
    );
    expect(under.result.status, under.result.raw.slice(0, 300)).toBe(200);
    expect(under.slowestHealthMs).toBeLessThan(HASHING_BOUND_MS);
    expect(under.bystanderMs).toBeLessThan(HASHING_BOUND_MS);
    const made = await storedRecipients(t, under.result.body.id);
    expect(made.filter((row) => row.passwordHash?.startsWith('$argon2id$'))).toHaveLength(
      MAX_RECIPIENT_PASSWORDS_PER_CALL,
    );
  }, 60_000);
});
