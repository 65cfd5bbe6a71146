import { isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

/** An IPv6 address as its eight 16-bit words (zone id dropped, an IPv4 tail read as two words); undefined if malformed. */
function ipv6Words(address: string): number[] | undefined {
  let text = address.toLowerCase().split('%')[0]!;
  const v4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (v4Tail) {
    if (isIP(v4Tail) !== 4) return undefined;
    const [a, b, c, d] = v4Tail.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -v4Tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const words = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (!words.every((word) => /^[0-9a-f]{1,4}$/.test(word))) return undefined;
  return words.map((word) => parseInt(word, 16));
}

function isPrivateIpv4(address: string): boolean {
  const [a, b, c] = address.split('.').map(Number) as [number, number, number];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) ||
    (a === 192 && b === 88 && c === 99) ||
    (a === 198 && (b === 18 || b === 19)) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113) ||
    a >= 224
  );
}

/**
 * Addresses a webhook must not reach in production, so the service cannot be turned against its own network.
 * IPv4: loopback, private, link-local, carrier-grade NAT, documentation, benchmarking, multicast and reserved
 * ranges. IPv6: everything but global unicast (2000::/3), so loopback, unique-local, link- and site-local,
 * multicast, NAT64 (64:ff9b::/96) and IPv4-compatible or -translated forms are refused whatever they embed; within
 * 2000::/3, the IETF (Teredo), 6to4 and documentation ranges too. IPv4-mapped addresses are judged by their IPv4.
 */
export function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 4) return isPrivateIpv4(address);
  const words = ipv6Words(address);
  if (!words) return true;
  const [w0, w1] = words as [number, number];
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff) {
    return isPrivateIpv4(`${words[6]! >> 8}.${words[6]! & 255}.${words[7]! >> 8}.${words[7]! & 255}`);
  }
  if ((w0 & 0xe000) !== 0x2000) return true;
  return (
    (w0 === 0x2001 && w1 < 0x0200) ||
    (w0 === 0x2001 && w1 === 0x0db8) ||
    w0 === 0x2002 ||
    (w0 === 0x3fff && w1 < 0x1000)
  );
}

export type Resolve = (hostname: string) => Promise<string[]>;
const resolveAll: Resolve = async (hostname) => (await lookup(hostname, { all: true })).map((entry) => entry.address);

/**
 * What is wrong with a webhook URL, or null when it may be used. `allowPrivate` (the sandbox) lets a partner
 * point it at their own machine.
 */
export async function checkWebhookUrl(
  text: string,
  allowPrivate: boolean,
  resolve: Resolve = resolveAll,
): Promise<string | null> {
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
