import type { Environment } from '../platform/config.ts';
import { html } from './html.ts';
import { renderPage, type Page } from './layout.ts';

export function homePage(environment: Environment): Page {
  const body = html`<p>This is the Paykit ${environment} service: onboard merchants, take payments through pay links, and hear about it by signed webhooks.
Every API call is under <code>/api/v1</code> and uses HTTP Basic authentication.</p>
<ul class="links">
<li><a href="/docs">API reference</a></li>
<li><a href="/api/v1/openapi.json">OpenAPI document (JSON)</a></li>
${environment === 'sandbox' && html`<li><a href="/portal">Sandbox test portal: get credentials</a></li>`}
</ul>`;
  return renderPage({ title: 'Paykit payment service', body });
}
