// A small contract for the impact core's tests (test/core/impact-*.test.ts): each kind of change on a method's request,
// its answer and an object kind located in requests and answers, compatible changes that meet no one, a removed
// method, and deprecations inside versions. Built by a call, inside each test (see README.md, "Fixtures").

import { z } from 'zod';
import { custom, fieldAdded, fieldRemoved, fieldRenamed, fieldToArray, methodAdded, methodRemoved, object, request, response } from '../../src/core/contract-model/builders.js';
import { type LoadedContract, loadContract } from '../../src/core/contract-model/load.js';
import type { MethodSpec, VersionSpec } from '../../src/core/contract-model/types.js';

const loose = (extra: Partial<MethodSpec> = {}): MethodSpec => ({ request: z.looseObject({}), response: z.looseObject({}), ...extra });
const widget = object('widget');
const same = (b: Record<string, unknown>) => b;

/**
 * v1: save (a widget at `w` and at each `extra.*` of its request, one in its answer), read (a widget), list (widgets
 * at `items.*`, tags at `tags.*`), put (a widget as the request), tags (tags only), gone, ping, other. v2 removes gone and adds fresh (a widget in its answer). v3 changes list, ping,
 * read, other and widgets again.
 */
export function impactContract(): LoadedContract {
  const methods = (v: number): Record<string, MethodSpec> => ({
    save: loose({ objects: [{ type: 'widget', path: '' }], requestObjects: [{ type: 'widget', path: 'w' }, { type: 'widget', path: 'extra.*' }] }),
    read: loose({ objects: [{ type: 'widget', path: '' }] }),
    list: loose({ objects: [{ type: 'tag', path: 'tags.*' }, { type: 'widget', path: 'items.*' }] }),
    // The whole request is a widget (and a tag at `tag`); no widget in the answer.
    put: loose({ requestObjects: [{ type: 'tag', path: 'tag' }, { type: 'widget', path: '' }] }),
    // Answers tags only, which no change touches.
    tags: loose({ objects: [{ type: 'tag', path: '' }], requestObjects: [{ type: 'tag', path: 'tag' }] }),
    ping: loose(),
    other: loose(),
    ...(v === 1 && { gone: loose() }),
    ...(v >= 2 && { fresh: loose({ objects: [{ type: 'widget', path: 'found' }] }) }),
  });
  const versions: VersionSpec[] = [
    {
      version: 1,
      methods: methods(1),
      changes: [],
      deprecations: [
        { method: 'save', path: 'note', since: '2026-01-01', replacement: 'nothing', description: 'save: note is going' },
        { method: 'gone', since: '2026-01-10', replacement: 'read', description: 'gone is going' },
      ],
    },
    {
      version: 2,
      methods: methods(2),
      changes: [
        fieldRemoved(request('save'), 'note', 'save drops note'),
        fieldRenamed(widget, 'name', 'title', 'a widget name is its title'),
        methodRemoved('gone', 'gone is gone'),
        fieldAdded(response('read'), 'x', 1, 'read answers x'),
        methodAdded('fresh', 'fresh appears'),
      ],
      additions: [fieldAdded(request('save'), 'y', 0, 'save takes y')],
      deprecations: [
        { method: 'read', since: '2026-06-01T12:00:00Z', replacement: 'list', description: 'read is going' },
        { method: 'save', path: 'extra.*.title', since: '2026-03-01', replacement: 'w.title', description: 'extra titles are going' },
      ],
    },
    {
      version: 3,
      methods: methods(3),
      changes: [
        fieldToArray(response('list'), 'items.*.tags', 'list answers tags'),
        custom({ description: 'ping is stamped', compatible: false, covers: [], request: { ping: same } }),
        custom({ description: 'other answers differently', compatible: false, covers: [], response: { other: same } }),
        custom({
          description: 'read answers a pair',
          compatible: false,
          covers: [
            { target: response('read'), path: 'a' },
            { target: response('read'), path: 'b' },
          ],
          response: { read: same },
        }),
        custom({ description: 'a compatible custom change', compatible: true, covers: [{ target: request('save'), path: 'z' }], request: { save: same } }),
        custom({ description: 'widgets have a size', compatible: false, covers: [{ target: widget, path: 'size' }], object: { widget: same } }),
        fieldToArray(request('save'), 'tag', 'save takes tags'),
      ],
    },
  ];
  return loadContract({ versions });
}
