import { html } from './html.ts';
import type { Page } from './layout.ts';

export interface ApiReferencePageOptions {
  /** The OpenAPI document the reference renders. */
  documentUrl: string;
  /** The renderer's script (Scalar's standalone bundle, served by us). */
  rendererUrl: string;
  /** Where "try it" sends requests: this service's API, whatever host name the reader used. */
  apiUrl: string;
  environment: string;
}

/**
 * Scalar's muted text and method colours fall short of WCAG AA contrast (4.5:1) on its own backgrounds; these keep
 * its look a few shades darker (lighter in dark mode) so that axe finds nothing.
 */
const ACCESSIBLE_COLORS = `
.light-mode { --scalar-color-2: #505050; --scalar-color-3: #616161; --scalar-color-green: #006b44; --scalar-color-blue: #0054b4; --scalar-color-orange: #a84300; --scalar-color-red: #b5241c; --scalar-color-purple: #6f3cb3; --scalar-color-yellow: #7a5a00; }
.dark-mode { --scalar-color-3: #a0a0a0; }
`;

/**
 * The API reference: Scalar renders the document in the page, with search, a section per tag, examples, code
 * samples, and "try it" against this service. Nothing leaves for another host: no fonts, no telemetry, no proxy,
 * no AI agent (the page's CSP allows only this origin).
 */
export function apiReferencePage({ documentUrl, rendererUrl, apiUrl, environment }: ApiReferencePageOptions): Page {
  const configuration = {
    url: documentUrl,
    servers: [{ url: apiUrl, description: environment }],
    withDefaultFonts: false,
    telemetry: false,
    proxyUrl: '',
    agent: { disabled: true },
    showDeveloperTools: 'never',
    persistAuth: false,
    hideModels: false,
    documentDownloadType: 'json',
    defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
    authentication: { preferredSecurityScheme: 'basicAuth' },
    metaData: { title: 'Paykit API reference' },
    customCss: ACCESSIBLE_COLORS,
  };
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Paykit API reference</title>
<script src="${rendererUrl}" defer></script>
</head>
<body>
<noscript><p>The API reference needs JavaScript. The OpenAPI document it shows is at <a href="${documentUrl}">${documentUrl}</a>.</p></noscript>
<script id="api-reference" data-url="${documentUrl}" data-configuration="${JSON.stringify(configuration)}"></script>
</body>
</html>
`;
  return { status: 200, html: page.text };
}
