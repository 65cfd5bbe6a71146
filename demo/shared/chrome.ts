import type { DemoConfig } from './api.ts';

const PAGES = [
  ['/', 'Storefront'],
  ['/checkout.html', 'Server-rendered'],
  ['/react.html', 'React'],
  ['/vue.html', 'Vue'],
  ['/back-office.html', 'Back office'],
  ['/onboarding.html', 'Onboarding'],
] as const;

const SERVICE_LINKS = [
  ['/docs', 'API reference'],
  ['/portal', 'Test portal'],
] as const;

/**
 * The header every demo page shares: the pages, and the service's own API reference and test portal. The demo's
 * server writes it into each page (demo/backend/plugin.ts), so the page does not move when its script runs.
 */
export function headerHtml(path: string, serviceUrl: string | undefined): string {
  const here = path === '/index.html' ? '/' : path;
  return `<a class="brand" href="/">Paykit <span class="tag">sandbox</span></a>
    <nav aria-label="Demo pages">${PAGES.map(([href, name]) => `<a href="${href}"${href === here ? ' aria-current="page"' : ''}>${name}</a>`).join('')}</nav>
    <nav aria-label="Service" class="service-links">${serviceUrl === undefined ? '' : SERVICE_LINKS.map(([link, name]) => `<a href="${serviceUrl}${link}">${name}</a>`).join('')}</nav>`;
}

/** The header, where the page came without it (served by another server than the demo's). */
export function renderHeader(config: DemoConfig | undefined): void {
  const header = document.querySelector('header')!;
  if (!header.childElementCount) header.innerHTML = headerHtml(location.pathname, config?.serviceUrl);
}
