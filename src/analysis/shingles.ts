// Word 5-shingles of a page's visible text, their MinHash signature and the exact Jaccard
// similarity of two shingle sets: what a site crawl's near-duplicate search rests on
// (docs/audit-issues.md "near_duplicate_content"). Words are those of the content_length check
// (words.ts); a shingle is five consecutive words, hashed to 32 bits.

import { wordHashes } from './words.js';

/** Words per shingle. */
export const SHINGLE_WORDS = 5;
/** MinHash values per signature (64 × 32 bits = 256 bytes). */
export const SIGNATURE_SIZE = 64;

/** murmur3's 32-bit finaliser: a bijection that mixes every input bit into every output bit. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The MinHash functions: h_i(x) = a_i·x + b_i mod 2³² (a_i odd, so each is a permutation of the
 * 32-bit values), over shingle hashes that fmix32 already spread evenly. Two integer operations
 * per function and shingle: a 1,000-word page's signature costs well under a millisecond.
 * Fixed constants: signatures stored by one build compare with another's.
 */
const MULTIPLIERS = new Int32Array(SIGNATURE_SIZE);
const OFFSETS = new Int32Array(SIGNATURE_SIZE);
{
  let x = 0x9e3779b9;
  for (let i = 0; i < SIGNATURE_SIZE; i++) {
    x = fmix32(x + 0x6d2b79f5);
    MULTIPLIERS[i] = x | 1;
    x = fmix32(x + 0x6d2b79f5);
    OFFSETS[i] = x;
  }
}

/** The shingle hashes of a text in text order (repeats kept); empty with fewer than SHINGLE_WORDS words. */
export function shingles(text: string): Uint32Array {
  const hashes = wordHashes(text);
  if (hashes.length < SHINGLE_WORDS) return new Uint32Array(0);
  const out = new Uint32Array(hashes.length - SHINGLE_WORDS + 1);
  for (let i = 0; i < out.length; i++) {
    let h = 0x2545f491;
    for (let k = 0; k < SHINGLE_WORDS; k++) h = Math.imul(h ^ hashes[i + k], 0x01000193) + k;
    out[i] = fmix32(h);
  }
  return out;
}

/** The distinct shingle hashes of a text, sorted (the set the exact Jaccard compares). */
export function shingleHashes(text: string): Uint32Array {
  const set = shingles(text);
  set.sort();
  // Deduplicate in place.
  let n = 0;
  for (let i = 0; i < set.length; i++) if (i === 0 || set[i] !== set[i - 1]) set[n++] = set[i];
  return set.subarray(0, n);
}

/**
 * The MinHash signature of shingle hashes (repeats change nothing): per function, the least value.
 * Function by function, its least value kept in a local: half the time of shingle by shingle,
 * which loaded and stored the signature's typed array at every step.
 */
export function minhashSignature(shingles: Uint32Array): Uint32Array {
  const signature = new Uint32Array(SIGNATURE_SIZE);
  const n = shingles.length;
  for (let i = 0; i < SIGNATURE_SIZE; i++) {
    const a = MULTIPLIERS[i];
    const b = OFFSETS[i];
    let least = 0xffffffff;
    for (let s = 0; s < n; s++) {
      const v = (Math.imul(shingles[s] | 0, a) + b) >>> 0;
      if (v < least) least = v;
    }
    signature[i] = least;
  }
  return signature;
}

/** |A ∩ B| / |A ∪ B| of two sorted, distinct hash sets (1 when both are empty). */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 && b.length === 0) return 1;
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return common / (a.length + b.length - common);
}

/** The fraction of equal positions of two signatures: an estimate of the sets' Jaccard similarity. */
export function signatureSimilarity(a: Uint32Array, b: Uint32Array): number {
  let same = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
  return same / a.length;
}

/** A signature as base64 of its little-endian bytes (344 characters), for storage. */
export function encodeSignature(signature: Uint32Array): string {
  const bytes = new Uint8Array(signature.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < signature.length; i++) view.setUint32(i * 4, signature[i], true);
  return Buffer.from(bytes).toString('base64');
}

export function decodeSignature(text: string): Uint32Array | null {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== SIGNATURE_SIZE * 4) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const signature = new Uint32Array(SIGNATURE_SIZE);
  for (let i = 0; i < SIGNATURE_SIZE; i++) signature[i] = view.getUint32(i * 4, true);
  return signature;
}
