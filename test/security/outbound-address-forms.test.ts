import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import { appBody } from '../business-apps/helpers.ts';
import { VALID_CONFIGURATIONS, createMailOwner } from '../mail-settings/helpers.ts';
import { canonicalAddress, checkAddress } from '../../src/platform/outbound/address-rules.ts';
import { createOutbound } from '../../src/platform/outbound/outbound.ts';

/**
 * Every textual form of a refused address is refused (issue item 8): the rules judge the canonical address, and an
 * IPv6 address that carries an IPv4 one (mapped, translated, compatible, NAT64, 6to4, Teredo) by that IPv4 address
 * too. Cloud metadata addresses are refused in every form even where private targets are allowed.
 */

type Verdict = 'METADATA' | 'PRIVATE' | 'PUBLIC';
/** [written form, canonical form, verdict]: METADATA refused always, PRIVATE refused unless OUTBOUND_ALLOW_PRIVATE, PUBLIC allowed. */
const FORMS: [string, string, Verdict][] = [
  // IPv4, every way a URL parser or the system resolver reads it.
  ['169.254.169.254', '169.254.169.254', 'METADATA'],
  ['2852039166', '169.254.169.254', 'METADATA'],
  ['0251.0376.0251.0376', '169.254.169.254', 'METADATA'],
  ['0xa9fea9fe', '169.254.169.254', 'METADATA'],
  ['0XA9FEA9FE', '169.254.169.254', 'METADATA'],
  ['0xa9.0xfe.0xa9.0xfe', '169.254.169.254', 'METADATA'],
  ['169.254.43518', '169.254.169.254', 'METADATA'],
  ['169.16689662', '169.254.169.254', 'METADATA'],
  ['0251.0xfe.43518', '169.254.169.254', 'METADATA'],
  ['169.254.169.254.', '169.254.169.254', 'METADATA'],
  [' 169.254.169.254 ', '169.254.169.254', 'METADATA'],
  ['100.100.100.200', '100.100.100.200', 'METADATA'],
  ['169.254.170.2', '169.254.170.2', 'METADATA'],
  // IPv6 forms carrying the metadata address.
  ['::ffff:169.254.169.254', '::ffff:a9fe:a9fe', 'METADATA'],
  ['::ffff:a9fe:a9fe', '::ffff:a9fe:a9fe', 'METADATA'],
  ['[::ffff:a9fe:a9fe]', '::ffff:a9fe:a9fe', 'METADATA'],
  ['::FFFF:A9FE:A9FE', '::ffff:a9fe:a9fe', 'METADATA'],
  ['0000:0000:0000:0000:0000:FFFF:A9FE:A9FE', '::ffff:a9fe:a9fe', 'METADATA'],
  ['::ffff:0:169.254.169.254', '::ffff:0:a9fe:a9fe', 'METADATA'],
  ['::ffff:0:a9fe:a9fe', '::ffff:0:a9fe:a9fe', 'METADATA'],
  ['::169.254.169.254', '::a9fe:a9fe', 'METADATA'],
  ['::a9fe:a9fe', '::a9fe:a9fe', 'METADATA'],
  ['64:ff9b::169.254.169.254', '64:ff9b::a9fe:a9fe', 'METADATA'],
  ['64:ff9b::a9fe:a9fe', '64:ff9b::a9fe:a9fe', 'METADATA'],
  ['0064:FF9B:0000:0000:0000:0000:A9FE:A9FE', '64:ff9b::a9fe:a9fe', 'METADATA'],
  ['64:ff9b:1::a9fe:a9fe', '64:ff9b:1::a9fe:a9fe', 'METADATA'],
  ['64:ff9b:1:a9fe:a9:fe00::', '64:ff9b:1:a9fe:a9:fe00::', 'METADATA'],
  ['64:ff9b:1:0:a9:fea9:fe00:0', '64:ff9b:1:0:a9:fea9:fe00:0', 'METADATA'],
  ['2002:a9fe:a9fe::', '2002:a9fe:a9fe::', 'METADATA'],
  ['2002:a9fe:a9fe:1::1', '2002:a9fe:a9fe:1::1', 'METADATA'],
  ['2001:0:4136:e378:8000:63bf:5601:5601', '2001:0:4136:e378:8000:63bf:5601:5601', 'METADATA'],
  ['2001:0000:4136:E378:8000:63BF:5601:5601', '2001:0:4136:e378:8000:63bf:5601:5601', 'METADATA'],
  ['::ffff:6464:64c8', '::ffff:6464:64c8', 'METADATA'],
  ['fd00:ec2::254', 'fd00:ec2::254', 'METADATA'],
  ['[FD00:0EC2:0000::0254]', 'fd00:ec2::254', 'METADATA'],
  // Private, loopback, link-local and reserved, in their forms.
  ['127.1', '127.0.0.1', 'PRIVATE'],
  ['0x7f.1', '127.0.0.1', 'PRIVATE'],
  ['2130706433', '127.0.0.1', 'PRIVATE'],
  ['017700000001', '127.0.0.1', 'PRIVATE'],
  ['0', '0.0.0.0', 'PRIVATE'],
  ['10.0.0.1', '10.0.0.1', 'PRIVATE'],
  ['012.0.0.1', '10.0.0.1', 'PRIVATE'],
  ['192.168.1.1', '192.168.1.1', 'PRIVATE'],
  ['3232235777', '192.168.1.1', 'PRIVATE'],
  ['100.64.0.1', '100.64.0.1', 'PRIVATE'],
  ['255.255.255.255', '255.255.255.255', 'PRIVATE'],
  ['::1', '::1', 'PRIVATE'],
  ['[::1]', '::1', 'PRIVATE'],
  ['0:0:0:0:0:0:0:1', '::1', 'PRIVATE'],
  ['::', '::', 'PRIVATE'],
  ['fe80::1%eth0', 'fe80::1', 'PRIVATE'],
  ['[fe80::1%25eth0]', 'fe80::1', 'PRIVATE'],
  ['FE80::1', 'fe80::1', 'PRIVATE'],
  ['fd12:3456::1', 'fd12:3456::1', 'PRIVATE'],
  ['fec0::1', 'fec0::1', 'PRIVATE'],
  ['2001:db8::1', '2001:db8::1', 'PRIVATE'],
  ['ff02::1', 'ff02::1', 'PRIVATE'],
  ['::ffff:127.0.0.1', '::ffff:7f00:1', 'PRIVATE'],
  ['::ffff:7f00:1', '::ffff:7f00:1', 'PRIVATE'],
  ['::ffff:0:7f00:1', '::ffff:0:7f00:1', 'PRIVATE'],
  ['::127.0.0.1', '::7f00:1', 'PRIVATE'],
  ['::10.1.2.3', '::a01:203', 'PRIVATE'],
  ['64:ff9b::7f00:1', '64:ff9b::7f00:1', 'PRIVATE'],
  ['64:ff9b::192.168.0.1', '64:ff9b::c0a8:1', 'PRIVATE'],
  ['64:ff9b:1::5db8:d822', '64:ff9b:1::5db8:d822', 'PRIVATE'],
  ['2002:7f00:1::', '2002:7f00:1::', 'PRIVATE'],
  ['2002:c0a8:101::1', '2002:c0a8:101::1', 'PRIVATE'],
  ['2001:0:4136:e378:8000:63bf:f5ff:fffe', '2001:0:4136:e378:8000:63bf:f5ff:fffe', 'PRIVATE'],
  ['2001:0:a00:1:8000:63bf:a247:27dd', '2001:0:a00:1:8000:63bf:a247:27dd', 'PRIVATE'],
  // Public addresses, including IPv6 forms carrying a public IPv4 address (DNS64, 6to4, Teredo).
  ['93.184.216.34', '93.184.216.34', 'PUBLIC'],
  ['1572395042', '93.184.216.34', 'PUBLIC'],
  ['0x5d.0xb8.0xd8.0x22', '93.184.216.34', 'PUBLIC'],
  ['2606:2800:220:1:248:1893:25c8:1946', '2606:2800:220:1:248:1893:25c8:1946', 'PUBLIC'],
  ['::ffff:93.184.216.34', '::ffff:5db8:d822', 'PUBLIC'],
  ['64:ff9b::93.184.216.34', '64:ff9b::5db8:d822', 'PUBLIC'],
  ['2002:5db8:d822::1', '2002:5db8:d822::1', 'PUBLIC'],
  ['2001:0:4136:e378:8000:63bf:a247:27dd', '2001:0:4136:e378:8000:63bf:a247:27dd', 'PUBLIC'],
];

