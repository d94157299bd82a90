// Whom the per-address limit of /api/event counts: an IPv4 client by its address, an IPv6 client
// by its /64 (it holds the whole prefix), an IPv4-mapped IPv6 address as its IPv4 client.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressKey } from '../../src/limits/address-key.js';

test('IPv4 as given; IPv6 by its /64 whatever the notation; IPv4-mapped as IPv4', () => {
  assert.equal(addressKey('203.0.113.7'), '203.0.113.7');
  const prefix = '2001:db8:1:2::/64';
  for (const address of [
    '2001:db8:1:2::1',
    '2001:db8:1:2:ffff:ffff:ffff:ffff',
    '2001:0DB8:0001:0002:0:0:0:9',
    '2001:db8:1:2::',
  ]) {
    assert.equal(addressKey(address), prefix, address);
  }
  assert.equal(addressKey('2001:db8:1:3::1'), '2001:db8:1:3::/64');
  assert.equal(addressKey('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(addressKey('::ffff:cb00:7107'), '203.0.113.7');
  assert.equal(addressKey('::1'), '0:0:0:0::/64');
  assert.equal(addressKey('not an address:'), 'not an address:');
});
