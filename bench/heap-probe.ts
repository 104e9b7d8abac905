// Where the gateway's memory goes, phase by phase: one backend and one gateway child (the bench's, from transpiled
// JavaScript), then for each ROW:SECONDS argument that much load of one of the main gateway's rows (latest, get,
// create, pass, page, walk: the gw- rows of run.ts), printing after each the RSS, its peak, the heap spaces, the
// collections so far and the CPU used, and the RSS top sampled every 20 ms during the phase (RssAnon/RssFile).
// `one:ROW` and `ten:ROW` send 1 or 10 requests instead (the first request alone showed the 35 MB WebAssembly
// compile); `idle:SECONDS` waits without load and prints the same. TRAIL=1 prints every sample.
// Usage: npx tsx bench/heap-probe.ts [--node-options="FLAGS"] [--snapshot DIR] one:latest latest:5 walk:5 ...
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { transpileForBench } from './build.js';
import { killAllChildren, startNodeChild } from './control.js';
import { blast, once, type Target } from './load.js';
import { HEAD } from '../test/helpers/calendar.js';
import { REPORT_CONTENT, REPORT_DESCRIPTION } from '../test/helpers/head-shapes.js';

const { values, positionals } = parseArgs({ options: { 'node-options': { type: 'string' }, snapshot: { type: 'string' } }, allowPositionals: true });
const MIB = 1024 * 1024;
const JSON_HEADERS = { 'content-type': 'application/json', authorization: 'Bearer bench-client-0123456789abcdef' };
const build = transpileForBench();
try {
  const backend = await startNodeChild('backend', 'bench/backend-process.ts', { compiledDir: build.dir });
  const b = backend.ready.url as string;
  const created = await once({ url: `${b}/rpc/createReport`, headers: { ...JSON_HEADERS, 'x-dl-api-version': String(HEAD), 'x-dl-client-api-version': '1' }, body: JSON.stringify({ workbookId: 'wb_demo_marketing', [REPORT_CONTENT]: { a: 1 }, [REPORT_DESCRIPTION]: 'bench', legacyKey: 'reports/marketing/bench-get' }) });
  const reportId = JSON.parse(created.text).id as string;
  const gw = await startNodeChild('gateway', 'bench/gateway-process.ts', {
    compiledDir: build.dir,
    nodeArgs: ['--expose-gc', ...(values['node-options']?.split(/\s+/).filter(Boolean) ?? [])],
    args: [JSON.stringify({ upstream: b, bodyBytes: 2 * MIB, responseBytes: 65536, log: 'silent' })],
  });
  const g = gw.ready.url as string;
  const v1 = { ...JSON_HEADERS, 'x-dl-api-version': '1' };
  const rows: Record<string, Target> = {
    latest: { name: 'gw-latest', description: '', url: `${g}/rpc/getReport`, headers: { ...JSON_HEADERS, 'x-dl-api-version': 'latest' }, body: JSON.stringify({ reportId }) },
    get: { name: 'gw-v1-get', description: '', url: `${g}/rpc/getReport`, headers: v1, body: JSON.stringify({ reportId }) },
    create: { name: 'gw-v1-create', description: '', url: `${g}/rpc/createReport`, headers: v1, body: JSON.stringify({ key: 'reports/marketing/bench', config: { a: 1 } }) },
    pass: { name: 'gw-passthrough-get', description: '', url: `${g}/ping`, headers: { accept: 'application/json', cookie: 'session=x' }, body: '', method: 'GET' },
    page: { name: 'gw-v1-page', description: '', url: `${g}/rpc/getEntries`, headers: v1, body: JSON.stringify({ page: 3, pageSize: 5 }) },
    walk: { name: 'gw-v1-page-walk', description: '', url: `${g}/rpc/getEntries`, headers: v1, body: JSON.stringify({ page: 3, pageSize: 5 }), freshCaller: true },
  };
  const m = (x: number) => (x / MIB).toFixed(1);
  const show = async (label: string) => {
    const s = await gw.call<any>('stats');
    const sp = await gw.call<Record<string, { size: number; used: number }>>('heapSpaces');
    const gc = await gw.call<any>('gcPauses');
    const cpu = await gw.call<number>('cpu');
    console.log(`${label.padEnd(22)} RSS ${m(s.rss)} peak ${m(Math.max(s.peakRss, s.maxRss))} heap ${m(s.heapUsed)}/${m(s.heapTotal)} ext ${m(s.external)} new ${m(sp.new_space!.used)}/${m(sp.new_space!.size)} old ${m(sp.old_space!.used)}/${m(sp.old_space!.size)} code ${m(sp.code_space!.size)} lo ${m(sp.large_object_space!.size)} scav ${gc.minor} full ${gc.major} cpu ${(cpu / 1e6).toFixed(1)}s`);
  };
  await show('start');
  await gw.call('gc');
  await show('start, after gc');
  let i = 0;
  for (const phase of positionals) {
    const [row, secs] = phase.split(':');
    if (row === 'idle') {
      // No load for SECONDS (30 unless given): what the heap gives back by itself.
      const seconds = Number(secs ?? 30);
      await new Promise((r) => setTimeout(r, seconds * 1000));
      await show(`idle ${seconds}s`);
      continue;
    }
    if (row === 'one' || row === 'ten') {
      const t = rows[secs as string] as Target;
      for (let k = 0; k < (row === 'one' ? 1 : 10); k++) await once(t);
      await new Promise((r) => setTimeout(r, 300));
      await show(`${row} ${secs}`);
      continue;
    }
    const t = rows[row as string];
    if (!t) throw new Error(`row? ${row}`);
    const cpu0 = await gw.call<number>('cpu');
    const gc0 = await gw.call<any>('gcPauses');
    const running = blast(t, { connections: 32, durationS: Number(secs ?? 5) });
    let top: any = { rss: 0 };
    const t0 = performance.now();
    const trail: string[] = [];
    let done = false;
    void running.then(() => (done = true));
    while (!done) {
      const s = await gw.call<any>('stats');
      trail.push(`${((performance.now() - t0) / 1000).toFixed(2)}:${m(s.rss)}`);
      if (s.rss > top.rss) top = { ...s, spaces: await gw.call<any>('heapSpaces'), status: readFileSync(`/proc/${gw.pid}/status`, 'utf8').split('\n').filter((l) => /^(RssAnon|RssFile|Threads)/.test(l)).join(' ').replace(/\s+/g, ' ') };
      await new Promise((r) => setTimeout(r, 20));
    }
    const r = await running;
    console.log(`  at the sampled top: RSS ${m(top.rss)} heap ${m(top.heapUsed)}/${m(top.heapTotal)} ext ${m(top.external)} ab ${m(top.arrayBuffers)} new ${m(top.spaces.new_space.size)} old ${m(top.spaces.old_space.size)} ${top.status}`);
    if (process.env.TRAIL) console.log(`  trail ${trail.join(' ')}`);
    console.log(`  after: ${readFileSync(`/proc/${gw.pid}/status`, 'utf8').split('\n').filter((l) => /^(RssAnon|RssFile|Threads)/.test(l)).join(' ').replace(/\s+/g, ' ')}`);
    const [cpu1, gc1] = [await gw.call<number>('cpu'), await gw.call<any>('gcPauses')];
    await show(`${row} ${r.rps.toFixed(0)}/s ${((cpu1 - cpu0) / r.responses).toFixed(0)}µs ${(((gc1.minorMs + gc1.majorMs - gc0.minorMs - gc0.majorMs) * 1000) / r.responses).toFixed(1)}gc`);
    if (values.snapshot) console.log('  snapshot', await gw.call('heapSnapshot', { file: `${values.snapshot}/snap-${++i}-${row}.heapsnapshot` }));
  }
  await gw.call('gc');
  await show('end, after gc');
  await gw.stop();
  await backend.stop();
} finally {
  killAllChildren();
  build.cleanup();
}
