// Routing of the public listener outside /rpc: own routes under the prefix, probes in place, and the paths that
// pass-through refuses because a backend would read them as its /rpc.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reachesRpc } from '../../src/edge/passthrough/lenient-path.js';
import { routeOf } from '../../src/edge/server/routes.js';

describe('routeOf', () => {
  it('finds the own routes at the root without a prefix, and only under it with one', () => {
    for (const url of ['/versions', '/json', '/json/', '/1/json/', '/2/json', '/changelog', '/1/', '/1', '/latest/', '/latest/json', '/latest/json/', '/_reference/start.js', '/versions?x=1']) {
      expect(routeOf(url, ''), url).toEqual({ kind: 'own', path: url });
      expect(routeOf(url, '/_gw'), url).toEqual({ kind: 'other' });
      expect(routeOf(`/_gw${url}`, '/_gw'), url).toEqual({ kind: 'own', path: url });
    }
    for (const url of ['/', '/index.html', '/assets/app.js', '/0/', '/01/json', '/versions/x', '/_gwx/versions', '/_reference/', '/_reference/a/b', '/1234567890/', '/+1/json', '/latest/jsonx', '/latest/x', '/changelog/json']) {
      expect(routeOf(url, ''), url).toEqual({ kind: 'other' });
    }
    expect(routeOf('/_gwversions', '/_gw')).toEqual({ kind: 'other' });
  });

  it('keeps /healthz and /readyz at the root whatever the prefix', () => {
    for (const prefix of ['', '/_gw']) {
      expect(routeOf('/healthz', prefix)).toEqual({ kind: 'own', path: '/healthz' });
      expect(routeOf('/readyz?verbose', prefix)).toEqual({ kind: 'own', path: '/readyz?verbose' });
    }
    expect(routeOf('/_gw/healthz', '/_gw')).toEqual({ kind: 'other' });
  });
});

describe('reachesRpc', () => {
  it('lets the web side\'s paths through', () => {
    for (const url of ['/', '/rpcx', '/rpc.js', '/static/rpc/x.js', '/api/rpc', '/a/b/../c', '/x?next=/rpc/getReport', '/%7Euser/']) {
      expect(reachesRpc(url), url).toBe(false);
    }
  });

  // Whatever a WHATWG URL parser (browsers, Node's URL, many frameworks) makes of a path, after percent-decoding
  // and in any letter case: if that is /rpc or under it, pass-through must refuse the path.
  it('refuses every path a URL parser resolves to /rpc, however it is spelled', () => {
    const piece = fc.constantFrom('rpc', 'RPC', 'Rpc', '%72pc', '%52PC', 'r%70c', '.', '..', '%2e', '%2E%2e', 'a', 'assets', '', ';x=1', 'rpc;v=1', '\\', '%2f', '%5c', 'getReport', 'rpc.', '%252e', '%2F', '%5C', 'rpc%2f', '%2e.', '.%2E');
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 6 }), fc.constantFrom('/', '\\'), (pieces, sep) => {
        const url = `/${pieces.join(sep)}`;
        let resolved: string;
        try {
          resolved = decodeURIComponent(new URL(url, 'http://backend.internal').pathname).toLowerCase();
        } catch {
          return; // not a path such a parser accepts
        }
        if (resolved === '/rpc' || resolved.startsWith('/rpc/')) expect(reachesRpc(url), `${url} → ${resolved}`).toBe(true);
      }),
      { numRuns: Number(process.env.ROUTES_RUNS ?? 3000) },
    );
  });
});
