import type { DbOrTx } from '../../platform/db/client.ts';
import { ROW_COST, sampleNameTrigrams } from './document-list.repo.ts';

/**
 * How often a trigram occurs among workflow names, as the trigram index sees them (pg_trgm's show_trgm of lower(name)):
 * `share` is the fraction of sampled names holding each trigram, `names` the number of workflows the index covers.
 */
export type TrigramStats = { names: number; sampled: number; share: Map<string, number> };

/** The part to ask the index for (undefined: the whole term) and what asking costs, in postings (probeCost). */
export type ProbeChoice = { probe?: string; cost: number };

/** One candidate workflow the index answers: its row fetched and rechecked, its list entry probed (ROW_COST postings). */
const CANDIDATE_COST = ROW_COST;

/**
 * The trigrams pg_trgm asks its index for when it serves `like '%probe%'` (probe lower-case ASCII): each run of letters
 * and digits, padded with two spaces in front and one behind where a separator in the probe bounds it (a wildcard
 * bounds nothing), cut into every three characters. Non-ASCII runs are read the same way; their trigrams are unknown
 * to the stats (show_trgm prints them hashed) and so count as rare.
 */
export function likeTrigrams(probe: string): string[] {
  const found = new Set<string>();
  for (const match of probe.matchAll(/[\p{L}\p{N}]+/gu)) {
    const start = match.index;
    const end = start + match[0].length;
    const padded = `${start > 0 ? '  ' : ''}${match[0]}${end < probe.length ? ' ' : ''}`;
    const chars = [...padded];
    for (let i = 0; i + 3 <= chars.length; i += 1) found.add(chars.slice(i, i + 3).join(''));
  }
  return [...found];
}

/**
 * The estimated cost of asking the index for `like '%probe%'`: every posting of its trigrams is read (PostgreSQL's GIN
 * bitmap scan reads a trigram held by every name in full, bench/document-list.ts), and each candidate row, estimated
 * from the two rarest trigrams (neither independent nor the same), is fetched and rechecked. Infinity when the probe
 * has no trigram: then the index would be read whole.
 */
export function probeCost(probe: string, stats: TrigramStats): number {
  const shares = likeTrigrams(probe)
    .map((trigram) => stats.share.get(trigram) ?? 0)
    .sort((a, b) => a - b);
  if (shares.length === 0) return Infinity;
  const postings = shares.reduce((sum, share) => sum + share, 0) * stats.names;
  const candidates = stats.names * shares[0] * Math.sqrt(shares[1] ?? 1);
  return postings + CANDIDATE_COST * candidates;
}

/**
 * Parts of a search term that may stand in for it in the index condition: each run of ASCII letters and digits, alone
 * and with the ASCII separator before and/or after it. Each is a substring of the term, and lower() of ASCII text is
 * the same character by character in every locale, so a name containing lower(term) contains lower(probe): the
 * probe's matches hold all the term's, and the term itself is checked on each.
 */
export function probeOptions(term: string): string[] {
  const options = new Set<string>();
  for (const match of term.matchAll(/[A-Za-z0-9]+/g)) {
    const start = match.index;
    const end = start + match[0].length;
    const before = start > 0 && /^[\x20-\x7e]$/.test(term[start - 1]) ? term[start - 1] : '';
    const after = end < term.length && /^[\x20-\x7e]$/.test(term[end]) ? term[end] : '';
    options.add(match[0]);
    if (before) options.add(before + match[0]);
    if (after) options.add(match[0] + after);
    if (before && after) options.add(before + match[0] + after);
  }
  options.delete(term);
  return [...options];
}

/**
 * The part of `term` to ask the trigram index for, when one is markedly cheaper than the whole term; undefined to ask
 * for the term itself. "agreement 54321" over 100,000 names that all say "Agreement": the whole term reads the
 * postings of agreement's eight trigrams (2.4 ms), "54321" those of three rare ones (0.04 ms).
 */
export function probeChoice(term: string, stats: TrigramStats): ProbeChoice {
  let best: string | undefined;
  let bestCost = probeCost(term.toLowerCase(), stats);
  for (const option of probeOptions(term)) {
    const cost = probeCost(option.toLowerCase(), stats);
    // Markedly: an estimate that is only a little lower is not worth a plan that differs from the term's.
    if (cost * 2 < bestCost) {
      best = option;
      bestCost = cost;
    }
  }
  return { probe: best, cost: bestCost };
}

/**
 * Names sampled for the stats (drawn at random), and how long the stats are trusted before they are read again.
 * 2,000 tell a trigram held by most names from a rare one, which is all the choice needs; on the embedded database
 * the read runs in this process.
 */
const SAMPLE_NAMES = 2_000;
const STATS_MAX_AGE_MS = 10 * 60_000;

/**
 * Trigram stats for choosing search probes, read from sampled names now and then, in the background: a search never
 * waits for them, and until they are read (or if reading fails) searches ask the index for the whole term, as before.
 */
export function createSearchProbes(db: DbOrTx, options: { sampleNames?: number } = {}) {
  const sampleNames = options.sampleNames ?? SAMPLE_NAMES;
  let stats: TrigramStats | undefined;
  let readAt = -Infinity;
  let reading: Promise<void> | undefined;

  function refresh(): Promise<void> {
    reading ??= sampleNameTrigrams(db, sampleNames)
      .then((read) => {
        stats = read;
      })
      .catch(() => {
        /* keep the previous stats (or none); the next search after maxAge tries again */
      })
      .finally(() => {
        readAt = performance.now();
        reading = undefined;
      });
    return reading;
  }

  /**
   * The probe for a search term and the index's estimated cost (undefined: no stats yet, the whole term); starts a read
   * of the stats when they are missing or old.
   */
  function estimate(term: string): ProbeChoice | undefined {
    if (performance.now() - readAt > STATS_MAX_AGE_MS) void refresh();
    return stats ? probeChoice(term, stats) : undefined;
  }

  return { estimate, refresh };
}
