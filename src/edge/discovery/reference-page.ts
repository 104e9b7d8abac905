// The interactive API reference page of one version: Swagger UI on that version's OpenAPI document, with the
// version's lifecycle (deprecation and sunset dates, migration guide) at the top.

export interface PageLifecycle {
  readonly status: 'unreleased' | 'current' | 'deprecated' | 'sunset';
  readonly releasedAt: Date;
  readonly deprecatedAt?: Date | undefined;
  readonly sunsetAt?: Date | undefined;
  readonly migrationGuide?: string | undefined;
}

export interface PageOptions {
  readonly version: number;
  /** The page is /latest/ (the newest released version). */
  readonly latest: boolean;
  readonly lifecycle: PageLifecycle;
  /** Every version with a page, for the navigation line. */
  readonly versions: readonly number[];
  /** What stands behind the gateway (upstream.kind) and the API version it speaks: said under the navigation line. */
  readonly backend?: { readonly kind: 'rpc' | 'datalens-oss'; readonly apiVersion: number };
}

/** The line that says what serves this version's calls, when it is not simply a backend at this version. */
export function backendNotice(version: number, backend: PageOptions['backend']): string | undefined {
  if (!backend) return undefined;
  const below = backend.apiVersion < version ? `; calls at ${version} are translated down to version ${backend.apiVersion} and their answers up` : '';
  if (backend.kind === 'datalens-oss') {
    const said = below ? `; calls at ${version} are translated down to the version it serves them at (${backend.apiVersion}; 2 for its folder and Editor chart methods) and their answers up` : '';
    return `Served by a self-hosted open-source DataLens, which speaks API version ${backend.apiVersion}${said}. The methods it cannot serve are not listed.`;
  }
  return below ? `Served by a backend that speaks API version ${backend.apiVersion}${below}.` : undefined;
}

/** Content-Security-Policy of the page: only the gateway's own scripts, styles and documents. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const day = (d: Date) => d.toISOString().slice(0, 10);

/** The sentence at the top of a page whose version is not simply current; undefined when it is. */
export function lifecycleNotice(version: number, lifecycle: PageLifecycle): string | undefined {
  const guide = lifecycle.migrationGuide
    ? ` <a href="${escapeHtml(lifecycle.migrationGuide)}" rel="noopener noreferrer">Migration guide</a>.`
    : '';
  switch (lifecycle.status) {
    case 'current':
      return undefined;
    case 'unreleased':
      return `API version ${version} is not released yet: it will be from ${day(lifecycle.releasedAt)}; calls at this version are refused until then.`;
    case 'deprecated':
      return (
        `API version ${version} is deprecated since ${day(lifecycle.deprecatedAt ?? lifecycle.releasedAt)}` +
        (lifecycle.sunsetAt ? ` and will be switched off on ${day(lifecycle.sunsetAt)} (sunset).` : '.') +
        ' Move to the latest version before then.' +
        guide
      );
    case 'sunset':
      return (
        `API version ${version} was switched off on ${day(lifecycle.sunsetAt ?? lifecycle.releasedAt)} (sunset): calls at this version answer 410.` +
        ` Every operation below is retired and shown for reference only.${guide}`
      );
  }
}

/** The page's HTML; every link is relative, so it works under any route prefix; past the sunset, <body> is "dlgw-retired". */
export function renderReferencePage(options: PageOptions): string {
  const { version, latest, lifecycle } = options;
  // /<v>/ and /latest/ are both one level below the prefix; a version's document is <v>/json/, latest's json/.
  const up = '../';
  const spec = latest ? `${up}json/` : 'json/';
  const notice = lifecycleNotice(version, lifecycle);
  const served = backendNotice(version, options.backend);
  const title = `DataLens public API, version ${version}${latest ? ' (latest)' : ''}`;
  const nav = [
    ...options.versions.map((v) => `<a href="${up}${v}/">Version ${v}</a>`),
    `<a href="${up}latest/">Latest</a>`,
    `<a href="${up}versions">Versions</a>`,
    `<a href="${up}changelog">Changelog</a>`,
    `<a href="${spec}">OpenAPI document</a>`,
  ].join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/png" href="${up}_reference/favicon-32x32.png">
<link rel="stylesheet" href="${up}_reference/swagger-ui.css">
<link rel="stylesheet" href="${up}_reference/page.css">
</head>
<body${lifecycle.status === 'sunset' ? ' class="dlgw-retired"' : ''}>
${notice ? `<p class="dlgw-banner ${lifecycle.status}" role="alert" data-status="${lifecycle.status}">${notice}</p>\n` : ''}<nav class="dlgw-nav">${nav}</nav>
${served ? `<p class="dlgw-backend" data-backend="${options.backend?.kind}">${escapeHtml(served)}</p>\n` : ''}<div id="swagger-ui" data-spec="${escapeHtml(spec)}"></div>
<script src="${up}_reference/swagger-ui-bundle.js"></script>
<script src="${up}_reference/start.js"></script>
</body>
</html>
`;
}
