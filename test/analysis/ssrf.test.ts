// The SSRF guard: private, loopback, link-local, CGNAT, multicast, reserved and IPv4-embedding
// IPv6 targets are refused, in every spelling, after DNS, on every redirect hop and side fetch,
// and without a single connection attempt to the refused address.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fetchSnapshot } from '../../src/analysis/analyze.js';
import { DEFAULT_CONFIG, type AnalysisConfig } from '../../src/analysis/config.js';
import { loadAnalysisConfig } from '../../src/config.js';
import { FetchError } from '../../src/analysis/errors.js';
import {
  isPublicAddress,
  resolveAllowedAddress,
  systemResolver,
  type ResolvedAddress,
  type Resolver,
} from '../../src/analysis/fetch/address-guard.js';
import type { FetchFailureReason } from '../../src/analysis/types.js';
import { loopbackOnly, startServer, type TestServer } from './fetch-test-server.js';

const STRICT: AnalysisConfig = DEFAULT_CONFIG; // ALLOW_PRIVATE_ADDRESSES off
const PAGE = '<html><head><title>T</title></head><body>Hi</body></html>';

function refusedWith(reason: FetchFailureReason, target = '') {
  return (error: unknown) => {
    assert.ok(error instanceof FetchError, `${target}: expected a FetchError, got ${String(error)}`);
    assert.equal(error.reason, reason, `${target}: ${error.message}`);
    return true;
  };
}

/** Records every connection attempt; vetoes any outside loopback so a guard bug cannot leak. */
function connectionLog() {
  const attempts: string[] = [];
  return {
    attempts,
    beforeConnect: (address: string, port: number) => {
      attempts.push(`${address}:${port}`);
      loopbackOnly(address);
    },
  };
}

describe('the address classifier', () => {
  test('public unicast addresses pass, including IPv6 forms that embed a public IPv4', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '93.184.215.14',
      '2606:4700:4700::1111',
      '2a00:1450:4007:80e::200e',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ]) {
      assert.equal(isPublicAddress(address), true, address);
    }
  });

  test('special-purpose addresses are refused', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.255.254',
      '0.0.0.0',
      '0.1.2.3',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.255',
      '224.0.0.1',
      '239.255.255.250',
      '255.255.255.255',
      '192.0.0.8',
      '192.0.2.1',
      '198.18.0.1',
      '198.51.100.1',
      '203.0.113.1',
      '240.0.0.1',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:0:a00:1',
      '64:ff9b::a00:1',
      '64:ff9b:1::8.8.8.8',
      '::7f00:1',
      '::808:808',
      'fe80::1',
      'fe80::1%eth0',
      'fec0::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '2002:7f00:1::',
      '2002:a00:1::',
      '2001::1',
      '2001:db8::1',
      '100::1',
      '3fff::1',
      '5f00::1',
      '4000::1',
    ]) {
      assert.equal(isPublicAddress(address), false, address);
    }
  });

  test('only literal addresses in canonical form are addresses', () => {
    for (const notAnAddress of ['example.com', '0x7f.0.0.1', '0177.0.0.1', '2130706433', '127.1', '', '[::1']) {
      assert.equal(isPublicAddress(notAnAddress), false, notAnAddress);
    }
  });

  test('the WHATWG URL parser normalises decimal, octal, hex and short IPv4 hosts before the guard sees them', () => {
    const cases: Record<string, string> = {
      'http://2130706433/': '127.0.0.1',
      'http://0x7f.0.0.1/': '127.0.0.1',
      'http://0177.0.0.1/': '127.0.0.1',
      'http://127.1/': '127.0.0.1',
      'http://0x7f000001/': '127.0.0.1',
      'http://0/': '0.0.0.0',
      'http://017700000001/': '127.0.0.1',
      'http://10.1/': '10.0.0.1',
      'http://[::ffff:127.0.0.1]/': '[::ffff:7f00:1]',
      'http://[0:0:0:0:0:0:0:1]/': '[::1]',
    };
    for (const [url, hostname] of Object.entries(cases)) assert.equal(new URL(url).hostname, hostname, url);
  });

  test('a resolver answer with one private address among public ones is refused', async () => {
    const policy = { allowPrivateAddresses: false };
    const mixed: Resolver = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    await assert.rejects(resolveAllowedAddress('mixed.test', mixed, policy), refusedWith('blocked_address'));
    const fine: Resolver = async () => [{ address: '93.184.215.14', family: 4 }];
    assert.deepEqual(await resolveAllowedAddress('fine.test', fine, policy), { address: '93.184.215.14', family: 4 });
    assert.deepEqual(await resolveAllowedAddress('[::1]', fine, { allowPrivateAddresses: true }), {
      address: '::1',
      family: 6,
    });
  });
});

