// listen.trustedProxies: behind a trusted proxy the gateway tells the backend about the client the proxy names
// (the rightmost untrusted X-Forwarded-For address, its -Proto, -Host and -Port); from anyone else those headers
// are ignored, as when the list is empty (the default).

import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/load.js';
import { resolveClient, TrustedProxies } from '../../src/edge/http/client-address.js';
import { type AnyUpgradeUpstream, type SeenRequest, startAnyUpgradeUpstream } from '../helpers/any-upgrade-upstream.js';
import { head } from '../helpers/raw-socket.js';
import { CALENDAR, type Stack, startStack } from '../helpers/stack.js';

describe('resolveClient', () => {
  const trusted = new TrustedProxies(['10.0.0.0/8', '127.0.0.1', 'fd00::/8']);
  const peer = (address: string) => ({ address, encrypted: false, localPort: 8080 });
  const headers = { host: 'gw.internal:8080', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'bi.example', 'x-forwarded-port': '443' };

  it('takes the rightmost X-Forwarded-For address that is not a trusted proxy, and the proxy\'s proto, host and port', () => {
    expect(resolveClient(peer('10.1.1.1'), { ...headers, 'x-forwarded-for': '6.6.6.6, 203.0.113.7, 10.2.2.2' }, trusted)).toEqual({
      address: '203.0.113.7',
      proto: 'https',
      host: 'bi.example',
      port: '443',
    });
  });

  it('ignores every X-Forwarded-* of a peer that is not trusted', () => {
    expect(resolveClient(peer('198.51.100.9'), { ...headers, 'x-forwarded-for': '203.0.113.7' }, trusted)).toEqual({
      address: '198.51.100.9',
      proto: 'http',
      host: 'gw.internal:8080',
      port: '8080',
    });
  });

  it('trusts nobody without a list, or with an empty one', () => {
    for (const list of [undefined, new TrustedProxies([])]) {
      expect(resolveClient(peer('127.0.0.1'), { ...headers, 'x-forwarded-for': '203.0.113.7' }, list).address).toBe('127.0.0.1');
    }
  });

  it.each([
    ['every hop trusted: the leftmost', '10.3.3.3, 10.2.2.2', '10.3.3.3'],
    ['no X-Forwarded-For: the proxy itself', undefined, '10.1.1.1'],
    ['an element that is no address stops the walk', '203.0.113.7, junk, 10.2.2.2', '10.2.2.2'],
    ['ports and brackets come off', '[2001:db8::1]:443, 10.2.2.2:80', '2001:db8::1'],
    ['IPv6 proxies', '2001:db8::2, fd00::1', '2001:db8::2'],
  ])('%s', (_name, xff, expected) => {
    const peerAddress = xff?.includes('fd00') ? 'fd00::9' : '10.1.1.1';
    expect(resolveClient(peer(peerAddress), { 'x-forwarded-for': xff }, trusted).address).toBe(expected);
  });

  it('an IPv4-mapped peer is the IPv4 address it maps', () => {
    expect(resolveClient(peer('::ffff:127.0.0.1'), { 'x-forwarded-for': '203.0.113.7' }, trusted).address).toBe('203.0.113.7');
  });

  it('keeps the connection\'s own proto, Host and port where the proxy\'s are not sane', () => {
    const odd = { host: 'gw.internal', 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'gopher', 'x-forwarded-host': 'a b, c', 'x-forwarded-port': '99999' };
    expect(resolveClient(peer('10.1.1.1'), odd, trusted)).toEqual({ address: '203.0.113.7', proto: 'http', host: 'gw.internal', port: '8080' });
  });
});

