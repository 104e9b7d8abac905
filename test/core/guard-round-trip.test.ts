// The lossless rule as a property, over every object kind the shipped contract locates in an answer and every pair
// (client version, saved version): an object saved under a newer version is served only when nothing of it is lost
// (the served object, translated back up by the contract, equals the stored one), and is otherwise refused with 409
// naming what the client's version cannot carry. Objects are built from the paths the contract's own changes name,
// so every declared change is exercised without a list of fields here.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shippedContract } from '../../src/contract/index.js';
import { loadContract, methodAt } from '../../src/core/contract-model/load.js';
import type { Json, MigrationContext, ObjectLocation } from '../../src/core/contract-model/types.js';
import { GatewayError } from '../../src/core/errors.js';
import { translateResponse } from '../../src/core/translate/engine.js';
import { differences, lostFields } from '../../src/core/translate/guard.js';
import { parsePath } from '../../src/core/translate/paths.js';
import { buildPlan } from '../../src/core/translate/plan.js';
import { HEAD, VERSIONS } from '../helpers/calendar.js';
import { NO_SERVICES } from '../helpers/no-services.js';

let loadedOnce: ReturnType<typeof loadContract> | undefined;
/** The shipped contract, loaded inside the first test that needs it (not while the file is collected). */
const contract = () => (loadedOnce ??= loadContract(shippedContract));
const ctx: MigrationContext = { clientVersion: 1, callBackend: async () => ({}), principal: 'p', state: new Map(), services: NO_SERVICES };

/** The paths inside a kind's object that the contract's changes name (object changes, and answer changes inside its location). */
function changedPaths(type: string, loc: ObjectLocation, method: string): string[] {
  const out = new Set<string>();
  const inside = (p: string) => (loc.path === '' ? p : p.startsWith(`${loc.path}.`) ? p.slice(loc.path.length + 1) : undefined);
  for (const v of shippedContract.versions) {
    for (const c of v.changes) {
      const paths = c.kind === 'fieldRenamed' ? [c.from, c.to] : 'path' in c ? [c.path] : c.kind === 'custom' ? c.covers.map((x) => x.path) : [];
      const target = 'target' in c ? c.target : undefined;
      const covers = c.kind === 'custom' ? c.covers.map((x) => x.target) : target ? [target] : [];
      for (const t of covers) {
        for (const p of paths) {
          if ('object' in t && t.object === type) out.add(p);
          else if ('response' in t && t.response === method) {
            const rel = inside(p);
            if (rel !== undefined && rel !== '') out.add(rel);
          }
        }
      }
    }
  }
  return [...out].filter((p) => p !== '');
}

const leaf = fc.oneof(
  fc.constantFrom('#111111', '#eeeeee', 'string', 'date', 'k'),
  fc.integer({ min: 0, max: 9 }),
  fc.boolean(),
  fc.record({ light: fc.constantFrom('#111111', '#eeeeee'), dark: fc.constantFrom('#111111', '#eeeeee') }),
  fc.array(fc.constantFrom('t1', 't2'), { maxLength: 2 }),
);

/** Sets `value` at a contract path in `o`, making the containers on the way (`*` → the first element; a filter → its tag). */
function place(o: Json, path: string, value: unknown, pick: number): void {
  let node: unknown = o;
  const segments = parsePath(path);
  segments.forEach((seg, i) => {
    const last = i === segments.length - 1;
    const tagged = (x: Json) => {
      if (seg.tag !== undefined && seg.values?.length) x[seg.tag] ??= seg.values[pick % seg.values.length];
      return x;
    };
    if ('each' in seg) {
      const arr = node as unknown[];
      if (!Array.isArray(arr)) return;
      if (last) return;
      arr[0] ??= tagged({});
      node = arr[0];
      if (typeof node === 'object' && node !== null && !Array.isArray(node)) tagged(node as Json);
    } else {
      const obj = node as Json;
      if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return;
      const nextIsEach = !last && 'each' in (segments[i + 1] as object);
      if (last) obj[seg.key] = value;
      else obj[seg.key] ??= nextIsEach ? [] : tagged({});
      node = obj[seg.key];
      if (!last && !nextIsEach && typeof node === 'object' && node !== null) tagged(node as Json);
    }
  });
}

/** An answer holding `obj` at `loc` (one element where the path walks an array). */
function answerWith(loc: ObjectLocation, obj: Json): unknown {
  const build = (parts: readonly string[]): unknown => {
    if (parts.length === 0) return obj;
    const key = (parts[0] as string).replace(/\[.*\]$/, '');
    const inner = build(parts.slice(1));
    return key === '*' ? [inner] : { [key]: inner };
  };
  return build(loc.path === '' ? [] : loc.path.split('.'));
}

const firstAt = (body: unknown, loc: ObjectLocation): Json | undefined => {
  let node: any = body;
  for (const part of loc.path === '' ? [] : loc.path.split('.')) {
    const key = part.replace(/\[.*\]$/, '');
    node = key === '*' ? node?.[0] : node?.[key];
  }
  return node ?? undefined;
};

interface Case {
  readonly method: string;
  readonly loc: ObjectLocation;
  readonly paths: string[];
}

