// A build of the gateway from a git revision or a directory, for `--paired A B`: a revision's src/, bench/ and
// test/helpers/ are extracted (`git archive`) into a temporary folder with this project's node_modules linked, then
// transpiled as build.ts does for the current tree; a directory is transpiled as it is (uncommitted edits included).

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Build, transpileForBench } from './build.js';
import { PROJECT_ROOT } from './control.js';

export interface LabelledBuild extends Build {
  /** What the output calls it: the spec as given, with the commit for a revision. */
  readonly label: string;
}

/** What a revision's build needs: the gateway's sources and the benchmark child it runs in. */
const ARCHIVED = ['src', 'bench', 'test/helpers'];

export function buildOf(spec: string): LabelledBuild {
  if (existsSync(spec) && statSync(spec).isDirectory()) {
    return { ...transpileForBench(resolve(spec)), label: `${spec} (directory)` };
  }
  const git = (args: string[]) => execFileSync('git', args, { cwd: PROJECT_ROOT, encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 });
  let commit: string;
  try {
    commit = git(['rev-parse', '--verify', '--quiet', `${spec}^{commit}`]).toString().trim();
  } catch {
    throw new Error(`--paired: ${spec} is neither a directory nor a git revision`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'dlgw-bench-rev-'));
  try {
    execFileSync('tar', ['-x', '-C', dir], { input: git(['archive', commit, ...ARCHIVED]) });
    symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const build = transpileForBench(dir);
    return {
      ...build,
      label: `${spec} (${commit.slice(0, 7)})`,
      cleanup: () => {
        build.cleanup();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
