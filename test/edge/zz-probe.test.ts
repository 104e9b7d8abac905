import { it } from 'vitest';
import { startFaultUpstream } from '../helpers/fault-upstream.js';
import { rpc, startStack } from '../helpers/stack.js';
it('probe', async () => {
  for (const mode of ['garbage', 'reset-mid-body', 'html'] as const) {
    const up = await startFaultUpstream(mode);
    const stack = await startStack({ upstreamUrl: up.url });
    const r = await fetch(`${stack.url}/rpc/getReport`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dl-api-version': '2' }, body: '{"reportId":"x"}' }).catch((e) => e);
    if (r instanceof Error) console.log(mode, 'fetch error', r.message, (r as any).cause?.code);
    else { console.log(mode, r.status, [...r.headers]); console.log(await r.text().catch((e: any) => 'text error ' + e.message + ' ' + e.cause?.code)); }
    console.log(mode, 'v1', JSON.stringify(await rpc(stack.url, 'getReport', { reportId: 'x' }, '1')));
    await stack.close(); await up.close();
  }
});
