import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceBackendFromEnv, type RunningReferenceBackend } from '../../src/reference-backend/index.js';
import { rpc } from './helpers.js';

let running: RunningReferenceBackend;
beforeAll(async () => {
  running = await startReferenceBackendFromEnv({ BACKEND_PORT: '0', BACKEND_HOST: '127.0.0.1' });
});
afterAll(() => running.close());

describe('startReferenceBackendFromEnv', () => {
  it('listens on the configured host and speaks version 2', async () => {
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${running.url}/ping`)).json()).toEqual({ status: 'ok', apiVersion: 2 });
  });

  it('seeds a marketing workbook that legacy report keys resolve to', async () => {
    const r = await rpc(running.url, 'resolveLegacyKey', { key: 'reports/marketing/q1' });
    expect(r.body).toEqual({ workbookId: 'wb_demo_marketing', legacyFolderKey: 'reports/marketing/' });
  });

  it('seeds thirty demo entries, some last saved under version 1', async () => {
    const r = await rpc(running.url, 'getEntries', {});
    expect(r.body.entries).toHaveLength(30);
    expect(r.body.entries.some((e: { version: number }) => e.version === 1)).toBe(true);
  });

  it('rejects a BACKEND_PORT that is not a port number', async () => {
    await expect(startReferenceBackendFromEnv({ BACKEND_PORT: 'eighty' })).rejects.toThrow(/BACKEND_PORT/);
    await expect(startReferenceBackendFromEnv({ BACKEND_PORT: '70000' })).rejects.toThrow(/BACKEND_PORT/);
  });
});
