import { isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

/**
 * Addresses a webhook must not reach in production, so the service cannot be turned against its own network:
 * loopback, private, link-local, carrier-grade NAT, unspecified, multicast and reserved ranges (IPv4 and IPv6,
 * IPv4-mapped included).
 */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPrivateAddress(mapped[1]!);
  // URL parsing writes IPv4-mapped addresses in hex (::ffff:7f00:1 for 127.0.0.1).
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hexMapped) {
    const [high, low] = [parseInt(hexMapped[1]!, 16), parseInt(hexMapped[2]!, 16)];
    return isPrivateAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  if (isIP(address) === 4) {
    const [a, b] = address.split('.').map(Number) as [number, number];
    return (
      a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || (a === 192 && b === 0) || (a === 198 && (b === 18 || b === 19)) || a >= 224
    );
  }
  if (isIP(address) === 6) {
    const lower = address.toLowerCase();
    return lower === '::' || lower === '::1' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower) || lower.startsWith('ff');
  }
  return true;
}

export type Resolve = (hostname: string) => Promise<string[]>;
export const resolveAll: Resolve = async (hostname) => (await lookup(hostname, { all: true })).map((entry) => entry.address);

/**
 * What is wrong with a webhook URL, or null when it may be used. `allowPrivate` (the sandbox) lets a partner
 * point it at their own machine.
 */
export async function checkWebhookUrl(text: string, allowPrivate: boolean, resolve: Resolve = resolveAll): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'webhook_url must be an absolute URL such as https://partner.example/webhooks.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'webhook_url must use https (or http).';
  if (url.username || url.password) return 'webhook_url must not carry a user name or password.';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return `webhook_url's host ${host} does not resolve.`;
  }
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) {
    return `webhook_url must reach a public address; ${host} is loopback, private or link-local.`;
  }
  return null;
}
