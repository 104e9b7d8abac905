// A dashboard's content in the DashboardV2 shape (API version 3), as real DataLens migrates a dashboard saved
// earlier when it is read or saved again. Rules: the API changelog, version 3 (github.com/yandex-cloud/docs
// ru/datalens/release-notes/api-changelog.md); docs/reference/object-versions.md, "Dashboards at version 3".

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One colour → the themed pair, the same colour for both themes; a pair already there stays. */
const themed = (colour: unknown): Json => ({ light: colour, dark: colour });

/** An item's data in the v3 shape: `background` → `backgroundSettings.color`, `textColor` → `textSettings.color`, `widgetTabId` → `widgetTabIds`. */
function itemData(type: unknown, data: Json): Json {
  const out: Json = { ...data };
  if (isObject(out.background)) {
    const { color, ...rest } = out.background;
    if (color !== undefined) {
      const settings = isObject(out.backgroundSettings) ? out.backgroundSettings : {};
      out.backgroundSettings = { ...settings, color: settings.color ?? themed(color) };
    }
    if (Object.keys(rest).length) out.background = rest;
    else delete out.background;
  }
  if (type === 'title' && out.textColor !== undefined) {
    const settings = isObject(out.textSettings) ? out.textSettings : {};
    out.textSettings = { ...settings, color: settings.color ?? themed(out.textColor) };
    delete out.textColor;
  }
  if (type === 'neuro_widget' && out.widgetTabId !== undefined) {
    if (!Array.isArray(out.widgetTabIds)) out.widgetTabIds = [out.widgetTabId];
    delete out.widgetTabId;
  }
  return out;
}

const items = (list: unknown): unknown =>
  Array.isArray(list) ? list.map((item) => (isObject(item) && isObject(item.data) ? { ...item, data: itemData(item.type, item.data) } : item)) : list;

/** The dashboard's data and annotation in the v3 shape (no schemeVersion; the description in the annotation). */
export function dashboardV3(data: unknown, annotation: unknown): { data: Json; annotation: Json | null } {
  const { schemeVersion: _scheme, description, ...rest } = isObject(data) ? data : {};
  const tabs = Array.isArray(rest.tabs)
    ? rest.tabs.map((tab) => (isObject(tab) ? { ...tab, items: items(tab.items), ...(tab.globalItems !== undefined && { globalItems: items(tab.globalItems) }) } : tab))
    : rest.tabs;
  const note = isObject(annotation) ? annotation : null;
  const moved = typeof description === 'string' && (note === null || note.description === undefined) ? { ...note, description } : note;
  return { data: { ...rest, tabs }, annotation: moved };
}
