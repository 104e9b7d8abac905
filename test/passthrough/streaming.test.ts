// Large bodies through pass-through, with the gateway in its own process (`serve`) so that its memory can be
// read from /proc: a download of 50 MiB or more to a client that stops reading, and a 20 MiB upload to an upstream that
// stops reading. In both the gateway holds only what socket buffers hold (the reader's pause reaches the
// writer), its resident memory stays flat, and every byte arrives.

import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServeProcess, configDoc, startServeProcess, tempDir, yamlOf } from '../helpers/serve-process.js';
import { BLOCK, type WebUpstream, downloadSha, startWebUpstream } from '../helpers/web-upstream.js';

const MiB = 1024 * 1024;
/** The largest a socket's kernel buffer may grow to (tcp_rmem/tcp_wmem's third field), or `fallback`. */
const kernelMax = (name: string, fallback: number): number => {
  try {
    return Number(readFileSync(`/proc/sys/net/ipv4/${name}`, 'utf8').trim().split(/\s+/)[2]) || fallback;
  } catch {
    return fallback;
  }
};
/**
 * What the kernel's socket buffers on both hops may hold when a reader stops: per hop, a receive and a send buffer at
 * the size the kernel may grow them to (loopback autotuning grew them to 27 MiB in all under a loaded machine here,
 * with tcp_rmem's maximum at 32 MiB). A gateway that buffered would let the writer finish the whole download instead.
 */
const IN_FLIGHT_LIMIT = 2 * (kernelMax('tcp_rmem', 6 * MiB) + kernelMax('tcp_wmem', 4 * MiB));
/** Twice what the buffers may hold, so that a writer that comes to a stop proves the gateway held back. */
const DOWNLOAD = Math.max(50 * MiB, 2 * IN_FLIGHT_LIMIT);
const UPLOAD = 20 * MiB;
/**
 * Growth of the gateway's resident memory over its warmed-up baseline that still counts as flat. V8 frees the
 * buffers of bytes already passed on at its next collection, which it schedules after some tens of MiB of them
 * (34 MiB measured here for either transfer): the bound is above that and does not grow with the body's size.
 */
const RSS_GROWTH_LIMIT = 48 * MiB;
/**
 * While the reader has stopped, the bytes in flight sit in kernel socket buffers, not in the gateway's memory:
 * its growth stays small (0–9 MiB measured on a quiet machine; 29 MiB once under a heavily loaded one, buffers
 * already passed on and not yet collected), where a gateway that read the download ahead would hold all 50 MiB.
 */
const STALLED_DOWNLOAD_RSS_GROWTH_LIMIT = 36 * MiB;
/** The same for the 20 MiB upload: a gateway that read it ahead would hold all of it. */
const STALLED_UPLOAD_RSS_GROWTH_LIMIT = 16 * MiB;

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** Waits until `value()` stops changing for a few polls in a row (bounded: about 5 s), and returns it. */
async function settled(value: () => number): Promise<number> {
  let last = -1;
  let same = 0;
  for (let i = 0; i < 100 && same < 4; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const now = value();
    same = now === last ? same + 1 : 0;
    last = now;
  }
  return last;
}

