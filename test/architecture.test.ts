import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The versioning core is pure: it imports zod and itself, nothing from HTTP, I/O, logging or caches,
// and never reads the clock (the clock is a parameter).
const root = new URL('../src/core', import.meta.url).pathname;
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });

describe('src/core', () => {
  const sources = files(root).map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }));

  it('holds the versioning core', () => {
    expect(sources.length).toBeGreaterThan(10);
  });

  it('imports only zod and its own modules', () => {
    for (const { path, text } of sources) {
      for (const [, spec] of text.matchAll(/^import[^'"]*['"]([^'"]+)['"]/gm)) {
        const inside = spec!.startsWith('.') && !join('core', path, '..', spec!).startsWith('..') && join(root, path, '..', spec!).startsWith(root);
        expect(inside || spec === 'zod', `${path} imports ${spec}`).toBe(true);
      }
    }
  });

  it('never reads the clock itself', () => {
    for (const { path, text } of sources) {
      expect(/Date\.now\(|new Date\(\)|performance\.now\(/.test(text), `${path} reads the clock`).toBe(false);
    }
  });
});