/** Host names and malformed addresses: not an IP address in any form (a name is judged by what it resolves to). */
const NOT_ADDRESSES = [
  'example.com',
  'example.com.',
  '169.254.169.254.example.com',
  '1.2.3.09',
  '256.1.1.1',
  '1.2.3.4.5',
  '0x1g',
  ':::1',
  '1::2::3',
  '',
  '[]',
  '::ffff:1.2.3',
];

const METADATA_FORMS = FORMS.filter(([, , verdict]) => verdict === 'METADATA').map(([form]) => form);
const PRIVATE_FORMS = FORMS.filter(([, , verdict]) => verdict === 'PRIVATE').map(([form]) => form);

describe('the address normaliser', () => {
  it.each(FORMS)('reads %j as %s (%s)', (form, canonical, verdict) => {
    expect(canonicalAddress(form)).toBe(canonical);
    const strict = checkAddress(form, false);
    const lenient = checkAddress(form, true);
    expect(strict.allowed, JSON.stringify(strict)).toBe(verdict === 'PUBLIC');
    expect(lenient.allowed, JSON.stringify(lenient)).toBe(verdict !== 'METADATA');
    if (verdict === 'METADATA') expect(lenient).toMatchObject({ reason: expect.stringMatching(/cloud metadata/) });
  });

  it.each(NOT_ADDRESSES)('does not take %j for an address, and refuses it as one', (text) => {
    expect(canonicalAddress(text)).toBeNull();
    expect(checkAddress(text, true).allowed).toBe(false);
  });
});