describe('the listen.trustedProxies setting', () => {
  const doc = (trustedProxies: unknown) => ({ listen: { trustedProxies }, lifecycle: CALENDAR });

  it('defaults to nobody, and takes addresses and CIDR blocks of both families', () => {
    expect(parseConfig({ lifecycle: CALENDAR }).config.listen.trustedProxies).toEqual([]);
    expect(parseConfig(doc(['10.0.0.0/8', '192.168.1.10', 'fd00::/8', '::1'])).config.listen.trustedProxies).toEqual(['10.0.0.0/8', '192.168.1.10', 'fd00::/8', '::1']);
  });

  it.each(['nginx', '10.0.0.0/33', '10.0.0.0/8/1', '::1/129', '10.0.0.0/'])('refuses %j, naming the key', (entry) => {
    expect(() => parseConfig(doc([entry]))).toThrow(ConfigError);
    expect(() => parseConfig(doc([entry]))).toThrow(/listen\.trustedProxies\.0: an IP address or CIDR block/);
  });

  it('TRUSTED_PROXIES sets it, items separated by commas or spaces, and is named when wrong', () => {
    expect(parseConfig({ lifecycle: CALENDAR }, { TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1 ::1' }).config.listen.trustedProxies).toEqual(['10.0.0.0/8', '127.0.0.1', '::1']);
    expect(() => parseConfig({ lifecycle: CALENDAR }, { TRUSTED_PROXIES: '10.0.0.0/8,nginx' })).toThrow(/TRUSTED_PROXIES \(environment variable, overrides listen\.trustedProxies\.1\): an IP address or CIDR block .*"nginx"/);
  });
});

describe('a gateway trusting 127.0.0.1, called from 127.0.0.1 (a proxy) and from 127.0.0.2 (a client)', () => {
  let upstream: AnyUpgradeUpstream;
  let stack: Stack;

  beforeAll(async () => {
    upstream = await startAnyUpgradeUpstream();
    stack = await startStack({ upstreamUrl: upstream.url, config: { listen: { host: '127.0.0.1', port: 0, trustedProxies: ['127.0.0.1'] }, passthrough: { enabled: true } } });
  });
  afterAll(async () => {
    await stack?.close();
    await upstream?.close();
  });

  let probes = 0;
  /** Sends a request from `from` and returns what the upstream received for it. */
  function send(from: string, method: string, path: string, headers: readonly (readonly [string, string])[], body = ''): Promise<SeenRequest> {
    const id = `trust-${++probes}`;
    const { port } = new URL(stack.url);
    const all = [['host', 'gw.internal'], ['x-request-id', id], ...headers, ...(body ? [['content-length', String(body.length)] as const] : [])] as const;
    return new Promise((resolve, reject) => {
      const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress: from });
      const timer = setTimeout(() => finish(new Error(`${method} ${path} never reached the upstream`)), 5_000);
      const poll = setInterval(() => {
        const seen = upstream.requests.find((r) => r.headers['x-request-id'] === id);
        if (seen) finish(undefined, seen);
      }, 5);
      function finish(error?: Error, seen?: SeenRequest) {
        clearTimeout(timer);
        clearInterval(poll);
        socket.destroy();
        if (seen) resolve(seen);
        else reject(error);
      }
      socket.once('error', (e) => finish(e));
      socket.write(head(`${method} ${path} HTTP/1.1`, all) + body, 'latin1');
    });
  }

  const proxied = [
    ['x-forwarded-for', '6.6.6.6, 203.0.113.7'],
    ['x-forwarded-proto', 'https'],
    ['x-forwarded-host', 'bi.example'],
    ['x-forwarded-port', '443'],
  ] as const;
  const forwarded = (seen: SeenRequest) => ({
    for: seen.headers['x-forwarded-for'],
    proto: seen.headers['x-forwarded-proto'],
    host: seen.headers['x-forwarded-host'],
    port: seen.headers['x-forwarded-port'],
  });
  const rpcHeaders = [['content-type', 'application/json'], ['x-dl-api-version', 'latest']] as const;

  it('pass-through: the proxy\'s client, scheme, host and port', async () => {
    expect(forwarded(await send('127.0.0.1', 'GET', '/page', proxied))).toEqual({ for: '203.0.113.7', proto: 'https', host: 'bi.example', port: '443' });
  });

  it('/rpc: the same client, scheme and port (and no X-Forwarded-Host, as always on /rpc)', async () => {
    const seen = await send('127.0.0.1', 'POST', '/rpc/getWorkbook', [...proxied, ...rpcHeaders], '{"workbookId":"wb_1"}');
    expect(forwarded(seen)).toEqual({ for: '203.0.113.7', proto: 'https', host: undefined, port: '443' });
  });

  it('a WebSocket handshake: the proxy\'s client too', async () => {
    const seen = await send('127.0.0.1', 'GET', '/ws', [...proxied, ['connection', 'upgrade'], ['upgrade', 'websocket'], ['sec-websocket-version', '13'], ['sec-websocket-key', 'dGhlIHNhbXBsZSBub25jZQ==']]);
    expect(forwarded(seen)).toEqual({ for: '203.0.113.7', proto: 'https', host: 'bi.example', port: '443' });
  });

  it('from an address not in the list, the X-Forwarded-* are ignored on both routes', async () => {
    const port = new URL(stack.url).port;
    expect(forwarded(await send('127.0.0.2', 'GET', '/page', proxied))).toEqual({ for: '127.0.0.2', proto: 'http', host: 'gw.internal', port });
    const rpc = await send('127.0.0.2', 'POST', '/rpc/getWorkbook', [...proxied, ...rpcHeaders], '{"workbookId":"wb_1"}');
    expect(forwarded(rpc)).toEqual({ for: '127.0.0.2', proto: 'http', host: undefined, port });
  });
});
