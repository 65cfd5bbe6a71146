import type { FastifyRequest } from 'fastify';

/**
 * Whether a request comes from a web page of another site. Browsers say so (`Sec-Fetch-Site`, or an `Origin` whose
 * host is not ours); servers send neither header. Calls that take a client's secret, or that a page could be
 * tricked into making (the portal's form), must not come from other sites: a browser may hold the credentials.
 */
export function fromAnotherSite(request: FastifyRequest): boolean {
  // Browsers that send Sec-Fetch-Site say exactly where a request comes from; trust it over `Origin`, which a page
  // with `Referrer-Policy: no-referrer` (ours) sends as "null" even for its own forms.
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'cross-site' || site === 'same-site';
  const origin = request.headers.origin;
  if (!origin) return false;
  try {
    return new URL(origin).host !== request.headers.host;
  } catch {
    return true;
  }
}
