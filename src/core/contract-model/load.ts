// Load-time checks of a contract's structure and the indexes the engine needs; each mistake has its own message.

import { deprecationProblems } from './deprecation-check.js';
import { splitAtElements, splitPath } from './field-path.js';
import type { Change, Contract, MethodSpec, Target, VersionSpec } from './types.js';

export class ContractError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid contract:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ContractError';
  }
}

export interface LoadedContract {
  readonly contract: Contract;
  readonly versions: readonly number[];
  readonly head: number;
  readonly byVersion: ReadonlyMap<number, VersionSpec>;
  /** method name → the versions where it exists, ascending. */
  readonly availableIn: ReadonlyMap<string, readonly number[]>;
}

export const describeTarget = (t: Target): string =>
  'request' in t ? `${t.request} request` : 'response' in t ? `${t.response} response` : `${t.object} objects`;

const malformed = (path: string): string | undefined => {
  try {
    splitPath(path);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
};

/** Why a field change's paths cannot be followed: malformed, or a move whose two paths do not share their array steps. */
function pathProblem(change: Change): string | undefined {
  switch (change.kind) {
    case 'fieldAdded':
    case 'fieldRemoved':
    case 'fieldToArray':
      return malformed(change.path);
    case 'fieldRenamed': {
      const why = malformed(change.from) ?? malformed(change.to);
      if (why) return why;
      const { base } = splitAtElements(change.from);
      const toParts = splitPath(change.to);
      const baseParts = splitPath(base);
      const shared = baseParts.every((p, i) => toParts[i] === p) && !toParts.slice(baseParts.length).some((p) => p.startsWith('*') || p.includes('['));
      return shared ? undefined : `"${change.from}" → "${change.to}": a move keeps its array steps (both paths share them, the rest has none)`;
    }
    default:
      return undefined;
  }
}

/** Structural problems (not the versioning rules: those are check.ts). */
export function structuralProblems(contract: Contract): string[] {
  const problems: string[] = [];
  const { versions } = contract;
  if (versions.length === 0) return ['the contract has no versions'];
  problems.push(...deprecationProblems(contract));
  versions.forEach((v, i) => {
    const prev = versions[i - 1];
    if (!Number.isInteger(v.version) || v.version < 1) problems.push(`version ${v.version}: versions are positive integers`);
    if (prev && v.version !== prev.version + 1) {
      problems.push(`version ${v.version} follows version ${prev.version}: versions must be consecutive`);
    }
    if (i === 0 && v.changes.length > 0) problems.push(`version ${v.version}: the first version cannot have changes`);
    for (const change of [...v.changes, ...(v.additions ?? [])]) {
      if (!change.description?.trim()) problems.push(`version ${v.version}: a ${change.kind} change has no description`);
    }
    for (const addition of v.additions ?? []) {
      if ((addition as Change).kind !== 'fieldAdded') {
        problems.push(`version ${v.version}: additions may only hold fieldAdded changes`);
      }
    }
    for (const change of [...v.changes, ...(v.additions ?? [])]) {
      const why = pathProblem(change);
      if (why) problems.push(`version ${v.version}: "${change.description}": ${why}`);
    }
    for (const [name, spec] of Object.entries(v.methods)) {
      for (const loc of [...(spec.objects ?? []), ...(spec.requestObjects ?? [])]) {
        const why = malformed(loc.path);
        if (why) problems.push(`version ${v.version}: ${name} locates ${loc.type} objects at a malformed path: ${why}`);
      }
    }
    for (const change of v.changes) {
      const here = (m: string) => Object.hasOwn(v.methods, m);
      const before = (m: string) => !!prev && Object.hasOwn(prev.methods, m);
      if (change.kind === 'methodAdded' && (!here(change.method) || before(change.method))) {
        problems.push(`version ${v.version}: methodAdded ${change.method} must exist in ${v.version} and not in ${prev?.version}`);
      }
      if (change.kind === 'methodRemoved') {
        if (here(change.method) || !before(change.method)) {
          problems.push(`version ${v.version}: methodRemoved ${change.method} must exist in ${prev?.version} and not in ${v.version}`);
        }
        if (change.replacedBy && !here(change.replacedBy.method)) {
          problems.push(`version ${v.version}: ${change.method} is replaced by ${change.replacedBy.method}, which does not exist in ${v.version}`);
        }
        if (change.keptByBackend && change.replacedBy) problems.push(`version ${v.version}: ${change.method} is both replaced and kept by the backend`);
        // Kept methods pass unguarded (no head spec locates their objects): one that answers versioned objects cannot be.
        if (change.keptByBackend && before(change.method) && prev?.methods[change.method]?.objects?.length) {
          problems.push(`version ${v.version}: ${change.method} answers versioned objects, which a method kept by the backend would pass unguarded`);
        }
      }
    }
  });
  return problems;
}

export function loadContract(contract: Contract): LoadedContract {
  const problems = structuralProblems(contract);
  if (problems.length) throw new ContractError(problems);
  const byVersion = new Map(contract.versions.map((v) => [v.version, v]));
  const availableIn = new Map<string, number[]>();
  for (const v of contract.versions) {
    for (const name of Object.keys(v.methods)) {
      const list = availableIn.get(name) ?? [];
      list.push(v.version);
      availableIn.set(name, list);
    }
  }
  const versions = contract.versions.map((v) => v.version);
  return Object.freeze({ contract, versions, head: versions[versions.length - 1] as number, byVersion, availableIn });
}

export function methodAt(loaded: LoadedContract, version: number, method: string): MethodSpec | undefined {
  const v = loaded.byVersion.get(version);
  return v && Object.hasOwn(v.methods, method) ? v.methods[method] : undefined;
}
