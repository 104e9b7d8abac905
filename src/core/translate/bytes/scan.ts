// One strict pass over a JSON document's bytes: checks the grammar (as JSON.parse would), expands the containers a trie
// of declared paths reaches into skeleton nodes, and records every other value as a span, never decoding it.

import { ARR, Fallback, MAX_DEPTH, Node, OBJ, RAW, bytesOf, raw, sameBytes } from './node.js';

/** The keys and array steps declared paths go through (filters left out: they are checked on the skeleton). */
export interface Trie {
  readonly keys: Map<string, Trie>;
  each?: Trie;
  /** The keys' bytes beside their subtries, made on first use (the scan compares bytes, allocating nothing). */
  wanted?: { readonly names: readonly string[]; readonly bytes: readonly Buffer[]; readonly subs: readonly (Trie | undefined)[] };
  /** Keys looked up in these objects without going further (filter tags, defaults, conditions): named, not expanded. */
  readonly leaves: Set<string>;
  /** Every key named here (keys and leaves), made on first use. */
  named?: ReadonlySet<string>;
}
export const emptyTrie = (): Trie => ({ keys: new Map(), leaves: new Set() });

const Q = 0x22;
const BS = 0x5c;
const isWs = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');
const ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const invalid = (at: number): never => {
  throw new Fallback('invalid-json', `invalid JSON at byte ${at}`);
};

