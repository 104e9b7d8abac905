// The contract check: the versioning rules (an incompatible change bumps the version by exactly one and carries its migrations), over the declared changes and the schemas' own diffs.

import type { z } from 'zod';
import { type Direction, type SchemaDifference, diffSchemas, jsonSchemaOf } from '../schema/diff.js';
import { describeTarget, structuralProblems } from './load.js';
import type { Change, Contract, MethodSpec, Target, VersionSpec } from './types.js';
import { strippingObjects } from './stripping-objects.js';
import { schemaHas } from './schema-paths.js';
import { splitAtElements, withoutFilters } from './field-path.js';

export type Rule =
  | 'structure'
  | 'bump-without-incompatible-change'
  | 'incompatible-change-without-bump'
  | 'missing-migration'
  | 'undeclared-difference'
  | 'declared-change-without-difference'
  | 'request-drops-fields'
  | 'change-without-effect'
  | 'missing-way-back';

export interface Problem {
  readonly version: number;
  readonly rule: Rule;
  readonly message: string;
}

export function isIncompatible(change: Change): boolean {
  switch (change.kind) {
    case 'fieldAdded':
    case 'methodAdded':
      return false;
    case 'custom':
      return !change.compatible;
    default:
      return true;
  }
}

/** Why an incompatible change cannot be served to old clients as declared, or undefined. */
function missingMigration(change: Change): string | undefined {
  switch (change.kind) {
    case 'fieldRemoved':
      return !('request' in change.target) && change.downDefault === undefined
        ? `fieldRemoved ${change.path} on ${describeTarget(change.target)} needs a downDefault: old clients still read the field`
        : undefined;
    case 'methodRemoved':
      return change.replacedBy || change.keptByBackend
        ? undefined
        : `methodRemoved ${change.method} needs replacedBy (or kept-by-backend): old clients still call it`;
    case 'custom':
      return !change.compatible && !change.request && !change.response && !change.object
        ? `the custom change "${change.description}" is incompatible but carries no migration`
        : undefined;
    default:
      return undefined;
  }
}

/**
 * Why a custom change cannot be served to a client above a backend below its version: a method's request migration
 * without its way down, an answer's without its way up, an object migration without objectUp, and no `oneWay` reason.
 */
export function missingWayBack(change: Change): string | undefined {
  if (change.kind !== 'custom' || change.oneWay !== undefined) return undefined;
  const gaps = [
    ...Object.keys(change.request ?? {}).filter((m) => !change.requestDown?.[m]).map((m) => `requestDown for ${m}`),
    ...Object.keys(change.response ?? {}).filter((m) => !change.responseUp?.[m]).map((m) => `responseUp for ${m}`),
    ...Object.keys(change.object ?? {}).filter((k) => !change.objectUp?.[k]).map((k) => `objectUp for ${k}`),
  ];
  return gaps.length
    ? `the custom change "${change.description}" has no way back for a backend below its version (${gaps.join(', ')}): write it, or declare oneWay with the reason`
    : undefined;
}

interface Located {
  readonly method: string;
  readonly direction: Direction;
  readonly path: string;
}

const join = (base: string, path: string) => (base === '' ? path : path === '' ? base : `${base}.${path}`);
const within = (path: string, declared: string) => path === declared || path.startsWith(`${declared}.`);
/**
 * Whether a change declared at `declared` accounts for a difference: the difference lies under it, or (a field
 * added or removed as a whole) the change works on a field inside it (`background.color` explains `background`).
 */
const covers = (difference: SchemaDifference, declared: string) =>
  within(difference.path, declared) ||
  ((difference.kind === 'fieldAdded' || difference.kind === 'fieldRemoved') && within(declared, difference.path));

/** The places a target + path names in a method's schemas (objects resolve through the method's locations). */
function places(target: Target, path: string, specs: readonly (MethodSpec | undefined)[], method: string): Located[] {
  if ('request' in target) return target.request === method ? [{ method, direction: 'request', path: withoutFilters(path) }] : [];
  if ('response' in target) return target.response === method ? [{ method, direction: 'response', path: withoutFilters(path) }] : [];
  const out: Located[] = [];
  for (const spec of specs) {
    for (const loc of spec?.objects ?? []) {
      if (loc.type === target.object) out.push({ method, direction: 'response', path: join(withoutFilters(loc.path), withoutFilters(path)) });
    }
    for (const loc of spec?.requestObjects ?? []) {
      if (loc.type === target.object) out.push({ method, direction: 'request', path: join(withoutFilters(loc.path), withoutFilters(path)) });
    }
  }
  return out;
}

function declaredPlaces(change: Change, specs: readonly (MethodSpec | undefined)[], method: string): Located[] {
  switch (change.kind) {
    case 'fieldAdded':
    case 'fieldRemoved':
    case 'fieldToArray':
      return places(change.target, change.path, specs, method);
    case 'fieldRenamed':
      return [...places(change.target, change.from, specs, method), ...places(change.target, change.to, specs, method)];
    case 'custom':
      return change.covers.flatMap((c) => places(c.target, c.path, specs, method));
    default:
      return [];
  }
}

const fieldPaths = (change: Change): string[] => {
  switch (change.kind) {
    case 'fieldAdded':
    case 'fieldRemoved':
    case 'fieldToArray':
      return [change.path];
    case 'fieldRenamed':
      return [change.from, change.to];
    default:
      return [];
  }
};

