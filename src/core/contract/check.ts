// The contract check: the versioning rules (an incompatible change bumps the version by exactly one and carries its migrations), over the declared changes and the schemas' own diffs.

import { type Direction, type SchemaDifference, diffSchemas, jsonSchemaOf } from '../derive/schema-diff.js';
import { describeTarget, structuralProblems } from './load.js';
import type { Change, Contract, MethodSpec, Target, VersionSpec } from './types.js';
import { strippingObjects } from './stripping-objects.js';

export type Rule =
  | 'structure'
  | 'bump-without-incompatible-change'
  | 'incompatible-change-without-bump'
  | 'missing-migration'
  | 'undeclared-difference'
  | 'declared-change-without-difference'
  | 'request-drops-fields';

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
      return change.replacedBy ? undefined : `methodRemoved ${change.method} needs replacedBy: old clients still call it`;
    case 'custom':
      return !change.compatible && !change.request && !change.response && !change.object
        ? `the custom change "${change.description}" is incompatible but carries no migration`
        : undefined;
    default:
      return undefined;
  }
}

interface Located {
  readonly method: string;
  readonly direction: Direction;
  readonly path: string;
}

const join = (base: string, path: string) => (base === '' ? path : path === '' ? base : `${base}.${path}`);
const within = (path: string, declared: string) => path === declared || path.startsWith(`${declared}.`);

/** The places a target + path names in a method's schemas (objects resolve through the method's locations). */
function places(target: Target, path: string, specs: readonly (MethodSpec | undefined)[], method: string): Located[] {
  if ('request' in target) return target.request === method ? [{ method, direction: 'request', path }] : [];
  if ('response' in target) return target.response === method ? [{ method, direction: 'response', path }] : [];
  const out: Located[] = [];
  for (const spec of specs) {
    for (const loc of spec?.objects ?? []) {
      if (loc.type === target.object) out.push({ method, direction: 'response', path: join(loc.path, path) });
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
            (p) => p.direction === direction && within(difference.path, p.path),
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