export class Scanner {
  declare readonly b: Buffer;
  /** Set when a string read since the last reset held an escape (keys with one are decoded by JSON.parse). */
  declare escaped: boolean;
  constructor(bytes: Uint8Array) {
    this.escaped = false;
    this.b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  ws(i: number): number {
    const b = this.b;
    while (i < b.length && isWs(b[i] as number)) i++;
    return i;
  }

  /** The end of the string starting at `i` (its opening quote), escapes and control characters checked. */
  string(i: number): number {
    const b = this.b;
    const n = b.length;
    for (let j = i + 1; j < n; j++) {
      const c = b[j] as number;
      if (c === Q) return j + 1;
      if (c === BS) {
        this.escaped = true;
        const x = b[++j] as number;
        if (x === 0x75) {
          if (!(isHex(b[j + 1] as number) && isHex(b[j + 2] as number) && isHex(b[j + 3] as number) && isHex(b[j + 4] as number))) invalid(j);
          j += 4;
        } else if (!ESCAPES.has(x)) invalid(j);
      } else if (c < 0x20) invalid(j);
    }
    return invalid(n);
  }

  /** The end of the number starting at `i`: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)? */
  number(i: number): number {
    const b = this.b;
    if (b[i] === 0x2d) i++;
    if (b[i] === 0x30) i++;
    else if (isDigit(b[i] as number)) while (isDigit(b[i] as number)) i++;
    else invalid(i);
    if (b[i] === 0x2e) {
      if (!isDigit(b[++i] as number)) invalid(i);
      while (isDigit(b[i] as number)) i++;
    }
    if (b[i] === 0x65 || b[i] === 0x45) {
      i++;
      if (b[i] === 0x2b || b[i] === 0x2d) i++;
      if (!isDigit(b[i] as number)) invalid(i);
      while (isDigit(b[i] as number)) i++;
    }
    return i;
  }

  /** The end of a scalar (string, number, true, false, null) starting at `i`. */
  scalar(i: number): number {
    const b = this.b;
    const c = b[i] as number;
    if (c === Q) return this.string(i);
    if (c === 0x2d || isDigit(c)) return this.number(i);
    const word = c === 0x74 ? TRUE : c === 0x66 ? FALSE : c === 0x6e ? NULL : undefined;
    if (word === undefined || !sameBytes(b, i, word)) invalid(i);
    return i + (word as Buffer).length;
  }

  /** The end of the value at `i` (after whitespace), every byte checked; `d` is the nesting of its holder. */
  skip(i: number, d: number): number {
    const b = this.b;
    const stack: number[] = [];
    let expectKey = false;
    for (;;) {
      // A value (or, in an object, a key and its colon first).
      i = this.ws(i);
      if (expectKey) {
        if (b[i] !== Q) invalid(i);
        i = this.ws(this.string(i));
        if (b[i] !== 0x3a) invalid(i);
        i = this.ws(i + 1);
      }
      const c = b[i];
      if (c === 0x7b || c === 0x5b) {
        if (d + stack.length + 1 > MAX_DEPTH) throw new Fallback('too-deep');
        const j = this.ws(i + 1);
        if (b[j] === (c === 0x7b ? 0x7d : 0x5d)) i = j + 1;
        else {
          stack.push(c);
          expectKey = c === 0x7b;
          i = j;
          continue;
        }
      } else i = this.scalar(i);
      // After a value: a comma goes on, a closing bracket ends containers, the end of the first value returns.
      for (;;) {
        if (stack.length === 0) return i;
        i = this.ws(i);
        const top = stack[stack.length - 1];
        if (b[i] === 0x2c) {
          expectKey = top === 0x7b;
          i++;
          break;
        }
        if (b[i] !== (top === 0x7b ? 0x7d : 0x5d)) invalid(i);
        stack.pop();
        i++;
      }
    }
  }

  /** The key of the string at [s, e): its text, decoded exactly (JSON.parse) when it holds an escape. */
  key(s: number, e: number, escaped: boolean): string {
    return escaped ? (JSON.parse(this.b.toString('utf8', s, e)) as string) : this.b.toString('utf8', s + 1, e - 1);
  }

  /** The value at `i` (after whitespace): expanded when the trie goes into it, a span otherwise. */
  value(i: number, d: number, trie: Trie | undefined): Node {
    const c = this.b[i];
    if (trie !== undefined && (c === 0x7b || c === 0x5b)) {
      const n = raw(i, -1, d);
      this.expand(n, trie);
      return n;
    }
    return raw(i, this.skip(i, d), d);
  }

  /** Which of the trie's named keys the key at [s, e) is (its index in `wanted`), -1 for none; escaped keys decoded. */
  private trieKey(w: NonNullable<Trie['wanted']>, s: number, e: number, escaped: boolean): number {
    if (escaped) return w.names.indexOf(this.key(s, e, true));
    const b = this.b;
    const length = e - s - 2;
    for (let k = 0; k < w.bytes.length; k++) {
      const want = w.bytes[k] as Buffer;
      if (length === want.length && sameBytes(b, s + 1, want)) return k;
    }
    return -1;
  }

  /** The trie's named keys, their bytes and subtries, made once per trie node. */
  static wanted(trie: Trie): NonNullable<Trie['wanted']> {
    if (trie.wanted) return trie.wanted;
    const names = [...new Set([...trie.keys.keys(), ...trie.leaves])];
    trie.wanted = { names, bytes: names.map(bytesOf), subs: names.map((k) => trie.keys.get(k)) };
    trie.named = new Set(names);
    return trie.wanted;
  }

  /** Reads a member's value at `i` into `n`: a node when the trie goes into it, only its span otherwise; its end. */
  private place(n: Node, i: number, trie: Trie | undefined): number {
    const c = this.b[i];
    let kid: Node | undefined;
    let end: number;
    // A container is read member by member only when a path goes further into it (or names keys in it).
    if (trie !== undefined && (c === 0x7b || c === 0x5b) && (trie.keys.size > 0 || trie.each !== undefined || trie.leaves.size > 0)) {
      kid = raw(i, -1, n.d + 1);
      this.expand(kid, trie);
      end = kid.e;
    } else end = c === 0x7b || c === 0x5b ? this.skip(i, n.d + 1) : this.scalar(i);
    n.vAt.push(i);
    n.vEnd.push(end);
    n.kids.push(kid);
    return end;
  }

  /** Upgrades a span holding a container into a container node, its members read (and expanded along `trie`). */
  expand(n: Node, trie: Trie): void {
    if (n.d + 1 > MAX_DEPTH) throw new Fallback('too-deep');
    if (this.b[n.s] === 0x7b) this.members(n, trie);
    else this.elements(n, trie);
  }

  private members(n: Node, trie: Trie): void {
    const b = this.b;
    n.become(OBJ);
    const w = Scanner.wanted(trie);
    n.named = trie.named;
    let i = this.ws(n.s + 1);
    if (b[i] === 0x7d) i++;
    else {
      for (;;) {
        if (b[i] !== Q) invalid(i);
        this.escaped = false;
        const ke = this.string(i);
        const esc = this.escaped;
        let j = this.ws(ke);
        if (b[j] !== 0x3a) invalid(j);
        j = this.ws(j + 1);
        const named = w.names.length === 0 ? -1 : this.trieKey(w, i, ke, esc);
        const end = this.place(n, j, named === -1 ? undefined : w.subs[named]);
        n.keys.push(named === -1 ? undefined : w.names[named]);
        n.kAt.push(i);
        n.kEnd.push(esc ? -ke : ke);
        i = this.ws(end);
        if (b[i] === 0x2c) i = this.ws(i + 1);
        else if (b[i] === 0x7d) {
          i++;
          break;
        } else invalid(i);
      }
    }
    n.count = n.live = n.kids.length;
    n.e = i;
  }

  private elements(n: Node, trie: Trie): void {
    const b = this.b;
    n.become(ARR);
    let i = this.ws(n.s + 1);
    if (b[i] === 0x5d) i++;
    else {
      for (;;) {
        i = this.ws(this.place(n, i, trie.each));
        if (b[i] === 0x2c) i = this.ws(i + 1);
        else if (b[i] === 0x5d) {
          i++;
          break;
        } else invalid(i);
      }
    }
    n.count = n.live = n.kids.length;
    n.e = i;
  }

  /** The whole document: one value, whitespace around it, nothing else. */
  document(trie: Trie): Node {
    const start = this.ws(0);
    if (start >= this.b.length) invalid(start);
    const root = this.value(start, 0, trie);
    if (this.ws(root.e) !== this.b.length) invalid(root.e);
    return root;
  }

  /** Whether a node still a span holds an object (or an array). */
  isRawObject(n: Node): boolean {
    return n.t === RAW && this.b[n.s] === 0x7b;
  }

  isRawArray(n: Node): boolean {
    return n.t === RAW && this.b[n.s] === 0x5b;
  }
}
