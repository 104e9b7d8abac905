// Version 3's custom dashboard migrations down, declared as data (core/translate/bytes): the defaults olderItemFields
// fills, olderSettings' hideTabs, and the description kept in the annotation; the rewriter applies these edits on the
// answer's bytes, and a test holds each declaration equal to its function.

import { declareEdits } from '../../core/translate/bytes/index.js';
import type { Edit } from '../../core/translate/bytes/index.js';
import { dashboardChangesV3, olderItemFields, olderSettings, OLDER_TITLE_SIZE } from './dashboards-changes.js';

/** What the v1 format requires of a selector's source where version 3 lets it out (fillSource), unless external. */
const SOURCE: readonly Edit[] = [
  {
    when: [{ key: 'sourceType', isNot: ['external'] }],
    then: [
      {
        within: 'source',
        then: [
          { default: 'showTitle', value: { notEqual: { key: 'titlePlacement', value: 'hide' } } },
          { when: [{ key: 'elementType', is: ['select'] }], then: [{ default: 'multiselectable', value: false }] },
          { when: [{ key: 'elementType', is: ['date'] }], then: [{ default: 'isRange', value: false }] },
        ],
      },
    ],
  },
];

/** One item's defaults by its type (fillItem). */
const ITEM: readonly Edit[] = [
  { when: [{ key: 'type', is: ['title'] }], then: [{ within: 'data', then: [{ setUnlessType: 'size', type: 'string', value: OLDER_TITLE_SIZE }, { default: 'showInTOC', value: false }] }] },
  { when: [{ key: 'type', is: ['widget'] }], then: [{ within: 'data', then: [{ eachIn: 'tabs', then: [{ default: 'description', value: '' }, { default: 'isDefault', value: false }] }] }] },
  { when: [{ key: 'type', is: ['control'] }], then: [{ within: 'data', then: [{ dropIf: 'impactType', equals: 'asGroup' }, ...SOURCE] }] },
  { when: [{ key: 'type', is: ['group_control'] }], then: [{ within: 'data', then: [{ eachIn: 'group', then: [{ default: 'defaults', value: {} }, ...SOURCE] }] }] },
];

/** olderItemFields: every item and global item of every tab. */
export const OLDER_ITEM_FIELDS: readonly Edit[] = [
  { within: 'data', then: [{ eachIn: 'tabs', then: [{ eachIn: 'items', then: ITEM }, { eachIn: 'globalItems', then: ITEM }] }] },
];

/** olderSettings: hideTabs false where the settings lack it. */
export const OLDER_SETTINGS: readonly Edit[] = [{ within: 'data', then: [{ within: 'settings', then: [{ default: 'hideTabs', value: false }] }] }];

/** keepAnnotation: data.description also in annotation.description, unless the annotation has a string there. */
export const KEEP_ANNOTATION: readonly Edit[] = [{ copyString: { from: ['data', 'description'], into: ['annotation', 'description'] } }];

/** keepAnnotation is private to its module: found by the one custom change that covers data.description alone. */
export const keepAnnotation = dashboardChangesV3.flatMap((c) =>
  c.kind === 'custom' && c.covers.length === 1 && c.covers[0]?.path === 'data.description' && c.object?.dashboard ? [c.object.dashboard] : [],
)[0];

declareEdits(olderItemFields, OLDER_ITEM_FIELDS);
declareEdits(olderSettings, OLDER_SETTINGS);
if (keepAnnotation) declareEdits(keepAnnotation, KEEP_ANNOTATION);
