import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeDomain } from '../../src/websites/domain.js';
import { normalizeIpEntry, normalizeIpList, normalizeParamList } from '../../src/websites/exclusions.js';

test("IP literals as domains: IPv4 normalised like a browser's host, IPv6 compressed without brackets", () => {
  const cases: [string, string][] = [
    ['127.0.0.1', '127.0.0.1'],
    ['http://127.0.0.1:8080/x', '127.0.0.1'],
    ['192.168.001.010', '192.168.1.8'], // leading zeros are octal to a browser, so to us too
    ['[::1]', '::1'],
    ['::1', '::1'],
    ['http://[::1]:8080/', '::1'],
    ['2001:DB8:0:0::1', '2001:db8::1'],
    ['[2001:db8::0:1]', '2001:db8::1'],
  ];
  for (const [input, expected] of cases) assert.equal(normalizeDomain(input), expected, input);
});

test('domains: reduced to a lower-case host name, IDN as punycode', () => {
  const cases: [string, string | null][] = [
    ['example.com', 'example.com'],
    ['  Example.COM ', 'example.com'],
    ['https://www.example.com/x?y=1#z', 'www.example.com'],
    ['http://example.com:8080', 'example.com'],
    ['example.com:8080/path', 'example.com'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['例え.jp', 'xn--r8jz45g.jp'],
    ['example.com.', 'example.com'],
    ['sub.domain-with-dash.co.uk', 'sub.domain-with-dash.co.uk'],
    ['localhost', null],
    ['999.1.1.1', null],
    ['fe80::1%eth0', null],
    ['[fe80::1%25eth0]', null],
    ['ftp://example.com', null],
    ['exa mple.com', null],
    ['-bad.com', null],
    ['bad-.com', null],
    ['a..b.com', null],
    ['example.123', null],
    ['', null],
    [`${'a'.repeat(64)}.com`, null],
    ['javascript:alert(1)', null],
  ];
  for (const [input, expected] of cases) assert.equal(normalizeDomain(input), expected, input);
});

test('IP entries: IPv4, IPv6, CIDR; canonical form; anything else refused', () => {
  const cases: [string, string | null][] = [
    ['192.168.1.1', '192.168.1.1'],
    ['10.0.0.0/8', '10.0.0.0/8'],
    ['2001:DB8::1', '2001:db8::1'],
    ['2001:db8::/32', '2001:db8::/32'],
    ['::ffff:1.2.3.4', '::ffff:102:304'],
    ['1.2.3.4/33', null],
    ['1.2.3.4/', null],
    ['1.2.3', null],
    ['01.2.3.4', null],
    ['256.1.1.1', null],
    ['1.2.3.4/8/9', null],
    ['fe80::1%eth0', null],
    ['example.com', null],
    ['2001:db8::/129', null],
  ];
  for (const [input, expected] of cases) assert.equal(normalizeIpEntry(input), expected, input);
});

test('IP lists: one per line, blanks and duplicates dropped, the first bad entry named', () => {
  assert.deepEqual(normalizeIpList(' 1.2.3.4 \r\n\n10.0.0.0/8\n1.2.3.4\n'), { ok: true, value: '1.2.3.4\n10.0.0.0/8' });
  assert.deepEqual(normalizeIpList('\n \n'), { ok: true, value: null });
  assert.deepEqual(normalizeIpList('1.2.3.4\nnope\n999.1.1.1'), { ok: false, invalid: 'nope' });
});

test('parameter lists: names without spaces or separators', () => {
  assert.deepEqual(normalizeParamList('utm_source\n fbclid \n\nutm_source'), { ok: true, value: 'utm_source\nfbclid' });
  assert.deepEqual(normalizeParamList('ok\nbad name'), { ok: false, invalid: 'bad name' });
  assert.deepEqual(normalizeParamList('a=b'), { ok: false, invalid: 'a=b' });
});
