import net from 'node:net';

/**
 * Which addresses the service's own outbound requests (cloud import, webhooks, revocation checks, remote signing,
 * organization SMTP servers) may reach. Private, loopback, link-local, shared (CGNAT), multicast and reserved ranges
 * are refused unless the operator allows private targets (OUTBOUND_ALLOW_PRIVATE, for tests); cloud metadata
 * endpoints are refused always.
 *
 * An address is judged in its canonical form, whatever way it was written (see canonicalAddress), and an IPv6
 * address that carries an IPv4 address (IPv4-mapped, -translated or -compatible, NAT64, 6to4, Teredo) is judged by
 * that IPv4 address as well: the packets end up there, so `[::ffff:169.254.169.254]` is the metadata endpoint.
 */
const blockedIpv4 = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blockedIpv4.addSubnet(address, prefix, 'ipv4');

/**
 * IPv6 ranges refused for themselves. The ranges that embed an IPv4 address (::ffff:0:0/96, ::/96, 64:ff9b::/96,
 * 2002::/16, 2001::/32) are judged by the address they carry instead, so a NAT64 (DNS64) or 6to4 form of a public
 * address stays reachable; 64:ff9b:1::/48 is for local use only (RFC 8215) and is refused whole.
 */
const blockedIpv6 = new net.BlockList();
for (const [address, prefix] of [
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:2::', 48],
  ['2001:10::', 28],
  ['2001:20::', 28],
  ['2001:db8::', 32],
  ['3fff::', 20],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blockedIpv6.addSubnet(address, prefix, 'ipv6');

/**
 * Instance metadata and credential services (AWS IMDS and its IPv6 form, ECS task credentials, EKS Pod Identity,
 * Alibaba Cloud; GCP, Azure and Oracle answer on 169.254.169.254 too): no configuration opens them. Canonical forms.
 */
const metadataAddresses = new Set([
  '169.254.169.254',
  '169.254.170.2',
  '169.254.170.23',
  '100.100.100.200',
  'fd00:ec2::254',
  'fd00:ec2::23',
]);

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/**
 * The canonical text of an IP address written in any form a URL parser or the system resolver reads, or null when
 * `text` is not an IP address (a host name, or malformed). IPv4: one to four parts, each decimal, octal (leading 0)
 * or hex (0x), the last filling the remaining bytes (`2852039166`, `0251.0376.0251.0376`, `0xa9.0xfe.43518`,
 * `127.1`), a trailing dot allowed, as the WHATWG URL standard and inet_aton read them. IPv6: any case and zero
 * padding, an embedded dotted IPv4 tail, in brackets or not, a zone id (`fe80::1%eth0`) dropped; written back
 * lower-case with the longest run of zero groups compressed (RFC 5952), the embedded IPv4 tail in hex.
 */
export function canonicalAddress(text: string): string | null {
  const parsed = parseAddress(text);
  return parsed ? format(parsed) : null;
}

export function checkAddress(address: string, allowPrivate: boolean): AddressVerdict {
  const parsed = parseAddress(address);
  if (!parsed) return { allowed: false, reason: `${address} is not an IP address` };
  const canonical = format(parsed);
  const carried = parsed.length === 16 ? embeddedIpv4(parsed) : [];
  const metadata = [canonical, ...carried.map(format)].find((form) => metadataAddresses.has(form));
  if (metadata)
    return {
      allowed: false,
      reason: `${address} is a cloud metadata address${metadata === canonical ? '' : ` (it carries ${metadata})`}`,
    };
  if (allowPrivate) return { allowed: true };
  const refusedIpv4 = (bytes: Uint8Array) => blockedIpv4.check(format(bytes), 'ipv4');
  if (parsed.length === 4 ? refusedIpv4(parsed) : blockedIpv6.check(canonical, 'ipv6')) {
    return { allowed: false, reason: `${address} is a private, loopback, link-local or reserved address` };
  }
  const refusedCarried = carried.find(refusedIpv4);
  if (refusedCarried)
    return {
      allowed: false,
      reason: `${address} carries ${format(refusedCarried)}, a private, loopback, link-local or reserved address`,
    };
  return { allowed: true };
}

/** 4 bytes (IPv4) or 16 (IPv6), or null. */
function parseAddress(text: string): Uint8Array | null {
  let value = text.trim();
  if (value.startsWith('[') && value.endsWith(']')) value = value.slice(1, -1);
  if (value.includes(':')) return parseIpv6(value.replace(/%.*$/s, ''));
  return parseIpv4(value);
}

/** The WHATWG URL standard's IPv4 parser (which agrees with inet_aton on these forms). */
function parseIpv4(text: string): Uint8Array | null {
  const parts = text.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 0 || parts.length > 4) return null;
  const numbers: bigint[] = [];
  for (const part of parts) {
    const hex = /^0x([0-9a-f]*)$/i.exec(part);
    if (hex) numbers.push(hex[1] === '' ? 0n : BigInt(`0x${hex[1]}`));
    else if (/^0[0-7]+$/.test(part)) numbers.push(BigInt(`0o${part.slice(1)}`));
    else if (/^(0|[1-9][0-9]*)$/.test(part)) numbers.push(BigInt(part));
    else return null;
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255n) || last >= 256n ** BigInt(4 - numbers.length)) return null;
  let value = last;
  numbers.forEach((n, index) => {
    value += n << BigInt(8 * (3 - index));
  });
  return Uint8Array.from([24n, 16n, 8n, 0n].map((shift) => Number((value >> shift) & 0xffn)));
}

