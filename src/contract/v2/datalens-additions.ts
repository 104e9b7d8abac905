// Version 2, the compatible DataLens changes: the new getEntries arguments and the methods added while v2 was current.
//
// Source: github.com/yandex-cloud/docs, en/datalens/release-notes/api-changelog.md (versions 2, 15.06 and 28.07.2026)
// and en/datalens/openapi-ref/*EditorChart.md for the Editor charts; `type` is the United Storage filter
// (github.com/datalens-tech/datalens-us, src/controllers/entries/get-entries.ts) that v2 exposes. The licensing,
// embedding, audit, access-binding and navigation methods complete the real v2 method list
// (the live version-2 spec at https://api.datalens.tech/json/ as of 2026-07-27, 95 methods); their schemas cite the
// real spec (spec-source.ts).

import { custom, methodAdded, request } from '../../core/contract-model/builders.js';
import type { Change, MethodSpec } from '../../core/contract-model/types.js';
import { accessBindingMethods } from './access-bindings.js';
import { auditMethods } from './audit.js';
import { editorChartMethods } from './editor-charts.js';
import { embeddingSecretMethods, embedMethods } from './embeds.js';
import { licensingMethods } from './licensing.js';
import { navigationMethods } from './navigation.js';
import { entryLockMethods, folderMethods, htmlPageMethods } from './v2-listed-methods.js';

const groups: readonly (readonly [Record<string, MethodSpec>, string])[] = [
  [editorChartMethods, 'Editor charts'],
  [folderMethods, 'folders and permissions'],
  [htmlPageMethods, 'HTML pages'],
  [entryLockMethods, 'entry edit locks'],
  [licensingMethods, 'licensing'],
  [embedMethods, 'private embedding'],
  [embeddingSecretMethods, 'embedding secrets'],
  [auditMethods, 'audit'],
  [accessBindingMethods, 'access bindings'],
  [navigationMethods, 'entries and folders'],
];

/** The methods version 2 adds to version 1's. */
export const datalensMethodsV2: Readonly<Record<string, MethodSpec>> = Object.freeze(Object.assign({}, ...groups.map(([methods]) => methods)));

export const datalensChangesV2: readonly Change[] = [
  // Absent means what v1 does (shared entries listed, any type), so v1 requests need no migration.
  custom({
    description:
      'getEntries accepts `ignoreSharedEntries` (leave shared entries out of the answer) and `type` (only entries of this type).',
    compatible: true,
    covers: [
      { target: request('getEntries'), path: 'ignoreSharedEntries' },
      { target: request('getEntries'), path: 'type' },
    ],
  }),
  ...groups.flatMap(([methods, family]) =>
    Object.keys(methods).map((name) => methodAdded(name, `New method ${name} (${family}).`)),
  ),
];
