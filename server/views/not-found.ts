import { html } from './html.ts';
import { renderPage, type Page } from './layout.ts';

export function notFoundPage(): Page {
  return renderPage({
    title: 'Page not found',
    status: 404,
    body: html`<p>There is no page at this address.</p><p class="links"><a href="/">Go to the service home page</a></p>`,
  });
}
