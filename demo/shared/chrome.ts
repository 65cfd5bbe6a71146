import type { DemoConfig } from './api.ts';

const PAGES = [
  ['/', 'Storefront'],
  ['/checkout.html', 'Server-rendered'],
  ['/react.html', 'React'],
  ['/vue.html', 'Vue'],
  ['/back-office.html', 'Back office'],
  ['/onboarding.html', 'Onboarding'],
] as const;

/** The header every demo page shares: the pages, and the service's own API reference and test portal. */
export function renderHeader(config: DemoConfig | undefined): void {
  const here = location.pathname === '/index.html' ? '/' : location.pathname;
  const header = document.querySelector('header')!;
  header.innerHTML = `<a class="brand" href="/">Paykit <span class="tag">sandbox</span></a>
    <nav aria-label="Demo pages">${PAGES.map(([href, name]) => `<a href="${href}"${href === here ? ' aria-current="page"' : ''}>${name}</a>`).join('')}</nav>
    <nav aria-label="Service" class="service-links"></nav>`;
  if (!config) return;
  const service = header.querySelector('.service-links')!;
  for (const [path, name] of [['/docs', 'API reference'], ['/portal', 'Test portal']] as const) {
    const link = document.createElement('a');
    link.href = `${config.serviceUrl}${path}`;
    link.textContent = name;
    service.append(link);
  }
}
