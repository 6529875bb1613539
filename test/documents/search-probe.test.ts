import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { searchList } from '../../src/modules/documents/document-list.repo.ts';
import {
  createSearchProbes,
  likeTrigrams,
  probeChoice,
  probeOptions,
  type TrigramStats,
} from '../../src/modules/documents/search-probe.ts';
import { SEARCH_WALK_LIMIT, walksEntries } from '../../src/modules/documents/document-list.repo.ts';

let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t);
  // 400 workflows of one owner that all say "Agreement", as in bench/document-list.ts (the list's read model follows by trigger).
  await t.platform.db.execute(sql`insert into workflows (owner_user_id, organization_id, name, sequence, sign_type, status)
    select ${owner.userId}, ${owner.organizationId}, case when g % 100 = 0 then 'Lease ' else 'Agreement ' end || g, 'UNORDERED', 'COUNTERSIGN', 'DRAFT'
    from generate_series(1, 400) g`);
});
afterAll(async () => {
  await t?.close();
});

/** Stats as if `common` trigrams were in every one of 100,000 names and every other trigram in 0.3% of them. */
function statsWith(common: string[]): TrigramStats {
  class Shares extends Map<string, number> {
    override get(trigram: string) {
      return super.get(trigram) ?? 0.003;
    }
  }
  return { names: 100_000, sampled: 10_000, share: new Shares(common.map((trigram) => [trigram, 1])) };
}
const AGREEMENT = likeTrigrams('agreement');

describe('search probes: which part of a term the trigram index is asked for', () => {
  it("reads a like pattern's trigrams as pg_trgm does: words padded where a separator in the probe bounds them", () => {
    expect(likeTrigrams('54321')).toEqual(['543', '432', '321']);
    expect(likeTrigrams(' 54321')).toEqual(['  5', ' 54', '543', '432', '321']);
    expect(likeTrigrams('agreement 54321').sort()).toEqual(
      ['agr', 'gre', 'ree', 'eem', 'eme', 'men', 'ent', 'nt ', '  5', ' 54', '543', '432', '321'].sort(),
    );
    expect(likeTrigrams('ab')).toEqual([]);
    expect(likeTrigrams(' 1')).toEqual(['  1']);
  });

  it('every trigram of a probe is among the trigrams pg_trgm indexes for a name containing it', async () => {
    const cases: [string, string][] = [
      ['Agreement 54321', 'agreement 54321'],
      ['Agreement 54321', ' 54321'],
      ['Contract-2025/final', '-2025/'],
      ['file_v2 (copy)', '_v2 ('],
      ['Office Lease 2025', 'lease '],
      ['ÉTÉ lease', ' lease'],
    ];
    for (const [name, probe] of cases) {
      const { rows } = await t.platform.db.execute(sql`select show_trgm(lower(${name})) as trigrams`);
      const indexed = new Set((rows[0] as { trigrams: string[] }).trigrams);
      for (const trigram of likeTrigrams(probe))
        expect(indexed.has(trigram), `${JSON.stringify(trigram)} of ${JSON.stringify(probe)} in ${name}`).toBe(true);
    }
  });

  it("walks a caller's few hundred entries unless the index is cheaper for the term, and never many thousands", () => {
    const stats = statsWith(AGREEMENT.concat('nt '));
    const rare = probeChoice('agreement 54321', stats);
    const common = probeChoice('agreement', stats);
    expect(rare.probe).toBe('54321');
    // 260 entries (the bench's spread layout): the rare word's few candidates cost less than walking them all.
    expect(walksEntries(260, SEARCH_WALK_LIMIT, rare.cost)).toBe(false);
    expect(walksEntries(260, SEARCH_WALK_LIMIT, common.cost)).toBe(true);
    // No stats yet: walk, as before the estimate existed.
    expect(walksEntries(260, SEARCH_WALK_LIMIT, undefined)).toBe(true);
    expect(walksEntries(SEARCH_WALK_LIMIT + 1, SEARCH_WALK_LIMIT, common.cost)).toBe(false);
  });

  it("offers the term's ASCII words, alone and with the separator beside them, never the term itself", () => {
    expect(probeOptions('agreement 54321').sort()).toEqual(['agreement', 'agreement ', '54321', ' 54321'].sort());
    // A non-ASCII letter is part of a word, not a separator: "ller" is never padded on its left.
    expect(probeOptions('müller 54321').sort()).toEqual(['m', 'ller', 'ller ', '54321', ' 54321'].sort());
    expect(probeOptions('lease')).toEqual([]);
  });

  it('asks for a rare word instead of a term whose other words are in every name, and for the term when nothing is markedly cheaper', () => {
    const stats = statsWith(AGREEMENT.concat('nt '));
    expect(probeChoice('agreement 54321', stats).probe).toBe('54321');
    expect(probeChoice('Agreement 54321', stats).probe).toBe('54321');
    expect(probeChoice('54321 agreement', stats).probe).toBe('54321');
    expect(probeChoice('agreement', stats).probe).toBeUndefined();
    expect(probeChoice('lease 2025', statsWith([])).probe).toBeUndefined();
    // Both rare words cost about the same; either is fine, the common one is not.
    expect(['ller', '54321']).toContain(probeChoice('müller agreement 54321', stats).probe);
    expect(probeChoice('été', stats).probe).toBeUndefined();
    // A probe without a trigram would read the whole index: never chosen.
    expect(probeChoice('agreement 7', stats).probe).not.toBe('7');
  });

  it('reads the stats from the database; the probe finds exactly what the whole term finds, on the index and over HTTP', async () => {
    const probes = createSearchProbes(t.platform.db);
    expect(probes.estimate('agreement 123')).toBeUndefined(); // no stats yet: the whole term, and a read starts
    await probes.refresh();
    const probe = probes.estimate('agreement 123')?.probe;
    expect(probe).toBeDefined();
    expect(probe).not.toMatch(/agreement/);
    expect('agreement 123').toContain(probe!.toLowerCase());
    for (const search of ['agreement 123', 'Agreement 12', 'lease 300', 'AGREEMENT 4', 'agreement 401', 'ease 1']) {
      const criteria = { userId: owner.userId, filter: {}, search };
      const whole = await searchList(t.platform.db, criteria, 50, 0, -1);
      for (const searchProbe of [probes.estimate(search)?.probe, ...probeOptions(search)]) {
        const probed = await searchList(t.platform.db, { ...criteria, searchProbe }, 50, 0, -1);
        expect({ total: probed.total, ids: probed.ids }, `${search} via ${searchProbe}`).toEqual({
          total: whole.total,
          ids: whole.ids,
        });
      }
    }
    const res = await t.request('GET', '/document/v1?searchValue=agreement%20123', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.content.map((item: { name: string }) => item.name)).toEqual(['Agreement 123']);
  });

  it('samples names from the whole table, not the newest: newer names unlike the older ones do not mislead the choice', async () => {
    await t.platform.db.execute(sql`insert into workflows (owner_user_id, organization_id, name, sequence, sign_type, status)
      select ${owner.userId}, ${owner.organizationId}, 'Incoming ' || g, 'UNORDERED', 'COUNTERSIGN', 'DRAFT' from generate_series(1, 150) g`);
    const probes = createSearchProbes(t.platform.db, { sampleNames: 150 });
    await probes.refresh();
    // The 150 newest are all "Incoming": drawn from them alone, "agreement" looked rare and nothing was chosen.
    const probe = probes.estimate('agreement 123')?.probe;
    expect(probe).toBeDefined();
    expect(probe).not.toMatch(/agreement/);
  });
});