/** Names the test resolver answers with one written form each; `*.forms.test` is the cloud-import allow-list. */
const NAMED_FORMS = [
  '::ffff:169.254.169.254',
  '::ffff:a9fe:a9fe',
  '::FFFF:A9FE:A9FE',
  '::ffff:0:a9fe:a9fe',
  '::a9fe:a9fe',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b:1::a9fe:a9fe',
  '2002:a9fe:a9fe::',
  '2001:0:4136:e378:8000:63bf:5601:5601',
  'fd00:ec2::254',
  '::ffff:6464:64c8',
  '::ffff:7f00:1',
  '::127.0.0.1',
  '64:ff9b::a00:1',
  '2002:7f00:1::',
  'fe80::1%eth0',
  '2130706433',
];
const nameOf = (index: number) => `n${index}.forms.test`;
const resolve = async (hostname: string) => {
  const index = Number(/^n(\d+)\.forms\.test$/.exec(hostname)?.[1] ?? NaN);
  if (!Number.isInteger(index) || !NAMED_FORMS[index]) throw new Error('ENOTFOUND');
  return [NAMED_FORMS[index]];
};

let strict: TestApp;
let lenient: TestApp;
let strictOwner: TestUser;
let lenientOwner: TestUser;

beforeAll(async () => {
  const config = { cloudImportAllowedHosts: ['*.forms.test'] };
  strict = await createTestApp(
    { ...config, outboundAllowPrivate: false },
    { outbound: createOutbound({ allowPrivate: false, resolve }) },
  );
  lenient = await createTestApp(
    { ...config, outboundAllowPrivate: true },
    { outbound: createOutbound({ allowPrivate: true, resolve }) },
  );
  strictOwner = await createMailOwner(strict);
  lenientOwner = await createMailOwner(lenient);
}, 60_000);
afterAll(async () => {
  await strict?.close();
  await lenient?.close();
});