describe('large bodies streamed through pass-through', () => {
  let web: WebUpstream;
  let gateway: ServeProcess;
  let baseline = 0;
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, rssOf(gateway.child.pid!));
  };

  beforeAll(async () => {
    web = await startWebUpstream();
    const dir = tempDir('dlgw-stream-');
    const path = join(dir, 'gateway.yaml');
    writeFileSync(
      path,
      yamlOf(configDoc({ upstreamUrl: web.url, extra: { passthrough: { enabled: true }, upstream: { url: web.url, timeoutMs: 60_000 } } })),
    );
    gateway = await startServeProcess(path);
    // Warm up (code paths compiled, pools made) before the baseline.
    for (let i = 0; i < 3; i++) {
      await (await fetch(`${gateway.url}/download?bytes=${MiB}`)).arrayBuffer();
      await fetch(`${gateway.url}/upload`, { method: 'POST', body: Buffer.alloc(MiB) }).then((r) => r.text());
    }
    baseline = rssOf(gateway.child.pid!);
    peak = baseline;
  }, 60_000);
  afterAll(async () => {
    await gateway?.kill();
    await web?.close();
  });

  it('streams a large download to a client that stops reading, holding no more than socket buffers', { timeout: 60_000 }, async () => {
    const before = rssOf(gateway.child.pid!);
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(`${gateway.url}/download?bytes=${DOWNLOAD}`, resolve);
      req.on('error', reject);
      req.end();
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(DOWNLOAD));
    const hash = createHash('sha256');
    let received = 0;
    const take = (chunk: Buffer) => {
      hash.update(chunk);
      received += chunk.length;
    };
    // Read one chunk, then nothing: the upstream must come to a stop with the bytes in flight bounded.
    await new Promise<void>((resolve) => res.once('data', (c: Buffer) => (take(c), res.pause(), resolve())));
    const sentWhilePaused = await settled(() => web.downloadSent());
    sample();
    expect(rssOf(gateway.child.pid!) - before).toBeLessThan(STALLED_DOWNLOAD_RSS_GROWTH_LIMIT);
    expect(sentWhilePaused).toBeLessThan(DOWNLOAD);
    expect(sentWhilePaused - received).toBeLessThan(IN_FLIGHT_LIMIT);
    console.log(`download: ${sentWhilePaused - received} bytes in flight while the client paused; RSS +${rssOf(gateway.child.pid!) - before}`);

    // Then read it all, sampling the gateway's memory every 5 MiB.
    let nextSample = received + 5 * MiB;
    res.on('data', (c: Buffer) => {
      take(c);
      if (received >= nextSample) {
        sample();
        nextSample += 5 * MiB;
      }
    });
    res.resume();
    await new Promise<void>((resolve, reject) => {
      res.on('end', resolve);
      res.on('error', reject);
    });
    sample();
    expect(received).toBe(DOWNLOAD);
    expect(hash.digest('hex')).toBe(downloadSha(DOWNLOAD));
    expect(peak - baseline, `gateway RSS ${baseline} → peak ${peak}`).toBeLessThan(RSS_GROWTH_LIMIT);
  });

  it('streams a 20 MiB upload to an upstream that stops reading, holding no more than socket buffers', { timeout: 60_000 }, async () => {
    const before = rssOf(gateway.child.pid!);
    const expected = createHash('sha256');
    let written = 0;
    const answer = new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(`${gateway.url}/upload?stallAt=${2 * MiB}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': UPLOAD } }, resolve);
      req.on('error', reject);
      // Written as fast as the gateway takes it: only backpressure slows the writer down.
      const pump = () => {
        while (written < UPLOAD) {
          const chunk = Buffer.alloc(Math.min(BLOCK, UPLOAD - written), (written / BLOCK) & 0xff);
          expected.update(chunk);
          written += chunk.length;
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
        req.end();
      };
      pump();
    });
    // The upstream stopped reading at 2 MiB: the writer must come to a stop with the bytes in flight bounded.
    // (Loopback buffers may hold most of the 20 MiB, so whether the writer stops says little: the gateway's
    // memory says whether it read ahead.)
    const writtenWhileStalled = await settled(() => written);
    sample();
    expect(rssOf(gateway.child.pid!) - before).toBeLessThan(STALLED_UPLOAD_RSS_GROWTH_LIMIT);
    expect(web.uploadReceived()).toBeLessThan(UPLOAD);
    console.log(`upload: ${writtenWhileStalled - web.uploadReceived()} bytes in flight while the upstream stalled; RSS +${rssOf(gateway.child.pid!) - before}`);

    let nextSample = 2 * MiB;
    const onProgress = (n: number) => {
      if (n >= nextSample) {
        sample();
        nextSample += 2 * MiB;
      }
    };
    web.events.on('upload-progress', onProgress);
    web.resumeUploads();
    const res = await answer;
    const body = await new Promise<string>((resolve) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(text));
    });
    web.events.off('upload-progress', onProgress);
    sample();
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(body)).toEqual({ received: UPLOAD, sha256: expected.digest('hex') });
    expect(peak - baseline, `gateway RSS ${baseline} → peak ${peak}`).toBeLessThan(RSS_GROWTH_LIMIT);
    console.log(`gateway RSS: ${baseline} after warm-up, peak ${peak} over both transfers`);
  });
});