describe('refused targets make no connection', () => {
  let v4: TestServer;
  let v6: TestServer;
  let port: number;

  before(async () => {
    // Every loopback spelling below points at these two listeners, which count connections.
    v4 = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE), '127.0.0.1');
    port = v4.port;
    v6 = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE), '::1', port);
  });
  after(async () => {
    await v4.close();
    await v6.close();
  });

  const answers: Record<string, ResolvedAddress[]> = {
    'intranet.test': [{ address: '10.0.0.5', family: 4 }],
    'metadata.test': [{ address: '169.254.169.254', family: 4 }],
    'loopback.test': [{ address: '127.0.0.1', family: 4 }],
    'loopback6.test': [{ address: '::1', family: 6 }],
    'mapped.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
    'mixed.test': [
      { address: '93.184.215.14', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ],
    'mixed6.test': [
      { address: '2606:4700:4700::1111', family: 6 },
      { address: 'fd00::1', family: 6 },
    ],
  };
  const resolver: Resolver = async (hostname) => {
    if (hostname === 'localhost') return systemResolver(hostname);
    const found = answers[hostname];
    if (!found) throw Object.assign(new Error(`no test answer for ${hostname}`), { code: 'ENOTFOUND' });
    return found;
  };

  // `${P}` is the port of the loopback listeners: a leak would show up as a connection there.
  const TARGETS = [
    'http://127.0.0.1:${P}/',
    'http://127.1:${P}/',
    'http://0x7f.0.0.1:${P}/',
    'http://0177.0.0.1:${P}/',
    'http://2130706433:${P}/',
    'http://0x7f000001:${P}/',
    'http://0:${P}/',
    'http://0.0.0.0:${P}/',
    'http://127.0.0.2:${P}/',
    'https://127.0.0.1:${P}/',
    'http://[::1]:${P}/',
    'http://[::]:${P}/',
    'http://[::ffff:127.0.0.1]:${P}/',
    'http://[::ffff:7f00:1]:${P}/',
    'http://[0:0:0:0:0:ffff:7f00:1]:${P}/',
    'http://localhost:${P}/',
    'localhost:${P}',
    'http://LOCALHOST.:${P}/',
    'http://app.localhost:${P}/',
    'http://loopback.test:${P}/',
    'http://loopback6.test:${P}/',
    'http://mapped.test:${P}/',
    'http://mixed.test:${P}/',
    'http://10.0.0.1/',
    'http://10.255.255.254:8080/',
    'http://172.16.0.1/',
    'http://172.31.255.254/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://192.0.2.1/',
    'http://198.18.0.1/',
    'http://240.0.0.1/',
    'http://[64:ff9b::7f00:1]/',
    'http://[64:ff9b::a00:1]/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[fd12:3456::1]/',
    'http://[ff02::1]/',
    'http://[2002:7f00:1::]/',
    'http://[2001:db8::1]/',
    'http://[2001::1]/',
    'http://[::7f00:1]/',
    'http://intranet.test/',
    'http://metadata.test/',
    'http://mixed6.test/',
  ];

  test(`${TARGETS.length} targets are refused as blocked_address`, async () => {
    assert.ok(TARGETS.length >= 30);
    const log = connectionLog();
    for (const template of TARGETS) {
      const target = template.replace('${P}', String(port));
      await assert.rejects(
        fetchSnapshot(target, { config: STRICT, resolver, guard: log }),
        refusedWith('blocked_address', target),
      );
    }
    assert.deepEqual(log.attempts, []);
    assert.equal(v4.connections, 0);
    assert.equal(v6.connections, 0);
  });

  test('non-http(s) schemes are invalid_url', async () => {
    const log = connectionLog();
    for (const target of [
      `ftp://127.0.0.1:${port}/`,
      'file:///etc/passwd',
      'data:text/html,<p>hi</p>',
      'javascript:alert(1)',
      'mailto:someone@example.com',
      `ws://127.0.0.1:${port}/`,
      `gopher://127.0.0.1:${port}/`,
    ]) {
      await assert.rejects(fetchSnapshot(target, { config: STRICT, resolver, guard: log }), refusedWith('invalid_url', target));
    }
    assert.deepEqual(log.attempts, []);
    assert.equal(v4.connections, 0);
  });

  test('ALLOW_PRIVATE_ADDRESSES=true lifts the guard', async () => {
    const config = loadAnalysisConfig({ ALLOW_PRIVATE_ADDRESSES: 'true' });
    assert.equal(config.request.allowPrivateAddresses, true);
    const log = connectionLog();
    const { snapshot } = await fetchSnapshot(`http://127.1:${port}/`, { config, resolver, guard: log });
    assert.equal(snapshot.html, PAGE);
    assert.ok(log.attempts.every((a) => a === `127.0.0.1:${port}`));
    assert.ok(v4.connections >= 1);
  });
});

