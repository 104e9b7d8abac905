// Method families: the tag each method is listed under in the OpenAPI documents, found from its name.

export interface Family {
  readonly name: string;
  readonly description: string;
}

// Ordered: the first family whose pattern matches the method name wins (getWorkbookEntries is a workbook method,
// startWorkbookExport an export one).
const FAMILIES: readonly (readonly [RegExp, Family])[] = [
  [/Export|Import/, { name: 'Export and import', description: 'Moving whole workbooks between installations.' }],
  [/QLChart/, { name: 'QL charts', description: 'Charts built from SQL queries.' }],
  [/WizardChart/, { name: 'Wizard charts', description: 'Charts built in the chart wizard.' }],
  [/EditorChart/, { name: 'Editor charts', description: 'Charts written in the chart editor.' }],
  [/Collection/, { name: 'Collections', description: 'Folders of workbooks and collections.' }],
  [/Workbook/, { name: 'Workbooks', description: 'Workbooks and the entries they hold.' }],
  [/Connection/, { name: 'Connections', description: 'Connections to data sources.' }],
  [/Dataset/, { name: 'Datasets', description: 'Datasets over connections.' }],
  [/Dashboard/, { name: 'Dashboards', description: 'Dashboards and their revisions.' }],
  [/Report/, { name: 'Reports', description: 'Reports.' }],
  [/HtmlPage/, { name: 'HTML pages', description: 'HTML pages and their revisions.' }],
  [/License/, { name: 'Licensing', description: 'Creator licences and their limit.' }],
  [/Embed/, { name: 'Embedding', description: 'Private embeds of entries and the secrets that sign them.' }],
  [/Audit/, { name: 'Audit', description: 'What changed, and who may do what, for auditors.' }],
  [/Folder|Permissions|dlsSuggest|Members|Directory/, { name: 'Folders and access', description: 'Folders, and permissions on what they hold.' }],
  [/Entr(?:y|ies)/, { name: 'Entries', description: 'Any object by its entry: listing, relations, locks.' }],
];

export const OTHER_FAMILY: Family = { name: 'Other', description: 'Methods of no family above.' };

export function familyOf(method: string): Family {
  for (const [pattern, family] of FAMILIES) if (pattern.test(method)) return family;
  return OTHER_FAMILY;
}
