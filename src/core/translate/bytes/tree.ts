// Reading and editing the skeleton as paths.ts reads and edits parsed bodies (same lookups, same edge cases), so that a
// field operation on the bytes gives what it gives on JSON.parse's result.

import type { Segment } from '../../contract-model/field-path.js';
import { ARR, Fallback, GONE, type Node, OBJ, RAW, VAL, isPlainObject, val } from './node.js';
import { type Scanner, emptyTrie } from './scan.js';

export class Tree {
  declare readonly scan: Scanner;
  constructor(scan: Scanner) {
    this.scan = scan;
  }

  /** Whether the node holds a JSON object (a span, an expanded container, or a written value). */
  isObject(n: Node | undefined): n is Node {
    if (n === undefined) return false;
    return n.t === OBJ || (n.t === RAW && this.scan.isRawObject(n)) || (n.t === VAL && isPlainObject(n.v));
  }

  isArray(n: Node | undefined): n is Node {
    if (n === undefined) return false;
    return n.t === ARR || (n.t === RAW && this.scan.isRawArray(n)) || (n.t === VAL && Array.isArray(n.v));
  }

  /** Opens a container node for reading and editing (a span is read one level; a written value is taken apart). */
  open(n: Node): Node {
    if (n.t === RAW) this.scan.expand(n, emptyTrie());
    else if (n.t === VAL) this.materialize(n);
    return n;
  }

  private materialize(n: Node): void {
    const v = n.v;
    n.changed = true;
    if (Array.isArray(v)) {
      n.become(ARR);
      for (const x of v) this.push(n, '', val(x));
    } else {
      n.become(OBJ);
      for (const k of Object.keys(v as object)) this.push(n, k, val((v as Record<string, unknown>)[k]));
    }
    n.v = undefined;
  }

  /** Appends a new member (or element) to an opened container. */
  push(n: Node, key: string, kid: Node): void {
    n.live++;
    n.tag = undefined;
    if (n.index?.has(key)) n.index.set(key, -2);
    else n.index?.set(key, n.keys.length);
    n.keys.push(key);
    n.kEnd.push(-1);
    n.kAt.push(-1);
    n.vAt.push(-1);
    n.vEnd.push(-1);
    n.kids.push(kid);
    n.changed = true;
  }

  /** The index of a member of an object node (opened), -1 when absent. */
  indexOf(o: Node, key: string): number {
    this.open(o);
    // A key the trie names was interned on the pass (a string compare); members added since carry their key.
    if (o.named?.has(key) || o.s < 0) {
      let at = -1;
      for (let i = 0; i < o.keys.length; i++) {
        if (o.keys[i] !== key || o.kids[i] === GONE) continue;
        // JSON.parse keeps the last of two equal keys; an edit of one would leave the other: the buffered path decides.
        if (at !== -1) throw new Fallback('duplicate-key', `duplicate key ${JSON.stringify(key)}`);
        at = i;
      }
      return at;
    }
    let index = o.index;
    if (index === undefined) {
      index = new Map();
      for (let i = 0; i < o.keys.length; i++) {
        if (o.kids[i] === GONE) continue;
        const k = this.keyOf(o, i);
        index.set(k, index.has(k) ? -2 : i);
      }
      o.index = index;
    }
    const at = index.get(key);
    // JSON.parse keeps the last of two equal keys; an edit of one would leave the other: the buffered path decides.
    if (at === -2) throw new Fallback('duplicate-key', `duplicate key ${JSON.stringify(key)}`);
    return at ?? -1;
  }

  /** Member i's key, decoded once. */
  keyOf(o: Node, i: number): string {
    let k = o.keys[i];
    if (k === undefined) {
      const end = o.kEnd[i] as number;
      k = this.scan.key(o.kAt[i] as number, Math.abs(end), end < 0);
      o.keys[i] = k;
    }
    return k;
  }

  member(o: Node, key: string): Node | undefined {
    const i = this.indexOf(o, key);
    return i === -1 ? undefined : o.kid(i);
  }

  /** Sets a member: in its place when present (as assignment keeps a key's order), at the end otherwise. */
  set(o: Node, key: string, kid: Node): void {
    const i = this.indexOf(o, key);
    if (i === -1) this.push(o, key, kid);
    else {
      o.kids[i] = kid;
      o.tag = undefined;
      o.changed = true;
    }
  }

  /** Removes member i: its place holds GONE, so the other members keep their indexes and source positions. */
  remove(o: Node, i: number): void {
    o.kids[i] = GONE;
    o.live--;
    o.index = undefined;
    o.tag = undefined;
    o.changed = true;
  }

  /** The value a node holds, decoded as JSON.parse decodes it (only for what an operation reads). */
  decode(n: Node): unknown {
    if (n.t === VAL) return n.v;
    if (n.t === RAW) return this.decodeSpan(n);
    if (n.t === ARR) return n.all().map((k) => this.decode(k));
    const out: Record<string, unknown> = {};
    n.keys.forEach((_, i) => {
      if (n.kids[i] === GONE) return;
      const k = this.keyOf(n, i);
      const v = this.decode(n.kid(i));
      if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      else out[k] = v;
    });
    return out;
  }

  /** A span's value: scalars decoded once (a string without escapes read directly), containers parsed afresh. */
  private decodeSpan(n: Node): unknown {
    if (n.decoded) return n.v;
    const b = this.scan.b;
    const c = b[n.s];
    if (c === 0x7b || c === 0x5b) return JSON.parse(b.toString('utf8', n.s, n.e));
    let plain = c === 0x22;
    for (let i = n.s + 1; plain && i < n.e - 1; i++) if (b[i] === 0x5c) plain = false;
    n.v = plain ? b.toString('utf8', n.s + 1, n.e - 1) : JSON.parse(b.toString('utf8', n.s, n.e));
    n.decoded = true;
    return n.v;
  }

  /** Whether the node is JSON null. */
  isNull(n: Node): boolean {
    return n.t === RAW ? this.scan.b[n.s] === 0x6e : n.t === VAL && n.v === null;
  }

  /** Whether the node is the value `undefined` (what fromArray leaves of an empty array). */
  isUndefined(n: Node): boolean {
    return n.t === VAL && n.v === undefined;
  }

  /** A segment's `[tag=value]` filter, as paths.ts's matches (String of the tag's value). */
  matches(seg: Segment, item: Node): boolean {
    if (seg.tag === undefined) return true;
    if (!this.isObject(item)) return false;
    let cached = item.tag;
    if (cached?.key !== seg.tag) {
      const tag = this.member(item, seg.tag);
      cached = { key: seg.tag, text: tag === undefined ? undefined : String(this.decode(tag)) };
      item.tag = cached;
    }
    return cached.text !== undefined && (seg.values ?? []).includes(cached.text);
  }

  /** Every node a path reaches, as paths.ts's collect. */
  collect(body: Node, segments: readonly Segment[]): Node[] {
    const found: Node[] = [];
    const walk = (node: Node, i: number): void => {
      if (i === segments.length) {
        found.push(node);
        return;
      }
      const seg = segments[i] as Segment;
      if ('each' in seg) {
        if (!this.isArray(node)) return;
        this.open(node);
        for (let k = 0; k < node.kids.length; k++) {
          const item = node.kid(k);
          if (this.matches(seg, item)) walk(item, i + 1);
        }
      } else if (this.isObject(node)) {
        const kid = this.member(node, seg.key);
        if (kid !== undefined && this.matches(seg, kid)) walk(kid, i + 1);
      }
    };
    walk(body, 0);
    return found;
  }
}
