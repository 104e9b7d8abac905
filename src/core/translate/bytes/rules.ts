// Edits of an object declared as data (what a custom object migration does, when it is only defaults and small fixes),
// so the rewriter can apply them: see declared.ts for how a migration names its edits.

import { Fallback, type Node, RAW, VAL, val } from './node.js';
import type { Tree } from './tree.js';

type Scalar = string | number | boolean | null;

/** A condition on a member of the object being edited (strict equality; an absent member is undefined). */
export interface Condition {
  readonly key: string;
  readonly is?: readonly Scalar[];
  readonly isNot?: readonly Scalar[];
}

/** A default computed from a sibling: `member !== value` (e.g. showTitle from titlePlacement). */
export interface NotEqualTo {
  readonly notEqual: { readonly key: string; readonly value: Scalar };
}

export type Edit =
  /** Sets the member when the object has no such key. */
  | { readonly default: string; readonly value: unknown | NotEqualTo }
  /** Sets the member unless its value already has this `typeof`. */
  | { readonly setUnlessType: string; readonly type: string; readonly value: unknown }
  /** Deletes the member when it holds this value. */
  | { readonly dropIf: string; readonly equals: Scalar }
  /** Edits the member when it holds an object. */
  | { readonly within: string; readonly then: readonly Edit[] }
  /** Edits each object element of the member when it holds an array. */
  | { readonly eachIn: string; readonly then: readonly Edit[] }
  /** Edits the object itself when every condition holds. */
  | { readonly when: readonly Condition[]; readonly then: readonly Edit[] }
  /**
   * Copies a string member of one member object into another (`into[0]` made when absent or null), unless the target
   * already holds a string; any other shape of the target goes to the buffered path.
   */
  | { readonly copyString: { readonly from: readonly [string, string]; readonly into: readonly [string, string] } };

const isNotEqualTo = (v: unknown): v is NotEqualTo => typeof v === 'object' && v !== null && 'notEqual' in v;

/** `typeof` of a member's value, without decoding it ("undefined" when absent). */
function typeOf(t: Tree, n: Node | undefined): string {
  if (n === undefined) return 'undefined';
  if (n.t === VAL) return typeof n.v;
  if (n.t !== RAW) return 'object';
  const c = t.scan.b[n.s];
  return c === 0x22 ? 'string' : c === 0x74 || c === 0x66 ? 'boolean' : c === 0x6e || c === 0x7b || c === 0x5b ? 'object' : 'number';
}

/** Whether a member is absent, null or undefined (what `?? {}` replaces). */
const isNullish = (t: Tree, n: Node | undefined): boolean =>
  n === undefined || (n.t === RAW ? t.scan.b[n.s] === 0x6e : n.t === VAL && (n.v === null || n.v === undefined));

const valueOf = (t: Tree, o: Node, key: string): unknown => {
  const n = t.member(o, key);
  return n === undefined ? undefined : t.decode(n);
};

const holds = (t: Tree, o: Node, c: Condition): boolean => {
  const v = valueOf(t, o, c.key);
  return (c.is === undefined || c.is.includes(v as Scalar)) && (c.isNot === undefined || !c.isNot.includes(v as Scalar));
};

const copyOf = (value: unknown) => (typeof value === 'object' && value !== null ? structuredClone(value) : value);

function copyString(t: Tree, o: Node, from: readonly [string, string], into: readonly [string, string]): void {
  const source = t.member(o, from[0]);
  const text = t.isObject(source) ? t.member(source, from[1]) : undefined;
  if (typeOf(t, text) !== 'string') return;
  const target = t.member(o, into[0]);
  if (isNullish(t, target)) {
    t.set(o, into[0], val({ [into[1]]: t.decode(text as Node) }));
    return;
  }
  if (!t.isObject(target)) throw new Fallback('not-expressible', `${into[0]} is neither an object nor null`);
  if (typeOf(t, t.member(target, into[1])) === 'string') return;
  t.set(target, into[1], val(t.decode(text as Node)));
}

type Run = (t: Tree, o: Node) => void;

/** One edit as a function (compiled once per declaration: the union is switched on when compiled, not per object). */
function compileOne(e: Edit): Run {
  if ('default' in e) {
    const key = e.default;
    const value = e.value;
    if (isNotEqualTo(value)) return (t, o) => void (t.indexOf(o, key) === -1 && t.set(o, key, val(valueOf(t, o, value.notEqual.key) !== value.notEqual.value)));
    return (t, o) => void (t.indexOf(o, key) === -1 && t.set(o, key, val(copyOf(value))));
  }
  if ('setUnlessType' in e) return (t, o) => void (typeOf(t, t.member(o, e.setUnlessType)) !== e.type && t.set(o, e.setUnlessType, val(copyOf(e.value))));
  if ('dropIf' in e) {
    return (t, o) => {
      const i = t.indexOf(o, e.dropIf);
      if (i !== -1 && t.decode(o.kid(i)) === e.equals) t.remove(o, i);
    };
  }
  if ('within' in e) {
    const then = compile(e.then);
    return (t, o) => {
      const kid = t.member(o, e.within);
      if (t.isObject(kid)) then(t, t.open(kid));
    };
  }
  if ('eachIn' in e) {
    const then = compile(e.then);
    return (t, o) => {
      const kid = t.member(o, e.eachIn);
      if (t.isArray(kid)) for (const x of t.open(kid).all().slice()) if (t.isObject(x)) then(t, t.open(x));
    };
  }
  if ('when' in e) {
    const then = compile(e.then);
    return (t, o) => void (e.when.every((c) => holds(t, o, c)) && then(t, o));
  }
  return (t, o) => copyString(t, o, e.copyString.from, e.copyString.into);
}

const compiled = new WeakMap<readonly Edit[], Run>();

/** A list of edits as one function, in order. */
function compile(edits: readonly Edit[]): Run {
  let run = compiled.get(edits);
  if (!run) {
    const runs = edits.map(compileOne);
    run = (t, o) => {
      for (let i = 0; i < runs.length; i++) (runs[i] as Run)(t, o);
    };
    compiled.set(edits, run);
  }
  return run;
}

/** Applies declared edits to one object node, in order. */
export const applyEdits = (t: Tree, o: Node, edits: readonly Edit[]): void => compile(edits)(t, o);
