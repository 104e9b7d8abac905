// `upstream.url: embedded` with `upstream.apiVersion`: the embedded reference backend speaks that version, so a gateway
// started that way is ready and serves the head's clients through it (it spoke the head whatever the config said).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serve } from '../../src/cli/serve.js';
import { configDoc, memoryLog, tempDir, yamlOf } from '../helpers/serve-process.js';

const post = (url: string, method: string, version: string, body: unknown) =>
  fetch(`${url}/rpc/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dl-api-version': version }, body: JSON.stringify(body) });

describe('the embedded backend at upstream.apiVersion 1', () => {
  it('is ready, speaks version 1, and serves version 3 and latest clients through it', async () => {
    const path = join(tempDir('dlgw-embedded-v1-'), 'gateway.yaml');
    writeFileSync(path, yamlOf(configDoc({ upstreamUrl: 'embedded', extra: { upstream: { url: 'embedded', apiVersion: 1 } } })));
    const serving = await serve({ configPath: path, logger: memoryLog('silent').logger, env: {}, watch: false });
    try {
      const ready = await fetch(`${serving.url}/readyz`);
      expect(await ready.json()).toEqual({ status: 'ready', backendVersion: 1 });
      const versions = (await (await fetch(`${serving.url}/versions`)).json()) as { backend: { apiVersion: number } };
      expect(versions.backend).toEqual({ kind: 'rpc', apiVersion: 1 });
      for (const version of ['3', 'latest']) {
        const res = await post(serving.url, 'getWorkbook', version, { workbookId: 'wb_demo_sandbox' });
        expect(res.status, version).toBe(200);
        expect(await res.json()).toMatchObject({ workbookId: 'wb_demo_sandbox', title: 'Sandbox' });
      }
      const page = await post(serving.url, 'getEntries', '3', { pageSize: 2 });
      expect(page.status).toBe(200);
      expect(await page.json()).toMatchObject({ nextPageToken: 'p1:2' });
    } finally {
      await serving.stop();
    }
  });
});
