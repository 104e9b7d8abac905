// Summarises a V8 .cpuprofile (node --cpu-prof): top functions by self time, and self time by area
// (the project's files, each npm package, node internals, GC, idle).
//
// Usage: tsx bench/profile-summary.ts FILE.cpuprofile [top]

import { readFileSync } from 'node:fs';
import { isMain, PROJECT_ROOT } from './control.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

function shortUrl(url: string): string {
  let u = url.replace(/^file:\/\//, '');
  if (u.startsWith(PROJECT_ROOT)) u = u.slice(PROJECT_ROOT.length + 1);
  // Children run from a transpiled copy (build.ts): show its files by their project paths.
  return u.replace(/^.*\/dlgw-bench-build-[^/]+\//, '');
}

function areaOf(url: string, fn: string): string {
  if (fn === '(idle)') return '(idle)';
  if (fn === '(garbage collector)') return '(garbage collector)';
  if (fn === '(program)' || fn === '(root)') return '(program)';
  const u = shortUrl(url);
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u);
  if (pkg) return `npm:${pkg[1]}`;
  if (u.startsWith('src/')) return u.split('/').slice(0, 2).join('/');
  if (u.startsWith('node:') || u === '') return 'node internals / native';
  return u.split('/').slice(0, 2).join('/');
}

export function summariseProfile(path: string, top = 25): string {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const id = samples[i] as number;
    // timeDeltas[i] is the time before sample i; attribute the following delta to this sample.
    const dt = (deltas[i + 1] ?? 0) as number;
    selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
  }
  const byFunction = new Map<string, { us: number; fn: string; where: string }>();
  const byArea = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const fn = functionName || '(anonymous)';
    total += us;
    if (fn === '(idle)') idle += us;
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
    const key = `${fn}\0${where}`;
    const entry = byFunction.get(key) ?? { us: 0, fn, where };
    entry.us += us;
    byFunction.set(key, entry);
    const area = areaOf(url, fn);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
  }
  const busy = total - idle;

  // Total (inclusive) time of the project's and the npm packages' functions: each sample counts once for
  // every distinct function on its stack.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, { us: number; fn: string; where: string }>();
  for (const [id, us] of selfUs) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const node = byId.get(cur);
      if (!node) break;
      const { functionName, url, lineNumber } = node.callFrame;
      const area = areaOf(url, functionName);
      if (!area.startsWith('src/') && !area.startsWith('npm:') && !area.startsWith('bench/')) continue;
      const where = `${shortUrl(url)}:${lineNumber + 1}`;
      const key = `${functionName}\0${where}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const entry = inclusive.get(key) ?? { us: 0, fn: functionName || '(anonymous)', where };
      entry.us += us;
      inclusive.set(key, entry);
    }
  }
  const pct = (us: number) => `${((100 * us) / Math.max(1, busy)).toFixed(1).padStart(5)}%`;
  const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms`;
  const lines: string[] = [];
  lines.push(`profile ${path}`);
  lines.push(`wall ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s, busy (not idle) ${(busy / 1e6).toFixed(1)} s; percentages are of busy time`);
  lines.push('', 'self time by area:');
  for (const [area, us] of [...byArea].filter(([a]) => a !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, 15)) {
    lines.push(`  ${ms(us)} ${pct(us)}  ${area}`);
  }
  lines.push('', `top ${top} functions by self time:`);
  for (const e of [...byFunction.values()].filter((e) => e.fn !== '(idle)').sort((a, b) => b.us - a.us).slice(0, top)) {
    lines.push(`  ${ms(e.us)} ${pct(e.us)}  ${e.fn}  ${e.where}`);
  }
  lines.push('', `top ${top} project and npm functions by total time (callees included):`);
  for (const e of [...inclusive.values()].sort((a, b) => b.us - a.us).slice(0, top)) {
    lines.push(`  ${ms(e.us)} ${pct(e.us)}  ${e.fn}  ${e.where}`);
  }
  return lines.join('\n');
}

if (isMain(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: tsx bench/profile-summary.ts FILE.cpuprofile [top]');
    process.exit(2);
  }
  console.log(summariseProfile(file, Number(process.argv[3] ?? 25)));
}
