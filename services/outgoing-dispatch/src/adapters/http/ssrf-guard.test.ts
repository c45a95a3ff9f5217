import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { AllowList, decideAddress, guardUrl, mappedV4, rememberedDecision, type Resolver } from './ssrf-guard';

const none = new AllowList('');
/** A resolver that never touches DNS: every name resolves to the given addresses. */
const resolvesTo =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
const noDns: Resolver = async () => {
  throw new Error('DNS must not be asked');
};

describe('SSRF guard decisions (no connection is attempted)', () => {
  const denied = [
    '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.127.255.254',
    '198.18.0.1', '198.19.255.255', '0.0.0.0', '0.1.2.3', '224.0.0.1', '239.255.255.250', '255.255.255.255', '240.0.0.1', '192.0.2.10', '203.0.113.5',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:8.8.8.8', '64:ff9b::a00:1', '2002:7f00:1::1',
  ];
  for (const address of denied) {
    it(`when the address is ${address}, then it is refused`, () => {
      assert.equal(decideAddress(address, none).allowed, false);
    });
  }

  for (const address of ['8.8.8.8', '1.1.1.1', '100.63.255.255', '100.128.0.1', '198.20.0.1', '172.32.0.1', '2606:4700:4700::1111']) {
    it(`when the address is public ${address}, then it is allowed`, () => {
      assert.deepEqual(decideAddress(address, none), { allowed: true, viaAllowList: false });
    });
  }

  it('when IPv4-mapped addresses are written either way, then the embedded IPv4 is found', () => {
    assert.equal(mappedV4('::ffff:127.0.0.1'), '127.0.0.1');
    assert.equal(mappedV4('::ffff:7f00:1'), '127.0.0.1');
    assert.equal(mappedV4('0:0:0:0:0:ffff:a00:1'), '10.0.0.1');
    assert.equal(mappedV4('2001:db8::1'), undefined);
  });

  it('when the allow-list names an IP, a CIDR or a host, then exactly those are allowed (space- or comma-separated)', () => {
    const allow = new AllowList('127.0.0.1, 10.0.0.0/8  internal.example.com');
    assert.equal(decideAddress('127.0.0.1', allow).allowed, true);
    assert.equal(decideAddress('::ffff:127.0.0.1', allow).allowed, true);
    assert.equal(decideAddress('127.0.0.2', allow).allowed, false);
    assert.equal(decideAddress('10.200.1.1', allow).allowed, true);
    assert.equal(decideAddress('192.168.0.1', allow).allowed, false);
    assert.equal(allow.allowsHost('INTERNAL.example.com'), true);
    assert.equal(allow.allowsHost('other.example.com'), false);
  });

  it('when a host name resolves to an internal address, then the URL is refused, naming the address', async () => {
    const decision = await guardUrl('http://sneaky.example/x', none, resolvesTo('93.184.216.34', '10.0.0.5'));
    assert.equal(decision.allowed, false);
    assert.match(decision.allowed ? '' : decision.reason, /10\.0\.0\.5/);
  });

  it('when a host name resolves to public addresses, then the first one is pinned', async () => {
    const decision = await guardUrl('https://public.example/x', none, resolvesTo('93.184.216.34'));
    assert.deepEqual(decision, { allowed: true, address: '93.184.216.34', family: 4, viaAllowList: false });
  });

  it('when the host is a cloud metadata name, then it is refused before any DNS lookup unless allow-listed', async () => {
    for (const host of ['metadata.google.internal', 'metadata', 'instance-data', 'metadata.azure.com', 'METADATA.GOOGLE.INTERNAL.']) {
      const decision = await guardUrl(`http://${host}/computeMetadata/v1/`, none, noDns);
      assert.equal(decision.allowed, false, host);
    }
    const allowed = await guardUrl('http://metadata/x', new AllowList('metadata'), resolvesTo('169.254.169.254'));
    assert.equal(allowed.allowed, true);
  });

  it('when an allow-listed host name resolves to loopback, then it is allowed via the allow-list', async () => {
    const decision = await guardUrl('http://receiver.test:8080/', new AllowList('receiver.test'), resolvesTo('127.0.0.1'));
    assert.deepEqual(decision, { allowed: true, address: '127.0.0.1', family: 4, viaAllowList: true });
  });

  it('when the URL is a literal IP, IPv6 in brackets or not http(s), then DNS is never asked', async () => {
    assert.equal((await guardUrl('http://169.254.169.254/latest/meta-data', none, noDns)).allowed, false);
    assert.equal((await guardUrl('http://[::1]:80/', none, noDns)).allowed, false);
    assert.equal((await guardUrl('http://[::ffff:127.0.0.1]/', none, noDns)).allowed, false);
    assert.equal((await guardUrl('file:///etc/passwd', none, noDns)).allowed, false);
    assert.equal((await guardUrl('gopher://127.0.0.1/', none, noDns)).allowed, false);
    assert.equal((await guardUrl('http://8.8.8.8/', none, noDns)).allowed, true);
  });

  it('when resolution fails or answers nothing, then the URL is refused', async () => {
    assert.equal((await guardUrl('http://nowhere.example/', none, noDns)).allowed, false);
    assert.equal((await guardUrl('http://empty.example/', none, async () => [])).allowed, false);
  });
});

