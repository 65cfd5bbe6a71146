import { BlockList, isIPv4, isIPv6, type Server } from 'node:net';

/** The named ranges `PAYKIT_TRUST_PROXY` takes (as Fastify's trustProxy reads them), as subnets. */
const NAMED_RANGES: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  linklocal: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  uniquelocal: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
};

/**
 * Each caller address may hold at most `perAddress` of the service's open connections, so that one caller cannot take
 * every connection the cap allows and shut the others out: past its share, a new connection of that address is closed
 * as it arrives, without an answer, as one past the cap is. An IPv6 caller is counted by its /64 (one host has a whole
 * /64 to pick addresses from). Trusted proxies (`PAYKIT_TRUST_PROXY`) carry many callers and have no share: the cap
 * alone bounds them.
 */
export function shareConnections(server: Server, perAddress: number, trustProxy: string[]): void {
  const trusted = blockListOf(trustProxy);
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    if (!socket.remoteAddress) return;
    const key = callerKey(socket.remoteAddress);
    if (isIPv4(key) ? trusted.check(key, 'ipv4') : trusted.check(socket.remoteAddress, 'ipv6')) return;
    const count = open.get(key) ?? 0;
    if (count >= perAddress) return void socket.destroy();
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = open.get(key)! - 1;
      if (left === 0) open.delete(key);
      else open.set(key, left);
    });
  });
}

function blockListOf(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    for (const [address, bits, type] of NAMED_RANGES[entry] ?? [entryRange(entry)]) list.addSubnet(address, bits, type);
  }
  return list;
}

function entryRange(entry: string): [string, number, 'ipv4' | 'ipv6'] {
  const [address = '', bits] = entry.split('/');
  const type = isIPv4(address) ? 'ipv4' : 'ipv6';
  return [address, bits === undefined ? (type === 'ipv4' ? 32 : 128) : Number(bits), type];
}

/** Whom a connection counts against: an IPv4 address (mapped ones included), or an IPv6 address's /64. */
export function callerKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail] = address.toLowerCase().split('::');
  const groupsOf = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group]));
  const front = groupsOf(head);
  const back = tail === undefined ? [] : groupsOf(tail);
  const full = [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return `${full
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
