// Version 3 removes the HTML page and entry lock methods: the real version-3 spec lists neither (datalens-tech/datalens-sdk
// spec/yacloud.json @ 021501bb6ccd3165eaa128155d91f67e01525fe9, 88 paths). Version 2 clients keep them: the backend
// still serves them by name, so their calls go up unchanged; at version 3 they are 404 ENDPOINT_NOT_FOUND.

import { methodRemoved } from '../../core/contract-model/builders.js';
import type { MethodRemoved, MethodSpec } from '../../core/contract-model/types.js';
import { entryLockMethods, htmlPageMethods } from '../v2/v2-listed-methods.js';

/** The version-2 methods version 3 no longer has, each with the family it belonged to. */
const REMOVED: readonly [Record<string, MethodSpec>, string][] = [
  [htmlPageMethods, 'HTML page'],
  [entryLockMethods, 'entry lock'],
];

export const removedMethodsV3: readonly MethodRemoved[] = REMOVED.flatMap(([methods, family]) =>
  Object.keys(methods).map((name) =>
    methodRemoved(name, `\`${name}\` is removed with the other ${family} methods (the real version 3 has none); version 2 keeps it.`, 'kept-by-backend'),
  ),
);

/** `methods` without the ones version 3 removes. */
export function withoutRemovedV3(methods: Readonly<Record<string, MethodSpec>>): Record<string, MethodSpec> {
  const gone = new Set(removedMethodsV3.map((c) => c.method));
  return Object.fromEntries(Object.entries(methods).filter(([name]) => !gone.has(name)));
}
