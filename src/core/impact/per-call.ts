// A fact about one call shape (contract, version, method), computed once per loaded contract and kept with it.

import type { LoadedContract } from '../contract-model/load.js';

/** `compute`, memoised by contract (weakly: a reloaded contract drops its entries), version and method. */
export function perCall<T>(compute: (loaded: LoadedContract, version: number, method: string) => T): (loaded: LoadedContract, version: number, method: string) => T {
  const memo = new WeakMap<LoadedContract, Map<string, T>>();
  return (loaded, version, method) => {
    let byCall = memo.get(loaded);
    if (!byCall) memo.set(loaded, (byCall = new Map()));
    const key = `${version} ${method}`;
    let found = byCall.get(key);
    if (found === undefined) byCall.set(key, (found = compute(loaded, version, method)));
    return found;
  };
}