/** Every method answering an object of a kind at the head (not as a listing reference), with the paths to vary. */
function cases(): Case[] {
  const out: Case[] = [];
  for (const [method, spec] of Object.entries(contract().byVersion.get(HEAD)?.methods ?? {})) {
    for (const loc of spec.objects ?? []) {
      if (loc.listing && loc.listing.content === undefined) continue;
      out.push({ method, loc, paths: changedPaths(loc.type, loc, method) });
    }
  }
  return out;
}
const pairs = () => VERSIONS.flatMap((c) => VERSIONS.filter((s) => s > c).map((s) => [c, s] as const));

describe('the lossless rule, every kind and every pair of versions', () => {
  it('has something to test: kinds with changes, and pairs of versions', () => {
    expect(cases().some((c) => c.paths.length > 0)).toBe(true);
    expect(pairs().length).toBeGreaterThan(0);
  });

  // One test walks every case (fixtures are built inside tests in this folder: test/core/README.md); a failure
  // names the method and location in fast-check's report through the case it was drawn for.
  it('every located kind: served only when nothing is lost, refused only when something is', { timeout: 300_000 }, async () => {
    for (const c of cases()) await checkCase(c);
  });
});

async function checkCase(c: Case): Promise<void> {
  {
    const objectArb = fc.record({
      values: fc.array(fc.tuple(fc.constantFrom(...(c.paths.length ? c.paths : ['note'])), leaf, fc.nat(3)), { maxLength: 6 }),
      pair: fc.constantFrom(...pairs()),
      where: fc.constant(`${c.method} (${c.loc.type} at "${c.loc.path}")`),
    });
    await fc.assert(
      fc.asyncProperty(objectArb, async ({ values, pair: [client, saved] }) => {
        const plan = buildPlan(contract(), client, c.method);
        if (!plan || plan.unservable || !methodAt(contract(), client, c.method)) return; // the method is not served at this version
        const obj: Json = { [c.loc.idField ?? 'id']: 'o1', [c.loc.versionField ?? 'version']: saved };
        // A located row is the location's member (`*[scope=dash]`) and carries its content (else it is a reference).
        const last = parsePath(c.loc.path).at(-1);
        if (last?.tag !== undefined && last.values?.length) obj[last.tag] = last.values[0];
        if (c.loc.listing?.content !== undefined) place(obj, c.loc.listing.content, { note: 1 }, 0);
        for (const [path, value, pick] of values) place(obj, path, structuredClone(value), pick);
        // An object saved under a version below the head is what that version wrote, as the head shows it: its head
        // form translated down to that version and back up (what a version-`saved` client can have written).
        const atSaved = saved < HEAD ? buildPlan(contract(), saved, c.method)?.kinds?.get(c.loc.type) : undefined;
        // The head's compatible additions are in every object it answers (the backend fills their defaults).
        const filled = answerWith(c.loc, obj) as Json;
        for (const fill of buildPlan(contract(), HEAD, c.method)?.down ?? []) await fill(filled, ctx);
        let stored = structuredClone(firstAt(filled, c.loc) as Json);
        if (atSaved && atSaved.noWayBack === undefined) {
          for (const step of atSaved.down) stored = await step(stored, ctx);
          for (const step of atSaved.up) stored = await step(stored, ctx);
        }
        const answer = answerWith(c.loc, structuredClone(stored));
        const history = plan.kinds?.get(c.loc.type);
        let served: unknown;
        try {
          served = await translateResponse(plan, answer, ctx);
        } catch (e) {
          // Refused: only with 409, and only when the round trip does lose something (or cannot be made).
          expect(e).toBeInstanceOf(GatewayError);
          expect((e as GatewayError).code).toBe('UNSUPPORTED_OBJECT_VERSION');
          // The refusal names the location that refused (a row can be located as two kinds: `entry` and `dashboard`).
          const refusedAs = plan.kinds?.get(String(((e as GatewayError).details as Record<string, unknown> | undefined)?.objectType));
          expect(refusedAs).toBeDefined();
          const lost = await lostFields(refusedAs!, stored, ctx);
          expect(lost.fields.length > 0 || lost.reason !== undefined).toBe(true);
          expect((e as GatewayError).details).toMatchObject({ objectVersion: saved, requestedVersion: client, fields: lost.fields });
          return;
        }
        // Served: nothing is lost. Where the client's version locates the object at the same place, it goes back up whole.
        if (history && history.noWayBack === undefined && methodAt(contract(), client, c.method)?.objects?.some((l) => l.path === c.loc.path)) {
          const back = structuredClone(firstAt(served, c.loc)) as Json;
          let up = back;
          for (const step of history.up) up = await step(up, ctx);
          expect(differences(stored, up)).toEqual([]);
        }
        // The strict rule refuses the same object whatever it holds.
        const strict = translateResponse(plan, answerWith(c.loc, structuredClone(stored)), ctx, { olderClients: 'refuse-newer', releasedThrough: HEAD });
        await expect(strict).rejects.toMatchObject({ code: 'UNSUPPORTED_OBJECT_VERSION' });
      }),
      { numRuns: 60 },
    );
  }
}
