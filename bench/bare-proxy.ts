// The floor any Node gateway pays: a node:http server that forwards every request to one upstream with
// http.request on a keep-alive Agent and pipes the bodies both ways. No parsing, no validation, no routing.
//
// Run as a child process by the benchmark (`node --import tsx bench/bare-proxy.ts <upstream-url>`), or
// import createBareProxy.

import { Agent, type IncomingHttpHeaders, type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isMain, serveControl } from './control.js';

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out = { ...headers };
  for (const name of HOP_BY_HOP) delete out[name];
  return out;
}

export interface BareProxy {
  readonly server: Server;
  readonly agent: Agent;
  listen(port: number, host: string): Promise<string>;
  close(): Promise<void>;
}

export function createBareProxy(upstream: string): BareProxy {
  const target = new URL(upstream);
  // Same pool settings as the gateway's forwarder (src/edge/rpc/forwarder.ts), so the floor is comparable.
  const agent = new Agent({ keepAlive: true, keepAliveMsecs: 1000, maxSockets: 256, maxFreeSockets: 64, timeout: 4000, scheduling: 'lifo' });
  const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    const headers = withoutHopByHop(req.headers);
    headers.host = target.host;
    const upstreamReq = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent },
      (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode ?? 502, withoutHopByHop(upstreamRes.headers));
        upstreamRes.pipe(res);
        upstreamRes.on('error', () => res.destroy());
      },
    );
    upstreamReq.on('error', () => {
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end('{"error":"bad gateway"}');
      } else res.destroy();
    });
    res.once('close', () => {
      if (!res.writableFinished) upstreamReq.destroy();
    });
    req.pipe(upstreamReq);
  });
  return {
    server,
    agent,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve(`http://${host}:${(server.address() as AddressInfo).port}`);
        });
      });
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      });
    },
  };
}

if (isMain(import.meta.url)) {
  const upstream = process.argv[2];
  if (!upstream) throw new Error('usage: bare-proxy.ts <upstream-url>');
  const proxy = createBareProxy(upstream);
  const url = await proxy.listen(0, '127.0.0.1');
  serveControl(
    { url, pid: process.pid },
    { stats: () => ({ rss: process.memoryUsage().rss, maxRss: process.resourceUsage().maxRSS * 1024 }) },
    async () => {
      await proxy.close();
      return { maxRss: process.resourceUsage().maxRSS * 1024 };
    },
  );
}
