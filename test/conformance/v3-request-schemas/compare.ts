// Where a gateway request schema differs from the real one: one line per difference, `<path>: <what>`, both normalised.

import { BOUND_KEYS, type Node, type Typed } from './normalise.js';

const show = (v: unknown) => JSON.stringify(v);
const sorted = (s: Iterable<string>) => [...s].sort();
const describe = (n: Node): string =>
  n.kind === 'any' ? 'any value' : n.kind === 'alts' ? `one of ${n.alts.length} variants` : n.kind === 'typed' ? sorted(n.types).join('|') || 'untyped' : 'not extracted';

/** Every difference between the real node and the gateway's, under `path`. */
export function compare(real: Node, gateway: Node, path: string, out: string[] = []): string[] {
  if (real.kind === 'not-extracted') return out;
  if (real.kind === 'any') {
    if (gateway.kind !== 'any') out.push(`${path}: any value in the real schema, ${describe(gateway)} in the gateway`);
    return out;
  }
  if (gateway.kind === 'any') {
    out.push(`${path}: ${describe(real)} in the real schema, any value in the gateway`);
    return out;
  }
  if (gateway.kind === 'not-extracted') return out;
  if (real.kind === 'alts' || gateway.kind === 'alts') return compareAlternatives(real, gateway, path, out);
  compareTyped(real, gateway, path, out);
  return out;
}

function compareTyped(real: Typed, gateway: Typed, path: string, out: string[]): void {
  const rt = sorted(real.types).join('|');
  const gt = sorted(gateway.types).join('|');
  if (rt !== gt) out.push(`${path}: type ${rt || 'unnamed'} in the real schema, ${gt || 'unnamed'} in the gateway`);
  if (real.enum || gateway.enum) {
    const re = real.enum ? show([...real.enum].sort()) : 'none';
    const ge = gateway.enum ? show([...gateway.enum].sort()) : 'none';
    if (re !== ge) out.push(`${path}: values ${re} in the real schema, ${ge} in the gateway`);
  }
  for (const key of BOUND_KEYS) {
    if (show(real.bounds[key]) !== show(gateway.bounds[key])) {
      out.push(`${path}: ${key} ${show(real.bounds[key]) ?? 'none'} in the real schema, ${show(gateway.bounds[key]) ?? 'none'} in the gateway`);
    }
  }
  compareObject(real, gateway, path, out);
  compareArray(real, gateway, path, out);
}

function compareObject(real: Typed, gateway: Typed, path: string, out: string[]): void {
  const rp = real.props ?? new Map<string, Node>();
  const gp = gateway.props ?? new Map<string, Node>();
  for (const key of sorted(new Set([...rp.keys(), ...gp.keys()]))) {
    const at = path ? `${path}.${key}` : key;
    const r = rp.get(key);
    const g = gp.get(key);
    if (r && !g) out.push(`${at}: not in the gateway`);
    else if (g && !r) out.push(`${at}: only in the gateway`);
    else if (r && g) compare(r, g, at, out);
    const rr = real.required?.has(key) ?? false;
    const gr = gateway.required?.has(key) ?? false;
    if (rr && !gr) out.push(`${at}: required in the real schema, optional in the gateway`);
    if (gr && !rr) out.push(`${at}: required in the gateway, optional in the real schema`);
  }
  if (!real.types.has('object') && !gateway.types.has('object')) return;
  const ra = real.additional ?? 'open';
  const ga = gateway.additional ?? 'open';
  const self = path || '(body)';
  if (ra === 'closed' && ga !== 'closed') out.push(`${self}: unknown fields refused by the real schema, passed by the gateway`);
  else if (ga === 'closed' && ra !== 'closed') out.push(`${self}: unknown fields refused by the gateway, taken by the real schema`);
  else if (typeof ra === 'object' || typeof ga === 'object') {
    compare(typeof ra === 'object' ? ra : { kind: 'any' }, typeof ga === 'object' ? ga : { kind: 'any' }, `${path}{*}`, out);
  }
}

function compareArray(real: Typed, gateway: Typed, path: string, out: string[]): void {
  if (real.items || gateway.items) compare(real.items ?? { kind: 'any' }, gateway.items ?? { kind: 'any' }, `${path}[]`, out);
  const rp = real.prefixItems ?? [];
  const gp = gateway.prefixItems ?? [];
  if (rp.length !== gp.length) out.push(`${path}: ${rp.length} positional items in the real schema, ${gp.length} in the gateway`);
  else rp.forEach((r, i) => compare(r, gp[i]!, `${path}[${i}]`, out));
}

/** The property whose one value tells the variants apart (`type`, `elementType`, …), when every variant has one. */
function discriminator(variants: readonly Node[]): string | undefined {
  const single = (n: Node, key: string) => {
    const p = n.kind === 'typed' ? n.props?.get(key) : undefined;
    return p?.kind === 'typed' && p.enum?.length === 1 ? String(p.enum[0]) : undefined;
  };
  // Variants the data file leaves out have no say.
  const named = variants.filter((v) => v.kind !== 'not-extracted');
  const first = named[0];
  if (!first || first.kind !== 'typed' || !first.props) return undefined;
  return sorted(first.props.keys()).find((key) => named.every((v) => single(v, key) !== undefined) && new Set(named.map((v) => single(v, key))).size === named.length);
}

function labelOf(n: Node, key: string | undefined, i: number): string {
  const p = key && n.kind === 'typed' ? n.props?.get(key) : undefined;
  return p?.kind === 'typed' && p.enum?.length === 1 ? `${key}=${String(p.enum[0])}` : `#${i + 1}`;
}

/** Each real variant against its gateway counterpart (same discriminator value, else the closest); unmatched ones named. */
function compareAlternatives(real: Node, gateway: Node, path: string, out: string[]): string[] {
  const rv = real.kind === 'alts' ? real.alts : [real];
  const gv = gateway.kind === 'alts' ? gateway.alts : [gateway];
  const rkey = discriminator(rv);
  const gkey = discriminator(gv);
  const used = new Set<number>();
  rv.forEach((r, i) => {
    const label = labelOf(r, rkey, i);
    const sameLabel = rkey !== undefined && rkey === gkey ? gv.findIndex((g, j) => labelOf(g, gkey, j) === label) : -1;
    const candidates = sameLabel >= 0 ? [sameLabel] : gv.map((_, j) => j);
    const scored = candidates.map((j) => ({ j, diffs: compare(r, gv[j]!, `${path}<${label}>`) })).sort((a, b) => a.diffs.length - b.diffs.length);
    const best = scored[0];
    if (!best || (rkey !== undefined && rkey === gkey && sameLabel < 0)) {
      out.push(`${path}<${label}>: variant not in the gateway`);
      return;
    }
    used.add(best.j);
    out.push(...best.diffs);
  });
  gv.forEach((g, j) => {
    if (!used.has(j)) out.push(`${path}<${labelOf(g, gkey, j)}>: variant only in the gateway`);
  });
  return out;
}