/**
 * Why a declared field change would do nothing at run time, or undefined: its method is in neither version, no
 * method of either version locates its object kind, or none of its paths (with their union members) is a place
 * any schema of its target has.
 */
function withoutEffect(change: Change, prev: VersionSpec, next: VersionSpec): string | undefined {
  const paths = fieldPaths(change);
  if (paths.length === 0 || !('target' in change)) return undefined;
  const target = change.target;
  const places: { schema: z.ZodType; base: string }[] = [];
  for (const spec of [prev, next]) {
    for (const [name, method] of Object.entries(spec.methods)) {
      if ('request' in target && target.request === name) places.push({ schema: method.request, base: '' });
      if ('response' in target && target.response === name) places.push({ schema: method.response, base: '' });
      if ('object' in target) {
        for (const loc of method.objects ?? []) if (loc.type === target.object) places.push({ schema: method.response, base: loc.path });
        for (const loc of method.requestObjects ?? []) if (loc.type === target.object) places.push({ schema: method.request, base: loc.path });
      }
    }
  }
  const what = `"${change.description}" (${change.kind} on ${describeTarget(target)})`;
  if (places.length === 0) {
    return 'object' in target
      ? `${what}: no method of versions ${prev.version} or ${next.version} locates ${target.object} objects (objects or requestObjects)`
      : `${what}: the method is in neither version ${prev.version} nor ${next.version}`;
  }
  // A path some schema has outright, or one an older schema leaves open whose union members a schema does name
  // (a field removed from a member the older version did not describe).
  const has = (path: string, openTags: boolean) => places.some((p) => schemaHas(p.schema, join(p.base, path), openTags));
  const found = paths.some((path) => has(path, false) || (has(path, true) && has(splitAtElements(path).base, false)));
  return found ? undefined : `${what}: no schema of versions ${prev.version} or ${next.version} has ${paths.join(' or ')} (or the union member it names)`;
}

function checkVersion(prev: VersionSpec, next: VersionSpec): Problem[] {
  const problems: Problem[] = [];
  const at = (rule: Rule, message: string) => problems.push({ version: next.version, rule, message });

  if (!next.changes.some(isIncompatible)) {
    at('bump-without-incompatible-change', `version ${next.version} carries no incompatible change; compatible changes do not raise the version`);
  }
  for (const addition of [...(prev.additions ?? []), ...(next.additions ?? [])]) {
    if (isIncompatible(addition as Change)) {
      at('incompatible-change-without-bump', `"${addition.description}" is incompatible and needs its own version`);
    }
  }
  for (const change of next.changes) {
    const why = isIncompatible(change) ? missingMigration(change) : undefined;
    if (why) at('missing-migration', why);
    if (missingWayBack(change)) at('missing-way-back', missingWayBack(change) as string);
    const idle = withoutEffect(change, prev, next);
    if (idle) at('change-without-effect', idle);
  }

  const used = new Set<Change>();
  const methods = new Set([...Object.keys(prev.methods), ...Object.keys(next.methods)]);
  for (const method of [...methods].sort()) {
    const before = prev.methods[method];
    const after = next.methods[method];
    if (!after || !before) {
      const kind = after ? 'methodAdded' : 'methodRemoved';
      const change = next.changes.find((c) => c.kind === kind && c.method === method);
      if (change) used.add(change);
      else at('undeclared-difference', `method ${method} is ${after ? 'added' : 'removed'} without a ${kind} change`);
      continue;
    }
    for (const direction of ['request', 'response'] as const) {
      const differences = diffSchemas(
        jsonSchemaOf(direction === 'request' ? before.request : before.response, direction),
        jsonSchemaOf(direction === 'request' ? after.request : after.response, direction),
        direction,
      );
      for (const difference of differences) {
        const covering = next.changes.filter((c) =>
          declaredPlaces(c, [before, after], method).some(
            (p) => p.direction === direction && covers(difference, p.path),
          ),
        );
        covering.forEach((c) => used.add(c));
        if (covering.length === 0) {
          at('undeclared-difference', `${method} ${direction}: ${difference.detail} (${difference.kind}), but no change of version ${next.version} declares it`);
        } else if (!difference.compatible && !covering.some(isIncompatible)) {
          at('incompatible-change-without-bump', `${method} ${direction}: ${difference.detail} is incompatible but is declared only as a compatible change`);
        }
      }
    }
  }
  for (const change of next.changes) {
    if (!used.has(change)) {
      at('declared-change-without-difference', `"${change.description}" (${change.kind}) matches no difference between the schemas of versions ${prev.version} and ${next.version}`);
    }
  }
  return problems;
}

export function checkContract(contract: Contract): Problem[] {
  const structural = structuralProblems(contract).map((message): Problem => ({ version: 0, rule: 'structure', message }));
  if (structural.length) return structural;
  const problems: Problem[] = [];
  // What a client sends reaches the backend or is refused: a request object never drops a field silently.
  for (const spec of contract.versions) {
    for (const [method, { request }] of Object.entries(spec.methods)) {
      for (const path of strippingObjects(request)) {
        problems.push({
          version: spec.version,
          rule: 'request-drops-fields',
          message: `${method} request${path ? ` at ${path}` : ''} drops unknown fields: declare it loose (keep them) or strict (refuse them)`,
        });
      }
    }
  }
  for (let i = 1; i < contract.versions.length; i++) {
    problems.push(...checkVersion(contract.versions[i - 1] as VersionSpec, contract.versions[i] as VersionSpec));
  }
  return problems;
}

export type { SchemaDifference };
