/**
 * Whose hosted page it is: the merchant's over the platform's (services/branding.ts). Pages without one are Paykit's
 * own (the docs, the portal).
 */
export interface Brand {
  name: string;
  /** Served by the service (`/brand-logos/…`), so the page's CSP (`img-src 'self'`) lets it in. */
  logo?: { url: string; width: number; height: number } | undefined;
  /** #rrggbb, already validated. */
  colour?: string | undefined;
}
