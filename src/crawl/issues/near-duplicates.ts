// near_duplicate_content without comparing every pair (docs/audit-issues.md): each candidate
// page's 64-value MinHash signature is cut into LSH bands; pages sharing a band's values share a
// bucket, and only pages met in a bucket are compared. A candidate pair is first estimated from
// the signatures, then confirmed by the exact Jaccard similarity of the two pages' shingle sets
// (recomputed from the stored text of the candidates alone).
//
// Bands: 10 bands of 6 values (60 of the 64). A pair of similarity s shares some band with
// probability 1 − (1 − s⁶)¹⁰: 0.9995 at s = 0.90, 0.71 at 0.70, 0.15 at 0.50, 0.007 at 0.30, so
// pages under the threshold rarely become candidates and pages over it are hardly ever missed.

import { jaccard, signatureSimilarity } from '../../analysis/shingles.js';

export const NEAR_DUPLICATE_THRESHOLD = 0.9;
const BANDS = 10;
const ROWS = 6;
/** Members of a bucket a page is compared with (the first ones): a bucket of 10,000 alike pages stays linear. */
const PER_BUCKET = 8;
/** Below this signature estimate a pair is not worth an exact comparison (0.90 estimates as ≥ 0.75 with ~99.9 % certainty). */
const ESTIMATE_FLOOR = 0.75;
/** Exact comparisons tried per page, best estimates first. */
const TRIES = 3;

export interface NearDuplicateCandidate {
  url: string;
  /** Pages with the same visible text are one candidate: the first stands for all (textHash). */
  textHash: string;
  signature: Uint32Array;
}

export interface NearDuplicatePlan {
  /** For each representative page, the others to try, best estimate first. */
  tries: Map<string, string[]>;
  /** Every URL whose shingle set the confirmation needs. */
  urls: Set<string>;
}

/** Which pairs to confirm: linear in the candidates (a bounded number of comparisons each). */
export function planNearDuplicates(candidates: readonly NearDuplicateCandidate[]): NearDuplicatePlan {
  // One representative per exact text: exact duplicates are duplicate_content's.
  const reps: NearDuplicateCandidate[] = [];
  const seenText = new Set<string>();
  for (const c of candidates) {
    if (seenText.has(c.textHash)) continue;
    seenText.add(c.textHash);
    reps.push(c);
  }
  // A band's six values hashed to a 30-bit number, one map per band: small-integer keys cost far
  // less than strings or larger numbers, and a rare collision only adds a candidate that the
  // signature estimate then drops.
  const buckets = Array.from({ length: BANDS }, () => new Map<number, NearDuplicateCandidate[]>());
  const keys: Int32Array[] = reps.map((c) => {
    const own = new Int32Array(BANDS);
    for (let band = 0; band < BANDS; band++) {
      let h = 0x27d4eb2d;
      for (let r = 0; r < ROWS; r++) {
        h = Math.imul(h ^ c.signature[band * ROWS + r], 0x85ebca6b);
        h ^= h >>> 15;
      }
      const key = h & 0x3fffffff;
      own[band] = key;
      const bucket = buckets[band].get(key);
      if (bucket === undefined) buckets[band].set(key, [c]);
      else if (bucket.length < PER_BUCKET + 1) bucket.push(c);
    }
    return own;
  });
  const tries = new Map<string, string[]>();
  const urls = new Set<string>();
  reps.forEach((c, i) => {
    const met = new Map<string, number>();
    for (let band = 0; band < BANDS; band++) {
      const bucket = buckets[band].get(keys[i][band])!;
      if (bucket.length === 1) continue;
      for (const other of bucket) {
        if (other === c || met.has(other.url)) continue;
        met.set(other.url, signatureSimilarity(c.signature, other.signature));
      }
    }
    const best = [...met]
      .filter(([, estimate]) => estimate >= ESTIMATE_FLOOR)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, TRIES)
      .map(([url]) => url);
    if (best.length === 0) return;
    tries.set(c.url, best);
    urls.add(c.url);
    for (const url of best) urls.add(url);
  });
  return { tries, urls };
}

/**
 * Each representative's confirmed partner and their exact similarity (both ways: a page found
 * by another has it as its partner unless it found one of its own). `shingles`: the sorted
 * shingle hashes of the plan's URLs; a pair missing one is not confirmed.
 */
export function confirmNearDuplicates(
  plan: NearDuplicatePlan,
  shingles: ReadonlyMap<string, Uint32Array>,
): Map<string, { other: string; similarity: number }> {
  const found = new Map<string, { other: string; similarity: number }>();
  for (const [url, others] of plan.tries) {
    const own = shingles.get(url);
    if (own === undefined) continue;
    for (const other of others) {
      const theirs = shingles.get(other);
      if (theirs === undefined) continue;
      const similarity = jaccard(own, theirs);
      if (similarity < NEAR_DUPLICATE_THRESHOLD) continue;
      if (!found.has(url)) found.set(url, { other, similarity });
      if (!found.has(other)) found.set(other, { other: url, similarity });
      break;
    }
  }
  return found;
}
