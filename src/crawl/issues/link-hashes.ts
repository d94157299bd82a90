// The site's own URLs a page links to, stored with the page as 48-bit hashes (8 base64 characters
// each), so that redirecting_link can name every page that links to a redirect, not only the few
// linking pages a row keeps by name. The issue pass matches a page's hashes against those of the
// redirecting rows alone; two different URLs of one crawl share a 48-bit hash with a chance of about
// one in 10⁹ at 100,000 pages of 100 links each.
import * as crypto from 'node:crypto';

const BYTES = 6;

/**
 * A URL's MD5: one native call where Node has crypto.hash (20.12 and later), else through a Hash
 * object (an object and three calls: twice the time, and a crawled page hashes every link).
 */
const md5: (url: string) => Buffer =
  typeof crypto.hash === 'function'
    ? (url) => crypto.hash('md5', url, 'buffer')
    : (url) => crypto.createHash('md5').update(url).digest();

/** A URL's hash: the first 48 bits of its MD5, as a number (exact below 2^53). */
export function linkHash(url: string): number {
  return md5(url).readUIntBE(0, BYTES);
}

/** The hashes of `urls` (each once, in order), as the page's facts store them. */
export function encodeLinkHashes(urls: Iterable<string>): string {
  const unique = [...new Set(urls)];
  const bytes = Buffer.alloc(unique.length * BYTES);
  unique.forEach((url, i) => {
    md5(url).copy(bytes, i * BYTES, 0, BYTES);
  });
  return bytes.toString('base64');
}

export function decodeLinkHashes(encoded: string): number[] {
  const bytes = Buffer.from(encoded, 'base64');
  const hashes: number[] = [];
  for (let at = 0; at + BYTES <= bytes.length; at += BYTES) hashes.push(bytes.readUIntBE(at, BYTES));
  return hashes;
}
