// The image's HEALTHCHECK script asks /healthz on the port serve listens on: PORT, else listen.port of the config.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Serving } from '../../src/cli/serve.js';
import { ROOT, configDoc, memoryLog, tempDir, yamlOf } from '../helpers/serve-process.js';

const check = (env: Record<string, string>) =>
  new Promise<number | null>((resolve) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
    for (const name of ['PORT', 'HOST']) if (!(name in env)) delete childEnv[name];
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/healthcheck.ts'], { cwd: ROOT, env: childEnv, stdio: 'ignore' });
    child.once('exit', (code) => resolve(code));
  });

/** A port nothing listens on (taken, then released). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

let serving: Serving;
let port: number;
const dir = tempDir('dlgw-healthcheck-');

beforeAll(async () => {
  const path = join(dir, 'serving.yaml');
  writeFileSync(path, yamlOf(configDoc({ upstreamUrl: 'http://127.0.0.1:9' })));
  serving = await serve({ configPath: path, logger: memoryLog('silent').logger, env: {}, watch: false });
  port = Number(new URL(serving.url).port);
});
afterAll(() => serving?.stop());

describe('the HEALTHCHECK script', () => {
  it("passes on the config's listen.port when PORT is not set", async () => {
    const path = join(dir, 'gateway.yaml');
    writeFileSync(path, yamlOf({ ...configDoc({ upstreamUrl: 'http://127.0.0.1:9' }), listen: { host: '0.0.0.0', port } }));
    expect(await check({ GATEWAY_CONFIG: path })).toBe(0);
  });

  it('asks PORT when it is set, as serve listens there', async () => {
    const path = join(dir, 'elsewhere.yaml');
    writeFileSync(path, yamlOf({ ...configDoc({ upstreamUrl: 'http://127.0.0.1:9' }), listen: { host: '0.0.0.0', port: await freePort() } }));
    expect(await check({ GATEWAY_CONFIG: path, PORT: String(port) })).toBe(0);
    expect(await check({ GATEWAY_CONFIG: path })).toBe(1);
  });
});
