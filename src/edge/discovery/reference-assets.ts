// The reference pages' static files: Swagger UI's own (from the swagger-ui-dist package, served by the gateway
// itself: no CDN, works offline) and the page's start-up script and style, read once and kept in memory.

import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface Asset {
  readonly type: string;
  readonly body: Buffer;
  /** The body gzip-compressed, for text files (the Swagger UI bundle is 1.7 MB, about 0.5 MB compressed). */
  readonly gzip?: Buffer;
}

const SWAGGER_UI_FILES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** Starts Swagger UI on the page's document; a script file, so the page's CSP needs no inline script. */
const START = `// Starts Swagger UI on the document named by the page (relative to it).
window.addEventListener('DOMContentLoaded', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-spec'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    // No call to an online validator: the page works offline.
    validatorUrl: null,
  });
});
`;

const STYLE = `body { margin: 0; font-family: sans-serif; }
.dlgw-banner { margin: 0; padding: 12px 20px; font-size: 15px; line-height: 1.4; }
.dlgw-banner.deprecated { background: #fff4ce; border-bottom: 2px solid #e0a800; color: #3d3000; }
.dlgw-banner.sunset, .dlgw-banner.unreleased { background: #fde7e9; border-bottom: 2px solid #c50f1f; color: #4a0008; }
.dlgw-banner a { color: inherit; }
.dlgw-nav { padding: 8px 20px; font-size: 14px; border-bottom: 1px solid #ddd; }
.dlgw-nav a { margin-right: 12px; }
/* Swagger UI greys deprecated operations (opacity .6, a pale badge with white text): on a deprecated version every
   operation is, and the banner says so, so keep them legible: full opacity, a dark badge, the path not struck. */
.swagger-ui .opblock.opblock-deprecated { opacity: 1; border-color: #8a8a8a; }
.swagger-ui .opblock.opblock-deprecated .opblock-summary-method { background: #5c5c5c; color: #fff; }
.swagger-ui .opblock .opblock-summary-path__deprecated { text-decoration: none; color: #3b4151; }
/* Past its sunset a version answers 410 to every call: every operation greyed, its badge grey, and marked "retired". */
.dlgw-retired .swagger-ui .opblock { background: #f2f2f2; border-color: #b4b4b4; box-shadow: none; }
.dlgw-retired .swagger-ui .opblock .opblock-summary { border-color: #b4b4b4; }
.dlgw-retired .swagger-ui .opblock .opblock-summary-method { background: #8a8a8a; color: #fff; }
.dlgw-retired .swagger-ui .opblock .opblock-summary-path,
.dlgw-retired .swagger-ui .opblock .opblock-summary-path__deprecated,
.dlgw-retired .swagger-ui .opblock .opblock-summary-description { color: #6b6b6b; }
.dlgw-retired .swagger-ui .opblock .opblock-summary-path::after {
  content: "retired: answers 410"; margin-left: 10px; padding: 1px 6px; border: 1px solid #c50f1f; border-radius: 3px;
  color: #a00d1a; font: 600 11px/1.4 sans-serif; text-transform: uppercase; letter-spacing: .03em; white-space: nowrap;
}
`;

let cache: ReadonlyMap<string, Asset> | undefined;

/** The file of that name, or undefined: only the files listed here are ever served. */
export function referenceAsset(name: string): Asset | undefined {
  if (!cache) {
    const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    const files = new Map<string, Asset>();
    const asset = (type: string, body: Buffer): Asset => (type.startsWith('text/') ? { type, body, gzip: gzipSync(body) } : { type, body });
    for (const [file, type] of Object.entries(SWAGGER_UI_FILES)) files.set(file, asset(type, readFileSync(join(dir, file))));
    files.set('start.js', asset('text/javascript; charset=utf-8', Buffer.from(START)));
    files.set('page.css', asset('text/css; charset=utf-8', Buffer.from(STYLE)));
    cache = files;
  }
  return cache.get(name);
}
