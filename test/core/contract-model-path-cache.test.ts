// The parsed-path cache's cap: its own file, so that the cache starts empty (each test file loads its own modules).
import { expect, it } from 'vitest';
import { parsePath } from '../../src/core/contract-model/field-path.js';

it('keeps the first 4096 paths parsed, and parses any later one afresh each time', () => {
  const cached = (path: string) => parsePath(path) === parsePath(path);
  for (let i = 0; i < 4096; i++) expect(cached(`cap.p${i}`)).toBe(true);
  expect(cached('cap.after')).toBe(false);
  expect(parsePath('cap.after')).toEqual([{ key: 'cap' }, { key: 'after' }]);
  // The first ones stay cached.
  expect(cached('cap.p0')).toBe(true);
});