describe('redirects, side fetches and DNS rebinding go through the guard', () => {
  // 127.0.0.2 plays a public host (through the test-only hook); 127.0.0.3 is private, and its
  // listener must never see a connection.
  const treatAsPublic = (address: string) => address === '127.0.0.2';
  let allowed: TestServer;
  let secret: TestServer;

  before(async () => {
    secret = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('secret'), '127.0.0.3');
    allowed = await startServer((req, res) => {
      const toSecret = `http://127.0.0.3:${secret.port}`;
      switch (req.url) {
        case '/':
        case '/plain':
          return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
        case '/to-private':
          return void res.writeHead(302, { location: `${toSecret}/admin` }).end();
        case '/to-private-name':
          return void res.writeHead(302, { location: `http://secret.test:${secret.port}/admin` }).end();
        default:
          // robots.txt, the 404 probe, favicon.ico and sitemap.xml all bounce to the private host.
          return void res.writeHead(301, { location: `${toSecret}${req.url}` }).end();
      }
    }, '127.0.0.2');
  });
  after(async () => {
    await allowed.close();
    await secret.close();
  });

  const resolver: Resolver = async (hostname) => {
    if (hostname === 'public.test') return [{ address: '127.0.0.2', family: 4 }];
    if (hostname === 'secret.test') return [{ address: '127.0.0.3', family: 4 }];
    throw Object.assign(new Error('unknown'), { code: 'ENOTFOUND' });
  };

  test('an allowed host is fetched (the control)', async () => {
    const log = connectionLog();
    const { snapshot } = await fetchSnapshot(`http://public.test:${allowed.port}/plain`, {
      config: STRICT,
      resolver,
      guard: { ...log, treatAsPublic },
    });
    assert.equal(snapshot.html, PAGE);
    assert.ok(log.attempts.length >= 1);
    assert.ok(log.attempts.every((a) => a.startsWith('127.0.0.2:')));
  });

  test('a redirect from an allowed host to a private address or name is refused', async () => {
    const log = connectionLog();
    for (const path of ['/to-private', '/to-private-name']) {
      await assert.rejects(
        fetchSnapshot(`http://public.test:${allowed.port}${path}`, {
          config: STRICT,
          resolver,
          guard: { ...log, treatAsPublic },
        }),
        refusedWith('blocked_address', path),
      );
    }
    assert.ok(log.attempts.every((a) => a.startsWith('127.0.0.2:')));
    assert.equal(secret.connections, 0);
  });

  test('side fetches redirected to a private address fail with blocked_address', async () => {
    const log = connectionLog();
    const { snapshot } = await fetchSnapshot(`http://public.test:${allowed.port}/`, {
      config: STRICT,
      resolver,
      guard: { ...log, treatAsPublic },
    });
    assert.deepEqual(snapshot.robots, { error: 'blocked_address' });
    assert.equal('error' in snapshot.notFoundProbe && snapshot.notFoundProbe.error, 'blocked_address');
    assert.deepEqual(snapshot.faviconProbe, { error: 'blocked_address' });
    assert.deepEqual(snapshot.sitemapProbe, { error: 'blocked_address' });
    assert.ok(log.attempts.every((a) => a.startsWith('127.0.0.2:')));
    assert.equal(secret.connections, 0);
  });

  test('DNS rebinding: a name that later resolves to a private address is refused on the next connection', async () => {
    // Same port on both addresses, so a re-resolved connection would reach the secret listener.
    const rebound = await startServer(
      (_req, res) => res.writeHead(200, { 'content-type': 'text/html', connection: 'close' }).end(PAGE),
      '127.0.0.2',
    );
    const trap = await startServer((_req, res) => res.end('secret'), '127.0.0.3', rebound.port);
    try {
      let lookups = 0;
      const rebinding: Resolver = async () => [{ address: lookups++ === 0 ? '127.0.0.2' : '127.0.0.3', family: 4 }];
      const log = connectionLog();
      const { snapshot } = await fetchSnapshot(`http://rebind.test:${rebound.port}/`, {
        config: STRICT,
        resolver: rebinding,
        guard: { ...log, treatAsPublic },
      });
      assert.equal(snapshot.html, PAGE);
      assert.ok(lookups >= 2, 'the side fetches needed new connections');
      assert.deepEqual(snapshot.robots, { error: 'blocked_address' });
      assert.equal('error' in snapshot.notFoundProbe && snapshot.notFoundProbe.error, 'blocked_address');
      assert.deepEqual(log.attempts, [`127.0.0.2:${rebound.port}`]);
      assert.equal(trap.connections, 0);
    } finally {
      await rebound.close();
      await trap.close();
    }
  });
});
