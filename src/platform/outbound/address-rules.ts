import net from 'node:net';

/**
 * Which addresses the service's own outbound requests (cloud import, webhooks, revocation checks, remote signing)
 * may reach. Private, loopback, link-local, shared (CGNAT), multicast and reserved ranges are refused unless the
 * operator allows private targets (OUTBOUND_ALLOW_PRIVATE, for tests); cloud metadata endpoints are refused always.
 */
const blockedRanges = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blockedRanges.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) blockedRanges.addSubnet(address, prefix, 'ipv6');

/** Instance metadata services: credentials live there, so no configuration opens them. */
const metadataAddresses = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

export function checkAddress(address: string, allowPrivate: boolean): AddressVerdict {
  const family = net.isIP(address);
  if (family === 0) return { allowed: false, reason: `${address} is not an IP address` };
  let ip = address.toLowerCase();
  let ipFamily: 'ipv4' | 'ipv6' = family === 4 ? 'ipv4' : 'ipv6';
  // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) { ip = mapped[1]; ipFamily = 'ipv4'; }
  if (metadataAddresses.has(ip)) return { allowed: false, reason: `${address} is a cloud metadata address` };
  if (allowPrivate) return { allowed: true };
  if (blockedRanges.check(ip, ipFamily)) return { allowed: false, reason: `${address} is a private, loopback, link-local or reserved address` };
  return { allowed: true };
}

/**
 * Host allow-list entries: `example.com` matches that host only; `*.example.com` matches its subdomains (not the
 * apex). An entry may name a port (`files.example.com:8443`); without one only the scheme's default port matches,
 * so a link cannot point an allowed host's name at an odd port. Compared on the ASCII (punycode) form the URL parser
 * produced, so look-alike Unicode hosts never match an ASCII entry.
 */
export function hostAllowed(url: URL, allowedHosts: readonly string[]): boolean {
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowedHosts.some((entry) => {
    const match = /^(.*?)(?::(\d+))?$/.exec(entry.trim().toLowerCase());
    const pattern = (match?.[1] ?? '').replace(/\.$/, '');
    const entryPort = match?.[2] ?? (url.protocol === 'https:' ? '443' : '80');
    if (!pattern || entryPort !== port) return false;
    if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
    return host === pattern;
  });
}
