// A config file written again while a reload is being built must not be lost: the watcher may only
// consider "known" the content that was actually loaded.
//
// The contract's export is wrapped in a getter (a reload reads it when it builds the new runtime) so that the
// test can write the file at the one moment that matters: after the reload read the file, before it finished.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, vi } from 'vitest';
import { serve, type Serving } from '../../src/cli/serve.js';
import { DEMO_ENTRIES, DEMO_WORKBOOKS, createReferenceBackend, type ReferenceBackend } from '../../src/reference-backend/index.js';
import { configDoc, liveCalendar, memoryLog, replaceFile, tempDir, waitFor, yamlOf } from '../helpers/serve-process.js';

const hook = vi.hoisted(() => ({ duringBuild: undefined as undefined | (() => void) }));

vi.mock('../../src/contract/index.js', async (importOriginal) => {
  const mod = await importOriginal<typeof import('../../src/contract/index.js')>();
  return {
    ...mod,
    get shippedContract() {
      const run = hook.duringBuild;
      hook.duringBuild = undefined;
      run?.();
      return mod.shippedContract;
    },
  };
});

const cal = liveCalendar();
let backend: ReferenceBackend;
let backendUrl: string;
let serving: Serving;
let configPath: string;

beforeAll(async () => {
  backend = createReferenceBackend({ seed: { workbooks: [...DEMO_WORKBOOKS], entries: [...DEMO_ENTRIES] } });
  backendUrl = await backend.listen(0, '127.0.0.1');
  configPath = join(tempDir('dlgw-race-'), 'gateway.yaml');
  writeFileSync(configPath, yamlOf(configDoc({ upstreamUrl: backendUrl })));
  serving = await serve({ configPath, logger: memoryLog('info').logger, env: {}, watch: true });
});
afterAll(async () => {
  await serving?.stop();
  await backend?.close();
});

const v1Sunset = async () => {
  const body = (await (await fetch(`${serving.url}/versions`)).json()) as { versions: { version: number; sunsetAt: string }[] };
  return body.versions.find((v) => v.version === 1)?.sunsetAt;
};

describe('a file written while a reload is being built', () => {
  it('is reloaded in turn, so the file on disk is what runs', async () => {
    const second = yamlOf(configDoc({ upstreamUrl: backendUrl, v1Sunset: cal.laterSunset }));
    hook.duringBuild = () => replaceFile(configPath, second);
    replaceFile(configPath, yamlOf(configDoc({ upstreamUrl: backendUrl, v1Sunset: cal.pastSunset })));
    // First the reload that was under way applies its (older) file…
    await waitFor(async () => hook.duringBuild === undefined && (await v1Sunset()) !== cal.v1DefaultSunset, 'the first reload');
    // …then the file written during it must follow.
    await waitFor(async () => (await v1Sunset()) === cal.laterSunset, 'the second write to be in force', { timeoutMs: 5_000 });
  });
});