test('when allow-list entries name a port, then only that port of that host or address is allowed (no packets sent)', async () => {
  const allow = new AllowList('127.0.0.1:9000 [::1]:9001, hooks.internal:8443 10.0.0.0/8');
  assert.equal(decideAddress('127.0.0.1', allow, 9000).allowed, true);
  assert.equal(decideAddress('127.0.0.1', allow, 9001).allowed, false);
  assert.equal(decideAddress('127.0.0.1', allow).allowed, false, 'no port, no port-scoped entry');
  assert.equal(decideAddress('::ffff:127.0.0.1', allow, 9000).allowed, true, 'the mapped form is the same address');
  assert.equal(decideAddress('::1', allow, 9001).allowed, true);
  assert.equal(decideAddress('0:0:0:0:0:0:0:1', allow, 9001).allowed, true);
  assert.equal(decideAddress('::1', allow, 9000).allowed, false);
  assert.equal(decideAddress('10.1.2.3', allow, 1).allowed, true, 'an entry without a port allows every port');
  assert.deepEqual(allow.ipEntries, ['10.0.0.0/8'], 'port-scoped entries never reach the connect-time filter as allow-all');
  const resolver: Resolver = async () => [{ address: '10.9.9.9', family: 4 }];
  const loopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
  assert.equal((await guardUrl('http://127.0.0.1:9000/x', allow, resolver)).allowed, true);
  assert.equal((await guardUrl('http://127.0.0.1:9002/x', allow, resolver)).allowed, false);
  assert.equal((await guardUrl('http://127.0.0.1/x', allow, resolver)).allowed, false, 'default port 80');
  assert.equal((await guardUrl('http://[::1]:9001/x', allow, resolver)).allowed, true);
  assert.equal((await guardUrl('https://hooks.internal:8443/x', allow, loopback)).allowed, true);
  assert.equal((await guardUrl('https://hooks.internal/x', allow, loopback)).allowed, false, 'default port 443');
  assert.equal((await guardUrl('http://127.0.0.1:9000@evil.example:80/x', allow, loopback)).allowed, false, 'userinfo does not fool the port');
});

test('when a literal-IP URL is checked again, then the remembered decision stays per port and per allow-list', async () => {
  const allow = new AllowList('127.0.0.1:9000');
  for (let round = 0; round < 3; round += 1) {
    assert.equal((await guardUrl('http://127.0.0.1:9000/a', allow, noDns)).allowed, true, `round ${round}: the allowed port`);
    assert.equal((await guardUrl('http://127.0.0.1:9001/b', allow, noDns)).allowed, false, `round ${round}: another port`);
    assert.equal((await guardUrl('http://127.0.0.1/c', allow, noDns)).allowed, false, `round ${round}: the default port`);
  }
  assert.equal((await guardUrl('http://127.0.0.1:9000/a', none, noDns)).allowed, false, 'another allow-list decides afresh');
});

test('when a URL was not decided yet, or names a host, then nothing is remembered for it (the guard must run)', async () => {
  const allow = new AllowList('127.0.0.1:9000 receiver.test');
  assert.equal(rememberedDecision(new URL('http://127.0.0.1:9000/a'), allow), undefined);
  await guardUrl('http://127.0.0.1:9000/a', allow, noDns);
  assert.equal(rememberedDecision(new URL('http://127.0.0.1:9000/other'), allow)?.allowed, true, 'the same origin');
  assert.equal(rememberedDecision(new URL('https://127.0.0.1:9000/a'), allow), undefined, 'another scheme');
  await guardUrl('http://receiver.test:9000/', allow, resolvesTo('127.0.0.1'));
  assert.equal(rememberedDecision(new URL('http://receiver.test:9000/'), allow), undefined, 'host names are resolved every time');
});
