// Objects the web UI saves under a version not yet released (the backend is upgraded, the release date is not
// reached, `latest` still resolves to the version before): they never lock `latest` clients out just for being
// newer. Under either rule they are served when the client's version shows them whole; otherwise 409 says the
// version is not released yet. The calendar is the contract's own, with the head's release date still to come.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedContract } from '../../src/contract/index.js';
import { loadContract, methodAt } from '../../src/core/contract-model/load.js';
import { buildPlan } from '../../src/core/translate/plan.js';
import { HEAD, contractCalendar, releaseOf } from '../helpers/calendar.js';
import { type Stack, rpc, startStack } from '../helpers/stack.js';
import { HEAD_HEADER, KINDS, asWebUi, type Kind } from './kinds.js';

const CALENDAR = contractCalendar({ first: '2025-01-15', head: '2026-10-01', supportWindowDays: 180 });
/** Half a day before the head's release: every older version is released, the head is not. */
const BEFORE_HEAD = new Date(releaseOf(CALENDAR, HEAD).getTime() - 43_200_000);
/** A day after the head's release. */
const AFTER_HEAD = new Date(releaseOf(CALENDAR, HEAD).getTime() + 86_400_000);
const LATEST_BEFORE = String(HEAD - 1);

const kind = (name: string) => KINDS.find((k) => k.kind === name) as Kind;
const loaded = loadContract(shippedContract);
/** Whether the contract changes what `k`'s read answers between the version before the head and the head. */
const changedAtHead = (k: Kind) => !!buildPlan(loaded, HEAD - 1, k.read('x')[0])?.kinds?.get(k.type)?.changedAt.includes(HEAD);

/** An object of `k` created by a version 1 client, then saved by the web UI (so under the head); answers its id. */
async function savedByUi(stack: Stack, k: Kind): Promise<string> {
  const created = await rpc(stack.url, ...k.create, '1');
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = k.idOf(created.body);
  const saved = await asWebUi(stack.backendUrl, ...k.write(id, 'web'));
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return id;
}

describe.each(['lossless', 'refuse-newer'] as const)('objects.olderClients: %s, before the head is released', (rule) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ now: BEFORE_HEAD, config: { lifecycle: CALENDAR, objects: { olderClients: rule } } });
  });
  afterAll(() => stack.close());

  it('latest resolves to the version before the head, and the head is refused as unreleased', async () => {
    const [method, body] = kind('dataset').read('ent_demo_03');
    const latest = await rpc(stack.url, method, body, 'latest');
    expect(latest.headers.get('x-dl-api-version')).toBe(LATEST_BEFORE);
    const head = await rpc(stack.url, method, body, HEAD_HEADER);
    expect(head.status).toBe(400);
  });

  it.each(KINDS.map((k) => [k.kind, k] as const))('a %s the web UI saved under the unreleased head: read at latest when latest shows it whole, else 409 saying the version is not released yet', async (_name, k) => {
    const id = await savedByUi(stack, k);
    const read = await rpc(stack.url, ...k.read(id), 'latest');
    if (!changedAtHead(k)) expect(read.status, JSON.stringify(read.body)).toBe(200);
    if (read.status !== 200) {
      expect(read.status).toBe(409);
      expect(read.body).toMatchObject({
        code: 'UNSUPPORTED_OBJECT_VERSION',
        details: { objectType: k.type, objectId: id, objectVersion: HEAD, requestedVersion: HEAD - 1, rule, minVersionReleased: false },
      });
      expect(read.body.message).toContain('not released yet');
      return;
    }
    // Writes: granted on kinds that did not change under the lossless rule; the strict rule sends no grant. The write
    // is the kind's version-1 body, so it is made only where that is also a body of the version `latest` names.
    const [writeMethod, writeBody] = k.write(id, 'latest client');
    if (!methodAt(loaded, HEAD - 1, writeMethod)?.request.safeParse(writeBody).success) return;
    const write = await rpc(stack.url, writeMethod, writeBody, 'latest');
    if (rule === 'lossless' && !changedAtHead(k)) expect(write.status, JSON.stringify(write.body)).toBe(200);
    else if (rule === 'refuse-newer') expect(write.status).toBe(409);
  });

  it('the shipped contract has both cases at the head: kinds that did not change and one that did', () => {
    expect(KINDS.some((k) => !changedAtHead(k))).toBe(true);
    expect(KINDS.some((k) => changedAtHead(k))).toBe(true);
  });

  it('once the head is released, the strict rule refuses what the lossless rule still serves', async () => {
    const k = kind('QL chart');
    const id = await savedByUi(stack, k);
    stack.setNow(AFTER_HEAD);
    try {
      const read = await rpc(stack.url, ...k.read(id), LATEST_BEFORE);
      if (rule === 'lossless') expect(read.status).toBe(200);
      else {
        expect(read.status).toBe(409);
        expect(read.body.details).toMatchObject({ objectVersion: HEAD, requestedVersion: HEAD - 1, rule: 'refuse-newer' });
        expect(read.body.details.minVersionReleased).toBeUndefined();
      }
    } finally {
      stack.setNow(BEFORE_HEAD);
    }
  });
});
