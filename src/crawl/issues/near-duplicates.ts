// near_duplicate_content without comparing every pair (docs/audit-issues.md): each candidate
// page's 64-value MinHash signature is cut into LSH bands; pages sharing a band's values share a
// bucket, and only pages met in a bucket are compared. A candidate pair is first estimated from
// the signatures, then confirmed by the exact Jaccard similarity of the two pages' shingle sets
// (recomputed from the stored text of the candidates alone).
//
// Bands: 10 bands of 6 values (60 of the 64). A pair of similarity s shares some band with
// probability 1 − (1 − s⁶)¹⁰: 0.9995 at s = 0.90, 0.71 at 0.70, 0.15 at 0.50, 0.007 at 0.30, so
// pages under the threshold rarely become candidates and pages over it are hardly ever missed.

import { jaccard, SIGNATURE_SIZE } from '../../analysis/shingles.js';

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

/**
 * The candidates as the issue pass holds them: their signatures in one typed array (SIGNATURE_SIZE
 * values each, candidate i from i × SIGNATURE_SIZE) rather than an object and an array each, which
 * at 100,000 pages is the difference between a few and a few hundred megabytes.
 */
export interface CandidateSet {
  readonly length: number;
  /** The candidate's URL. */
  url(i: number): string;
  /** Equal for candidates of the same visible text (its textHash, or a number standing for it). */
  text(i: number): string | number;
  /** SIGNATURE_SIZE values per candidate. */
  readonly signatures: Uint32Array;
}

/** Which pairs to confirm: linear in the candidates (a bounded number of comparisons each). */
export function planNearDuplicates(candidates: readonly NearDuplicateCandidate[]): NearDuplicatePlan {
  const signatures = new Uint32Array(candidates.length * SIGNATURE_SIZE);
  candidates.forEach((c, i) => {
    signatures.set(c.signature.subarray(0, SIGNATURE_SIZE), i * SIGNATURE_SIZE);
  });
  return planCandidates({
    length: candidates.length,
    url: (i) => candidates[i].url,
    text: (i) => candidates[i].textHash,
    signatures,
  });
}

/** planNearDuplicates over a CandidateSet: typed arrays throughout, so 100,000 candidates stay a few megabytes. */
export function planCandidates(set: CandidateSet): NearDuplicatePlan {
  // One representative per exact text: exact duplicates are duplicate_content's.
  const repList: number[] = [];
  const seenText = new Set<string | number>();
  for (let i = 0; i < set.length; i++) {
    const text = set.text(i);
    if (seenText.has(text)) continue;
    seenText.add(text);
    repList.push(i);
  }
  seenText.clear();
  const reps = Int32Array.from(repList);
  const m = reps.length;
  const sig = set.signatures;
  // A band's six values hashed to a 30-bit number: small-integer keys cost far less than strings
  // or larger numbers, and a rare collision only adds a candidate that the signature estimate then
  // drops. Each band's buckets as one compact list (CSR): a bucket keeps its first PER_BUCKET + 1
  // members in candidate order.
  const bucketOf = new Int32Array(m * BANDS);
  const bucketStart: Int32Array[] = [];
  const bucketMembers: Int32Array[] = [];
  for (let band = 0; band < BANDS; band++) {
    const ids = new Map<number, number>();
    const sizes: number[] = [];
    for (let r = 0; r < m; r++) {
      const base = reps[r] * SIGNATURE_SIZE + band * ROWS;
      let h = 0x27d4eb2d;
      for (let k = 0; k < ROWS; k++) {
        h = Math.imul(h ^ sig[base + k], 0x85ebca6b);
        h ^= h >>> 15;
      }
      const key = h & 0x3fffffff;
      let id = ids.get(key);
      if (id === undefined) {
        id = sizes.length;
        ids.set(key, id);
        sizes.push(0);
      }
      if (sizes[id] < PER_BUCKET + 1) sizes[id]++;
      bucketOf[r * BANDS + band] = id;
    }
    ids.clear();
    const start = new Int32Array(sizes.length + 1);
    for (let b = 0; b < sizes.length; b++) start[b + 1] = start[b] + sizes[b];
    const members = new Int32Array(start[sizes.length]);
    const filled = new Int32Array(sizes.length);
    for (let r = 0; r < m; r++) {
      const b = bucketOf[r * BANDS + band];
      if (filled[b] < sizes[b]) members[start[b] + filled[b]++] = r;
    }
    bucketStart.push(start);
    bucketMembers.push(members);
  }
  const tries = new Map<string, string[]>();
  const urls = new Set<string>();
  const met = new Map<string, number>();
  for (let r = 0; r < m; r++) {
    met.clear();
    for (let band = 0; band < BANDS; band++) {
      const b = bucketOf[r * BANDS + band];
      const from = bucketStart[band][b];
      const to = bucketStart[band][b + 1];
      if (to - from === 1) continue;
      for (let k = from; k < to; k++) {
        const other = bucketMembers[band][k];
        if (other === r) continue;
        const url = set.url(reps[other]);
        if (met.has(url)) continue;
        met.set(url, similarityAt(sig, reps[r], reps[other]));
      }
    }
    if (met.size === 0) continue;
    const best = [...met]
      .filter(([, estimate]) => estimate >= ESTIMATE_FLOOR)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, TRIES)
      .map(([url]) => url);
    if (best.length === 0) continue;
    const url = set.url(reps[r]);
    tries.set(url, best);
    urls.add(url);
    for (const other of best) urls.add(other);
  }
  return { tries, urls };
}

/** signatureSimilarity of candidates a and b of one typed array. */
function similarityAt(sig: Uint32Array, a: number, b: number): number {
  const x = a * SIGNATURE_SIZE;
  const y = b * SIGNATURE_SIZE;
  let same = 0;
  for (let i = 0; i < SIGNATURE_SIZE; i++) if (sig[x + i] === sig[y + i]) same++;
  return same / SIGNATURE_SIZE;
}

/**
 * Each representative's confirmed partner and their exact similarity (both ways: a page found
 * by another has it as its partner unless it found one of its own). `shingles`: the sorted
 * shingle hashes of the plan's URLs; a pair missing one is not confirmed.
 */
export function confirmNearDuplicates(
  plan: NearDuplicatePlan,
  shingles: ReadonlyMap<string, Uint32Array>,
): Map<string, NearDuplicate> {
  const found = new Map<string, NearDuplicate>();
  confirmSome(found, plan.tries, shingles);
  return found;
}

export interface NearDuplicate {
  other: string;
  similarity: number;
}

/**
 * confirmNearDuplicates for some of the plan's tries, into `found`: called on the plan's tries a
 * slice at a time, in order, with the shingle sets of that slice's URLs only, it finds what one
 * call over the whole plan finds, holding a slice's sets rather than every candidate's.
 */
export function confirmSome(
  found: Map<string, NearDuplicate>,
  tries: Iterable<readonly [string, readonly string[]]>,
  shingles: ReadonlyMap<string, Uint32Array>,
): void {
  for (const [url, others] of tries) {
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
}