/** A URL host for a written form: IPv6 in brackets (the URL parser canonicalises it; zone ids cannot be written in a URL). */
const urlHost = (form: string) => (form.includes(':') ? `[${form.replace(/^\[|\]$/g, '')}]` : form.trim());
const urlForms = (forms: string[]) => forms.filter((form) => !form.includes('%'));

/** Each form whose answer is not the expected one, with what came back; an empty list passes. */
async function unexpected(
  forms: string[],
  ask: (form: string) => Promise<{ status: number; body: any }>,
  expected: (res: { status: number; body: any }) => boolean,
) {
  const wrong: string[] = [];
  for (const form of forms) {
    const res = await ask(form);
    if (!expected(res))
      wrong.push(`${form} → ${res.status} ${res.body?.message ?? ''} ${res.body?.errorDescription ?? ''}`.trim());
  }
  return wrong;
}
const refusedWith = (message: string, description?: RegExp) => (res: { status: number; body: any }) =>
  res.status === 400 &&
  res.body.message === message &&
  (!description || description.test(res.body.errorDescription ?? ''));

describe('business app callback URLs (POST /organization/v1/apps)', () => {
  const register = (t: TestApp, owner: TestUser) => (form: string) =>
    t.request('POST', '/organization/v1/apps', {
      token: owner.token,
      body: appBody({ callbackUrl: `https://${urlHost(form)}/hooks` }),
    });

  it('refuses every form of a private or metadata address with 400 BUSINESS_APP_CALLBACK_REFUSED (OUTBOUND_ALLOW_PRIVATE false)', async () => {
    expect(
      await unexpected(
        urlForms([...METADATA_FORMS, ...PRIVATE_FORMS]),
        register(strict, strictOwner),
        refusedWith('BUSINESS_APP_CALLBACK_REFUSED', /refused address/),
      ),
    ).toEqual([]);
  });

  it('refuses local names with a trailing dot, as without', async () => {
    expect(
      await unexpected(
        ['localhost.', 'LOCALHOST.', 'hooks.localhost.'],
        register(strict, strictOwner),
        refusedWith('BUSINESS_APP_CALLBACK_REFUSED'),
      ),
    ).toEqual([]);
  });

  it('refuses every form of a metadata address even with OUTBOUND_ALLOW_PRIVATE, and accepts the private ones there', async () => {
    expect(
      await unexpected(
        urlForms(METADATA_FORMS),
        register(lenient, lenientOwner),
        refusedWith('BUSINESS_APP_CALLBACK_REFUSED', /cloud metadata/),
      ),
    ).toEqual([]);
    expect(
      await unexpected(
        ['::ffff:7f00:1', '64:ff9b::a00:1', '2130706433', '127.1'],
        register(lenient, lenientOwner),
        (res) => res.status === 200,
      ),
    ).toEqual([]);
  });

  it('accepts public addresses in their IPv6 forms', async () => {
    const publicForms = FORMS.filter(([, , verdict]) => verdict === 'PUBLIC').map(([form]) => form);
    expect(await unexpected(urlForms(publicForms), register(strict, strictOwner), (res) => res.status === 200)).toEqual(
      [],
    );
  });
});

