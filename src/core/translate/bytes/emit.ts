// Writes the skeleton back as a list of byte slices: untouched spans are views of the source (no copy), separators
// between neighbours that stayed neighbours are copied with them, and only what an operation wrote is serialised.

import { ARR, GONE, type Node, OBJ, RAW, VAL } from './node.js';

class Out {
  readonly chunks: Buffer[] = [];
  length = 0;
  private a = -1;
  private b = -1;
  private text = '';
  constructor(private readonly src: Buffer) {}

  span(a: number, b: number): void {
    if (this.text !== '') this.flushText();
    if (a === this.b) this.b = b;
    else {
      this.flushSpan();
      this.a = a;
      this.b = b;
    }
  }

  lit(s: string): void {
    this.flushSpan();
    this.text += s;
  }

  private flushSpan(): void {
    if (this.a < 0) return;
    if (this.b > this.a) this.add(this.src.subarray(this.a, this.b));
    this.a = this.b = -1;
  }

  private flushText(): void {
    this.add(Buffer.from(this.text));
    this.text = '';
  }

  private add(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  done(): Buffer[] {
    this.flushSpan();
    if (this.text !== '') this.flushText();
    return this.chunks;
  }
}

/** Marks every container with a changed node below it as changed (so an unchanged one is copied whole). */
export function settle(n: Node): boolean {
  if (n.t === RAW) return false;
  if (n.t === VAL) return true;
  let changed = n.changed || n.s < 0;
  for (const k of n.kids) if (k !== undefined && k !== GONE && settle(k)) changed = true;
  n.changed = changed;
  return changed;
}

/** What a written value serialises to (undefined: a member left out, as JSON.stringify leaves it). */
const written = (n: Node): string | undefined => JSON.stringify(n.v);

function container(out: Out, n: Node): void {
  const isObj = n.t === OBJ;
  let prev = -2; // the source index of the last member written (-2: none, or a new one)
  let last = -1; // its index in the node
  let wrote = false;
  for (let i = 0; i < n.kids.length; i++) {
    const kid = n.kids[i];
    if (kid === GONE) continue;
    const text = kid?.t === VAL ? written(kid) : '';
    if (text === undefined && isObj) continue;
    const o = n.origOf(i);
    if (!wrote) {
      if (o === 0) out.span(n.s, isObj ? (n.kAt[0] as number) : (n.vAt[0] as number));
      else out.lit(isObj ? '{' : '[');
    } else if (o >= 0 && o === prev + 1) out.span(n.vEnd[last] as number, isObj ? (n.kAt[i] as number) : (n.vAt[i] as number));
    else out.lit(',');
    if (isObj) {
      if (o >= 0) out.span(n.kAt[i] as number, n.vAt[i] as number);
      else out.lit(`${JSON.stringify(n.keys[i])}:`);
    }
    if (kid === undefined) out.span(n.vAt[i] as number, n.vEnd[i] as number);
    else if (kid.t === VAL) out.lit(text ?? 'null');
    else value(out, kid);
    prev = o >= 0 ? o : -2;
    last = i;
    wrote = true;
  }
  if (!wrote) out.lit(isObj ? '{}' : '[]');
  else if (prev >= 0 && prev === n.count - 1 && n.s >= 0) out.span(n.vEnd[last] as number, n.e);
  else out.lit(isObj ? '}' : ']');
}

function value(out: Out, n: Node): void {
  if (n.t === RAW || (!n.changed && n.s >= 0)) out.span(n.s, n.e);
  else if (n.t === VAL) out.lit(JSON.stringify(n.v) ?? 'null');
  else if (n.t === OBJ || n.t === ARR) container(out, n);
}

/** The document's bytes, as slices (views of `src` where untouched). */
export function emit(src: Buffer, root: Node): { chunks: Buffer[]; length: number } {
  settle(root);
  const out = new Out(src);
  value(out, root);
  const chunks = out.done();
  return { chunks, length: out.length };
}
