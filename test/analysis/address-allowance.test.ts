// ALLOW_PRIVATE_ADDRESSES as a list of addresses and CIDR ranges: parsed strictly at start, and
// only the listed non-public addresses become reachable (an IPv4-mapped IPv6 address counts as
// the IPv4 address it reaches).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fetchSnapshot } from '../../src/analysis/analyze.js';
import { FetchError } from '../../src/analysis/errors.js';
import {
  inAddressList,
  isAllowedAddress,
  parsePrivateAddressAllowance,
  resolveAllowedAddress,
  type Resolver,
} from '../../src/analysis/fetch/address-guard.js';
import { ConfigError, loadAnalysisConfig, loadConfig } from '../../src/config.js';
import { startServer, type TestServer } from './fetch-test-server.js';

describe('ALLOW_PRIVATE_ADDRESSES parsing', () => {
  test('true and false keep their spellings', () => {
    for (const raw of ['true', '1', 'yes', 'on', 'TRUE']) assert.equal(parsePrivateAddressAllowance(raw), true, raw);
    for (const raw of ['false', '0', 'no', 'off']) assert.equal(parsePrivateAddressAllowance(raw), false, raw);
  });

  test('a list of addresses and CIDR ranges, IPv4 and IPv6', () => {
    assert.deepEqual(parsePrivateAddressAllowance('127.0.0.2/32,10.1.0.0/16'), ['127.0.0.2/32', '10.1.0.0/16']);
    assert.deepEqual(parsePrivateAddressAllowance(' 192.168.1.10 , fd00::/8,::1 '), ['192.168.1.10', 'fd00::/8', '::1']);
    assert.deepEqual(loadAnalysisConfig({ ALLOW_PRIVATE_ADDRESSES: '127.0.0.2/32' }).request.allowPrivateAddresses, [
      '127.0.0.2/32',
    ]);
  });

  test('anything else stops the start with a message naming the variable', () => {
    for (const raw of [
      'maybe',
      '127.1',
      '0x7f000001',
      '10.0.0.0/33',
      'fd00::/129',
      '10.1.2.3/16',
      '10.0.0.0/8,',
      '10.0.0.0/8,,127.0.0.1',
      '10.0.0.0/-1',
      '10.0.0.0/8/8',
      'localhost',
      '127.0.0.1/32,intranet.example',
    ]) {
      assert.throws(() => parsePrivateAddressAllowance(raw), Error, raw);
      assert.throws(
        () => loadConfig({ ALLOW_PRIVATE_ADDRESSES: raw }),
        (error: unknown) => error instanceof ConfigError && /ALLOW_PRIVATE_ADDRESSES must be/.test(error.message),
        raw,
      );
    }
  });

  test('a range with host bits set names the range it meant', () => {
    assert.throws(() => parsePrivateAddressAllowance('10.1.2.3/16'), /host bits set \(the range is 10\.1\.0\.0\/16\)/);
  });
});

describe('matching a list', () => {
  const list = parsePrivateAddressAllowance('127.0.0.2/32,10.1.0.0/16,fd00:1::/32') as readonly string[];
  const policy = { allowPrivateAddresses: list };

  test('listed private addresses pass, others stay refused, public ones always pass', () => {
    for (const address of ['127.0.0.2', '10.1.0.1', '10.1.255.255', 'fd00:1::5', '[fd00:1:ffff::1]', '8.8.8.8', '2606:4700::1']) {
      assert.equal(isAllowedAddress(address, policy), true, address);
    }
    for (const address of [
      '127.0.0.1',
      '127.0.0.3',
      '10.2.0.1',
      '10.0.255.255',
      '192.168.0.1',
      '::1',
      'fd00:2::1',
      '169.254.169.254',
    ]) {
      assert.equal(isAllowedAddress(address, policy), false, address);
    }
  });

  test('an IPv4-mapped IPv6 address is judged as its IPv4 address, and a mapped range as IPv4', () => {
    assert.equal(inAddressList('::ffff:127.0.0.2', list), true);
    assert.equal(inAddressList('[::ffff:7f00:2]', list), true);
    assert.equal(inAddressList('::ffff:127.0.0.3', list), false);
    const mapped = parsePrivateAddressAllowance('::ffff:10.0.0.0/104') as readonly string[];
    assert.equal(inAddressList('10.200.0.1', mapped), true);
    assert.equal(inAddressList('::ffff:10.200.0.1', mapped), true);
    assert.equal(inAddressList('11.0.0.1', mapped), false);
  });

  test('IPv4 ranges never match IPv6 addresses that merely embed their bits', () => {
    // 6to4 and NAT64 forms reach a relay, not the local IPv4 address: a list of IPv4 ranges does not open them.
    assert.equal(isAllowedAddress('2002:7f00:2::', policy), false);
    assert.equal(isAllowedAddress('64:ff9b::7f00:2', policy), false);
  });

  test('localhost names stay refused under a list (they reach any loopback address)', async () => {
    const resolver: Resolver = async () => [{ address: '127.0.0.2', family: 4 }];
    await assert.rejects(resolveAllowedAddress('localhost', resolver, policy), (e) => e instanceof FetchError);
    await assert.rejects(resolveAllowedAddress('app.localhost', resolver, policy), (e) => e instanceof FetchError);
    assert.deepEqual(await resolveAllowedAddress('intranet.test', resolver, policy), { address: '127.0.0.2', family: 4 });
  });
});

describe('a fetch under a list', () => {
  const PAGE = '<html><head><title>T</title></head><body>Hi</body></html>';
  let allowed: TestServer;
  let refused: TestServer;

  before(async () => {
    refused = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('secret'), '127.0.0.3');
    allowed = await startServer((req, res) => {
      if (req.url === '/to-refused') return res.writeHead(302, { location: `${refused.origin}/` }).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    }, '127.0.0.2');
  });
  after(async () => {
    await allowed.close();
    await refused.close();
  });

  test('127.0.0.2/32 is reachable and 127.0.0.3 is not, directly or by a redirect', async () => {
    const config = loadAnalysisConfig({ ALLOW_PRIVATE_ADDRESSES: '127.0.0.2/32' });
    const { snapshot } = await fetchSnapshot(`${allowed.origin}/`, { config });
    assert.equal(snapshot.html, PAGE);
    await assert.rejects(
      fetchSnapshot(`${refused.origin}/`, { config }),
      (e) => e instanceof FetchError && e.reason === 'blocked_address',
    );
    await assert.rejects(
      fetchSnapshot(`${allowed.origin}/to-refused`, { config }),
      (e) => e instanceof FetchError && e.reason === 'blocked_address',
    );
    assert.equal(refused.connections, 0);
  });
});