describe('cloud import of a name the resolver answers in another form (GET /document/v1/cloud-import/box)', () => {
  const importName = (t: TestApp, owner: TestUser) => (form: string) =>
    t.request(
      'GET',
      `/document/v1/cloud-import/box?link=${encodeURIComponent(`https://${nameOf(NAMED_FORMS.indexOf(form))}/doc.pdf`)}`,
      { token: owner.token },
    );

  it('refuses each resolved form before connecting: 400 CLOUD_IMPORT_LINK_REFUSED (OUTBOUND_ALLOW_PRIVATE false)', async () => {
    expect(
      await unexpected(
        NAMED_FORMS,
        importName(strict, strictOwner),
        refusedWith('CLOUD_IMPORT_LINK_REFUSED', /refused address/),
      ),
    ).toEqual([]);
  });

  it('refuses the resolved metadata forms even with OUTBOUND_ALLOW_PRIVATE', async () => {
    const metadataForms = NAMED_FORMS.filter((form) =>
      FORMS.some(([written, , verdict]) => written === form && verdict === 'METADATA'),
    );
    expect(metadataForms).toHaveLength(11);
    expect(
      await unexpected(
        metadataForms,
        importName(lenient, lenientOwner),
        refusedWith('CLOUD_IMPORT_LINK_REFUSED', /cloud metadata/),
      ),
    ).toEqual([]);
  });
});

describe('organization SMTP server (PUT /organization/v1/email-settings)', () => {
  const put = (t: TestApp, owner: TestUser) => (server: string) =>
    t.request('PUT', '/organization/v1/email-settings', {
      token: owner.token,
      body: {
        emailMode: 'ORG_MANAGED',
        provider: 'SMTP',
        configurations: { ...VALID_CONFIGURATIONS.SMTP, SMTP_SERVER: server },
      },
    });
  const SMTP_FORMS = [
    '2852039166',
    '0251.0376.0251.0376',
    '0xa9fea9fe',
    '169.254.43518',
    '127.1',
    '0x7f.1',
    '2130706433',
    '[::a9fe:a9fe]',
    '::ffff:a9fe:a9fe',
    '64:ff9b::7f00:1',
    '2002:a9fe:a9fe::',
    'fe80::1%eth0',
    '[::ffff:0:7f00:1]',
    '2001:0:4136:e378:8000:63bf:5601:5601',
  ];

  it('refuses each written form of a private or metadata address: 400 MAIL_SETTINGS_INVALID naming SMTP_SERVER', async () => {
    expect(
      await unexpected(
        SMTP_FORMS,
        put(strict, strictOwner),
        (res) =>
          refusedWith('MAIL_SETTINGS_INVALID', /SMTP_SERVER/)(res) &&
          res.body.responseBody?.keys?.[0] === 'SMTP_SERVER',
      ),
    ).toEqual([]);
  });

  it('will not connect to a server written in those forms either (POST /organization/v1/email-settings/test: step CONFIG)', async () => {
    const owner = await createMailOwner(strict);
    const probe = (server: string) =>
      strict.request('POST', '/organization/v1/email-settings/test', {
        token: owner.token,
        body: {
          provider: 'SMTP',
          configurations: { ...VALID_CONFIGURATIONS.SMTP, SMTP_SERVER: server },
          testRecipient: 'ann@example.com',
        },
      });
    const forms = [
      '2852039166',
      '0x7f.1',
      '127.1',
      '[::a9fe:a9fe]',
      '::ffff:0:7f00:1',
      '2002:7f00:1::',
      '64:ff9b:1::a9fe:a9fe',
      '2001:0:4136:e378:8000:63bf:f5ff:fffe',
    ];
    expect(
      await unexpected(
        forms,
        probe,
        (res) =>
          res.status === 200 &&
          res.body.success === false &&
          res.body.step === 'CONFIG' &&
          /refused address/.test(res.body.message),
      ),
    ).toEqual([]);
  });

  it('refuses the metadata forms even with OUTBOUND_ALLOW_PRIVATE, and saves a private one there', async () => {
    const metadataForms = [
      '2852039166',
      '0xa9.0xfe.0xa9.0xfe',
      '[::ffff:a9fe:a9fe]',
      '64:ff9b::a9fe:a9fe',
      '2002:a9fe:a9fe::',
      '::ffff:6464:64c8',
    ];
    expect(
      await unexpected(
        metadataForms,
        put(lenient, lenientOwner),
        refusedWith('MAIL_SETTINGS_INVALID', /cloud metadata/),
      ),
    ).toEqual([]);
    expect((await put(lenient, lenientOwner)('127.1')).status).toBe(200);
  });
});