function parseIpv6(text: string): Uint8Array | null {
  if (net.isIPv6(text) === false) return null;
  let value = text;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(value);
  if (dotted) {
    const ipv4 = dotted[1].split('.').map(Number);
    value = `${value.slice(0, -dotted[1].length)}${((ipv4[0] << 8) | ipv4[1]).toString(16)}:${((ipv4[2] << 8) | ipv4[3]).toString(16)}`;
  }
  const [head, tail] = value.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail === undefined ? [] : tail ? tail.split(':') : [];
  const zeros = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(zeros).fill('0'), ...tailGroups].map((group) =>
    Number.parseInt(group, 16),
  );
  if (groups.length !== 8) return null;
  return Uint8Array.from(groups.flatMap((group) => [group >> 8, group & 0xff]));
}

function format(bytes: Uint8Array): string {
  if (bytes.length === 4) return bytes.join('.');
  const groups = Array.from({ length: 8 }, (_, i) => (bytes[2 * i] << 8) | bytes[2 * i + 1]);
  let [bestStart, bestLength] = [-1, 0];
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === 0) length++;
    if (length > bestLength) [bestStart, bestLength] = [start, length];
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestLength < 2) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** The IPv4 addresses an IPv6 address hands its packets to, by the transition mechanisms that embed one. */
function embeddedIpv4(bytes: Uint8Array): Uint8Array[] {
  const zero = (from: number, to: number) => bytes.subarray(from, to).every((b) => b === 0);
  const at = (...indexes: number[]) => Uint8Array.from(indexes, (i) => bytes[i]);
  const word = (index: number) => (bytes[index] << 8) | bytes[index + 1];
  const tail = at(12, 13, 14, 15);
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (SIIT translated), ::a.b.c.d (compatible; :: and ::1 carry 0.0.0.0/8).
  if (zero(0, 10) && word(10) === 0xffff) return [tail];
  if (zero(0, 8) && word(8) === 0xffff && word(10) === 0) return [tail];
  if (zero(0, 12)) return [tail];
  // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052).
  if (word(0) === 0x64 && word(2) === 0xff9b && zero(4, 12)) return [tail];
  // Local-use NAT64 64:ff9b:1::/48 (RFC 8215): the operator's prefix length decides where the IPv4 address sits,
  // so every RFC 6052 position (/48, /56, /64, /96) is a candidate; the range itself is refused as private.
  if (word(0) === 0x64 && word(2) === 0xff9b && word(4) === 1)
    return [at(6, 7, 9, 10), at(7, 9, 10, 11), at(9, 10, 11, 12), tail];
  // 6to4 2002:a.b.c.d::/48 (RFC 3056).
  if (word(0) === 0x2002) return [at(2, 3, 4, 5)];
  // Teredo 2001:0::/32 (RFC 4380): the server's address, and the client's, stored inverted.
  if (word(0) === 0x2001 && word(2) === 0) return [at(4, 5, 6, 7), tail.map((b) => b ^ 0xff)];
  return [];
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
