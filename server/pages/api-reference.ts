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
  };
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Paykit API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<noscript><p>The API reference needs JavaScript. The OpenAPI document it shows is at <a href="${documentUrl}">${documentUrl}</a>.</p></noscript>
<script id="api-reference" data-url="${documentUrl}" data-configuration="${JSON.stringify(configuration)}"></script>
<script src="${rendererUrl}"></script>
</body>
</html>
`;
  return { status: 200, html: page.text };
}
