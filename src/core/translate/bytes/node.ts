// The skeleton of a JSON document read from its bytes: only the containers on declared paths are expanded; every
// other value stays a span of the source (kept as written), and what an operation writes is a plain value.

/** Why a document goes to the buffered path instead (counted by the caller). */
export class Fallback extends Error {
  constructor(readonly reason: FallbackReason, detail?: string) {
    super(detail ?? reason);
  }
}
export type FallbackReason = 'invalid-json' | 'too-deep' | 'duplicate-key' | 'not-expressible' | 'migration-threw';

/** The deepest nesting of containers the rewriter reads; deeper documents go to the buffered path. */
export const MAX_DEPTH = 512;

// Shared by every span; never written (a container gets its own lists in become()).
const NONE: never[] = [];

export const RAW = 0;
export const OBJ = 1;
export const ARR = 2;
export const VAL = 3;

/**
 * One value. RAW: the span [s, e) of the source, untouched. OBJ / ARR: a container read member by member (s < 0 when
 * made by an operation); `changed` once an operation edits it. VAL: a value an operation wrote (JSON.stringify'd).
 * A RAW node is upgraded in place when an operation needs to look inside it, so references to it stay valid.
 */
export class Node {
  // Fields are declared, not initialised in place: assigned in the constructor, instances keep one fast shape (native
  // class fields made them several times slower to create and read here, BENCHMARKS.md).
  declare t: number;
  declare s: number;
  declare e: number;
  /** The nesting of the container holding this value (0 for the document itself). */
  declare d: number;
  // Containers get their own lists when opened (open()); a span shares these empty ones and never writes to them.
  /** Members' keys: a source key is decoded only when needed (undefined until then; see Tree.keyOf). */
  declare keys: (string | undefined)[];
  /** Per source member: where its key ends; negative (-end) when the key holds an escape. */
  declare kEnd: number[];
  /** Per member (or element): where its key starts and where its value starts and ends in the source; -1 when new. */
  declare kAt: number[];
  declare vAt: number[];
  declare vEnd: number[];
  /** How many members the source container had (members are never shifted: a removed one becomes GONE). */
  declare count: number;
  /** How many members are not GONE. */
  declare live: number;
  /** The members' values; a span not yet needed is left undefined (made by kid() from vAt and vEnd). */
  declare kids: (Node | undefined)[];
  declare v: unknown;
  /** Key → member index, made on a container's first lookup of a key its trie does not name; dropped when members shift. */
  declare index: Map<string, number> | undefined;
  /** The last filter tag read on this object and the text of its value (String of it), until a member changes. */
  declare tag: { readonly key: string; readonly text: string | undefined } | undefined;
  /** The trie node this container was read with: its members with a key it names hold that key's string in `keys`. */
  declare named: ReadonlySet<string> | undefined;
  /** Set on a span of a scalar once decoded (its value kept in `v`). */
  declare decoded: boolean;
  declare changed: boolean;
  constructor(t: number, s: number, e: number, d: number) {
    this.t = t;
    this.s = s;
    this.e = e;
    this.d = d;
    this.keys = NONE;
    this.kEnd = NONE;
    this.kAt = NONE;
    this.vAt = NONE;
    this.vEnd = NONE;
    this.count = 0;
    this.live = 0;
    this.kids = NONE;
    this.v = undefined;
    this.index = undefined;
    this.tag = undefined;
    this.named = undefined;
    this.decoded = false;
    this.changed = false;
  }

  /** Member (or element) i's node, made from its span when first needed. */
  kid(i: number): Node {
    let k = this.kids[i];
    if (k === undefined) {
      k = new Node(RAW, this.vAt[i] as number, this.vEnd[i] as number, this.d + 1);
      this.kids[i] = k;
    }
    return k;
  }

  /** Every member's node. */
  all(): Node[] {
    for (let i = 0; i < this.kids.length; i++) this.kid(i);
    return this.kids as Node[];
  }

  /** Member i's index among the source's members, -1 for one an operation added (members keep their places). */
  origOf(i: number): number {
    return this.s >= 0 && i < this.count ? i : -1;
  }

  /** Makes this node a container of kind `t`, with lists of its own. */
  become(t: number): void {
    this.t = t;
    this.keys = [];
    this.kEnd = [];
    this.kAt = [];
    this.vAt = [];
    this.vEnd = [];
    this.kids = [];
  }
}

export const raw = (s: number, e: number, d: number): Node => new Node(RAW, s, e, d);

/** A value written by an operation. */
export function val(v: unknown): Node {
  const n = new Node(VAL, -1, -1, 0);
  n.v = v;
  return n;
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const encoded = new Map<string, Buffer>();
/** A key's UTF-8 bytes (keys come from the contract: a few, kept). */
export function bytesOf(key: string): Buffer {
  let b = encoded.get(key);
  if (!b) {
    b = Buffer.from(key);
    if (encoded.size < 4096) encoded.set(key, b);
  }
  return b;
}

/** Whether the source bytes from `s` are `want` (a loop: Buffer.compare's call costs more than a key's bytes). */
export function sameBytes(b: Buffer, s: number, want: Buffer): boolean {
  for (let i = 0; i < want.length; i++) if (b[s + i] !== want[i]) return false;
  return true;
}

/** What a removed member's place holds (members are not shifted, so source positions stay valid). */
export const GONE = new Node(VAL, -1, -1, 0);
