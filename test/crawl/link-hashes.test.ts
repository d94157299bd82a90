import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeLinkHashes, encodeLinkHashes, linkHash } from '../../src/crawl/issues/link-hashes.js';

test('link hashes: each URL once, in order, decoded to the hashes linkHash gives', () => {
  const urls = ['https://a.test/x', 'https://a.test/y', 'https://a.test/x', 'https://a.test/z?q=1'];
  const encoded = encodeLinkHashes(urls);
  assert.equal(encoded.length, 8 * 3, '8 base64 characters a URL');
  assert.deepEqual(decodeLinkHashes(encoded), ['https://a.test/x', 'https://a.test/y', 'https://a.test/z?q=1'].map(linkHash));
  assert.deepEqual(decodeLinkHashes(encodeLinkHashes([])), []);
});

test('link hashes: 48 bits, distinct for distinct URLs of a large site', () => {
  const seen = new Set<number>();
  for (let i = 0; i < 50_000; i++) {
    const hash = linkHash(`https://a.test/page/${i}`);
    assert.ok(Number.isSafeInteger(hash) && hash >= 0 && hash < 2 ** 48);
    seen.add(hash);
  }
  assert.equal(seen.size, 50_000);
});
