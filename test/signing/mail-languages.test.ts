import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { draftWithRecipients, saveAll, tokenFromMail, waitForSeal } from '../helpers/ceremony.ts';
import { commence, draftForSending, guestFromMail, onlyMail, otpFromMail, recipientRow } from '../helpers/signing.ts';
import { addMember, createRole } from '../organizations/org-helpers.ts';
import { createReminderService } from '../../src/modules/reminders/reminders.service.ts';
import { createSigningCodes, loadSigningCodeKey } from '../../src/modules/signing/signing-codes.ts';

/**
 * docs/mail-and-webhooks.md "Mail languages": the mails a recipient gets follow the sender's locale setting, else the organization
 * owner's, else English; dates as the language writes them.
 */

async function setLocale(t: TestApp, user: TestUser, locale: string) {
  const res = await t.request('PUT', '/user/v1/settings/locale', { token: user.token, body: { locale } });
  expect(res.status, res.raw).toBe(200);
}

const GERMAN_DATE =
  /\d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4}/;

describe('mail languages', () => {
  test('a German sender: the invitation, the copy, the reminder and the completion mail are German', async ({
    app: t,
  }) => {
    const sender = await createUser(t, { name: 'Greta Gruber' });
    await setLocale(t, sender, 'de-AT');
    const { workflow, document, parties, fieldIds } = await draftWithRecipients(t, sender, {
      sequence: 'UNORDERED',
      recipients: [
        { name: 'Sam Signer', fields: [{ fieldType: 'SIGNATURE' }] },
        { name: 'Carla Copy', role: 'CC' },
      ],
    });
    const [signer, copy] = parties;
    const reminder = await t.request('PUT', `/workflow/v1/${workflow.id}/reminder`, {
      token: sender.token,
      body: { enabled: true, offsetMinutes: 30 },
    });
    expect(reminder.status, reminder.raw).toBe(200);
    await commence(t, sender, workflow.id, { title: 'Mietvertrag <2026>', message: 'Bitte bis Freitag.' });

    const invitation = await onlyMail(t, signer.user.email, 'COMMENCE');
    expect(invitation.subject).toBe('Mietvertrag <2026>');
    expect(invitation.textBody).toMatch(
      /^Guten Tag Sam Signer,\n\nGreta Gruber hat Ihnen „Test agreement“ zur Unterschrift gesendet\./,
    );
    expect(invitation.textBody).toContain('Nachricht von Greta Gruber:\nBitte bis Freitag.');
    expect(invitation.textBody).toContain('Dokument öffnen: ');
    expect(invitation.textBody).toMatch(new RegExp(`Sie können ihn bis zum ${GERMAN_DATE.source} verwenden\\.`));
    expect(invitation.htmlBody).toContain('<p>Guten Tag Sam Signer,</p>');
    expect(invitation.htmlBody).toContain('>Dokument öffnen</a>');
    expect(invitation.textBody).not.toMatch(/Hello|Open the document|has sent you/);

    const copied = await onlyMail(t, copy.user.email, 'CC_NOTIFICATION');
    expect(copied.subject).toBe('Kopie: Mietvertrag <2026>');
    expect(copied.textBody).toContain('hat „Test agreement“ zur Unterschrift versendet und Sie in Kopie gesetzt');
    // The title is escaped in HTML as every value is.
    expect(copied.htmlBody).not.toContain('<2026>');

    const reminders = createReminderService({
      db: t.platform.db,
      outbox: t.platform.outbox,
      codes: createSigningCodes(loadSigningCodeKey(t.config.dataDir)),
      publicUrl: t.config.publicUrl,
    });
    const dispatchedAt = (await recipientRow(t, signer.row.id)).dispatchedAt!;
    expect(await reminders.runReminderSweep(new Date(dispatchedAt.getTime() + 31 * 60_000))).toEqual({ sent: 1 });
    const reminded = await onlyMail(t, signer.user.email, 'REMINDER');
    expect(reminded.subject).toBe('Erinnerung: Mietvertrag <2026>');
    expect(reminded.textBody).toContain('Greta Gruber wartet noch darauf, dass Sie „Test agreement“ unterschreiben.');
    expect(reminded.textBody).toContain('betrachten Sie diese Nachricht bitte als gegenstandslos');

    const token = await tokenFromMail(t, signer.user.email, 'REMINDER');
    expect((await saveAll(t, token, document.id, fieldIds[0])).status).toBe(200);
    expect((await waitForSeal(t, workflow.id)).sealStatus).toBe('SEALED');
    for (const to of [signer.user.email, sender.email]) {
      const completed = await onlyMail(t, to, 'COMPLETED');
      expect(completed.subject).toBe('Abgeschlossen: Mietvertrag <2026>');
      expect(completed.textBody).toContain(
        'Alle Beteiligten haben „Test agreement“ abgeschlossen. Das unterzeichnete Dokument ist mit dem elektronischen Siegel der Plattform versiegelt:',
      );
      expect(completed.textBody).toContain('Die versiegelte PDF-Datei ist dieser E-Mail angehängt.');
    }
  });

  test('a German sender voids: the recipients reached read why in German; a decline tells the sender in German', async ({
    app: t,
  }) => {
    const sender = await createUser(t, { name: 'Greta Gruber' });
    await setLocale(t, sender, 'de');
    const voided = await draftForSending(t, sender, { recipients: [{ name: 'Vera Void' }] });
    expect((await commence(t, sender, voided.workflow.id)).status).toBe(200);
    const res = await t.request('POST', `/workflow/v1/${voided.workflow.id}/void`, {
      token: sender.token,
      body: { reason: 'Falscher Anhang.' },
    });
    expect(res.status, res.raw).toBe(200);
    const told = await onlyMail(t, voided.rows[0].email, 'VOIDED');
    expect(told.subject).toBe('Storniert: Test agreement');
    expect(told.textBody).toBe(
      [
        'Guten Tag Vera Void,',
        'Greta Gruber hat „Test agreement“ storniert: Falscher Anhang.',
        'Der Umschlag wurde storniert. Sie müssen nichts weiter tun.',
        '-- \nSignature Service',
      ].join('\n\n'),
    );

    const declined = await draftForSending(t, sender, {
      recipients: [{ name: 'Dora Decline' }, { name: 'Otto Other' }],
    });
    expect((await commence(t, sender, declined.workflow.id)).status).toBe(200);
    const dora = await guestFromMail(t, declined.rows[0].email);
    const decline = await t.request('POST', `/workflow/v1/${declined.workflow.id}/decline`, {
      token: dora.token,
      body: { reason: 'Die Beträge stimmen nicht.' },
    });
    expect(decline.status, decline.raw).toBe(200);
    const toSender = (await t.mails({ to: sender.email, kind: 'DECLINED' })).at(-1)!;
    expect(toSender.subject).toBe('Abgelehnt: Test agreement');
    expect(toSender.textBody).toContain('Angegebener Grund:\nDie Beträge stimmen nicht.');
    const toOther = await onlyMail(t, declined.rows[1].email, 'VOIDED');
    expect(toOther.textBody).toContain('Dora Decline hat „Test agreement“ abgelehnt.');
  });

  test('a sender who never chose a language (the default en) mails in English', async ({ app: t, owner }) => {
    const { workflow, rows } = await draftForSending(t, owner, { recipients: [{ name: 'Eve English' }] });
    expect((await commence(t, owner, workflow.id)).status).toBe(200);
    const mail = await onlyMail(t, rows[0].email, 'COMMENCE');
    expect(mail.textBody).toMatch(/^Hello Eve English,\n\nOlga Owner has sent you "Test agreement" to sign\./);
    expect(mail.textBody).toMatch(/It can be used until \d{1,2} [A-Z][a-z]+ \d{4}\./);
  });

  test("a member who set no locale, or one naming no mail language, writes in the organization owner's; the member's own wins", async ({
    app: t,
  }) => {
    const owner = await createUser(t, { name: 'Françoise Faure' });
    await setLocale(t, owner, 'fr-FR');
    const role = await createRole(t, owner);
    const member = await addMember(t, owner, role.id, 'Sven Svensson');
    await setLocale(t, member, 'sv-SE');
    const first = await draftForSending(t, member, { recipients: [{ name: 'Paul Petit', role: 'APPROVER' }] });
    const sent = await commence(t, member, first.workflow.id);
    expect(sent.status, sent.raw).toBe(200);
    const french = await onlyMail(t, first.rows[0].email, 'COMMENCE');
    expect(french.subject).toBe('Test agreement');
    expect(french.textBody).toMatch(
      /^Bonjour Paul Petit,\n\nSven Svensson vous a envoyé «\u00a0Test agreement\u00a0» pour examen et approbation\./,
    );
    expect(french.textBody).toMatch(/Il est valable jusqu’au \d{1,2} [a-zéû]+ \d{4}\./);
    expect(french.textBody).toContain('Ouvrir le document\u00a0: http');

    // A member who never chose a language (no locale set) writes in the organization owner's too.
    const unset = await addMember(t, owner, role.id, 'Noor Nieuw');
    const third = await draftForSending(t, unset, { recipients: [{ name: 'Lucie Lenoir' }] });
    expect((await commence(t, unset, third.workflow.id)).status).toBe(200);
    expect((await onlyMail(t, third.rows[0].email, 'COMMENCE')).textBody).toMatch(
      /^Bonjour Lucie Lenoir,\n\nNoor Nieuw vous a envoyé «\u00a0Test agreement\u00a0» pour signature\./,
    );
    const profile = await t.request('GET', '/user/v1/settings/locale', { token: unset.token });
    expect(profile.body).toEqual({ locale: 'en' });

    await setLocale(t, member, 'pl');
    const second = await draftForSending(t, member, { recipients: [{ name: 'Piotr Nowak', enforceIdentity: true }] });
    expect((await commence(t, member, second.workflow.id)).status).toBe(200);
    const polish = await onlyMail(t, second.rows[0].email, 'COMMENCE');
    expect(polish.textBody).toMatch(/^Dzień dobry,\n\nSven Svensson przesyła dokument „Test agreement” do podpisu\./);
    expect(polish.textBody).toMatch(/Można z niego korzystać do \d{1,2} [a-ząćęłńóśźż]+ \d{4}\./);

    // The one-time code: Polish, with the count in the form Polish gives 10 ("10 minut").
    const piotr = await guestFromMail(t, second.rows[0].email);
    const sendOtp = await t.request('POST', `/workflow/v1/${second.workflow.id}/identity/send-otp`, {
      token: piotr.token,
    });
    expect(sendOtp.status, sendOtp.raw).toBe(200);
    const otp = await onlyMail(t, second.rows[0].email, 'OTP');
    expect(otp.subject).toBe('Kod weryfikacyjny do dokumentu „Test agreement”');
    expect(otp.textBody).toContain(`Kod weryfikacyjny: ${otpFromMail(otp)}`);
    expect(otp.textBody).toContain('Kod jest ważny przez 10 minut.');
  });
});
