// For reference: the bare proxy's job done by http-proxy-middleware 3 (the forwarder the project first
// used), with the settings it needs to be fast (a keep-alive agent, no x-forwarded headers). Its row shows
// what that library alone costs per request; the gateway forwards with undici instead (src/edge/rpc/forwarder.ts).
//
// Run as a child process by the benchmark (`node bench/hpm-proxy.js <upstream-url>`).

import { Agent, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { isMain, serveControl } from './control.js';

if (isMain(import.meta.url)) {
  const upstream = process.argv[2];
  if (!upstream) throw new Error('usage: hpm-proxy.ts <upstream-url>');
  // The same pool settings as the bare proxy.
  const agent = new Agent({ keepAlive: true, keepAliveMsecs: 1000, maxSockets: 256, maxFreeSockets: 64, timeout: 4000, scheduling: 'lifo' });
  const proxy = createProxyMiddleware({ target: upstream, agent, changeOrigin: true, xfwd: false });
  const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    void proxy(req, res, () => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"error":"bad gateway"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  serveControl(
    { url, pid: process.pid },
    { stats: () => ({ rss: process.memoryUsage().rss, maxRss: process.resourceUsage().maxRSS * 1024 }) },
    async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
      return { maxRss: process.resourceUsage().maxRSS * 1024 };
    },
  );
}
