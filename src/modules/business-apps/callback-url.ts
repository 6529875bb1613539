import dns from 'node:dns';
import { AppError } from '../../errors.ts';
import { canonicalAddress, checkAddress } from '../../platform/outbound/address-rules.ts';

export const CALLBACK_URL_MAX = 2048;

/** Name resolution at registration; tests substitute it. Empty: the name does not resolve (yet). */
export type ResolveHost = (hostname: string) => Promise<string[]>;

const RESOLVE_TIMEOUT_MS = 2_000;

export const resolveWithDns: ResolveHost = async (hostname) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), RESOLVE_TIMEOUT_MS);
  });
  const lookup = dns.promises.lookup(hostname, { all: true, verbatim: true }).then(
    (answers) => answers.map((a) => a.address),
    () => [],
  );
  return Promise.race([lookup, timeout]).finally(() => clearTimeout(timer));
};

/**
 * A callback URL as the webhooks will use it, checked under the outbound rules of cloud import (RUNTIME.md): https
 * only, no user name or password, and no address the outbound client would refuse (private, loopback, link-local or
 * reserved unless OUTBOUND_ALLOW_PRIVATE; cloud metadata always). A name is resolved now and refused when any answer
 * is refused; a name that does not resolve yet is accepted, because every delivery checks again (pinned to the
 * address it checked) and a refused address then fails the attempt. Answers the normalized URL (fragment dropped).
 */
export async function checkCallbackUrl(
  value: string,
  options: { allowPrivate: boolean; resolve: ResolveHost },
): Promise<string> {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw refused('callbackUrl is not a valid absolute URL');
  }
  if (url.protocol !== 'https:')
    throw refused(`${url.protocol.replace(':', '')} callback URLs are not accepted; use https`);
  if (url.username || url.password) throw refused('callback URLs with a user name or password are not accepted');
  url.hash = '';
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const literal = canonicalAddress(hostname);
  const addresses = literal ? [literal] : await options.resolve(hostname);
  if (!literal && addresses.length === 0 && isLocalName(hostname) && !options.allowPrivate) {
    throw refused(`${hostname} is a local name`);
  }
  for (const address of addresses) {
    const verdict = checkAddress(address, options.allowPrivate);
    if (!verdict.allowed) throw refused(`${url.host} leads to a refused address (${verdict.reason})`);
  }
  const normalized = url.toString();
  if (normalized.length > CALLBACK_URL_MAX) throw refused(`callbackUrl is longer than ${CALLBACK_URL_MAX} characters`);
  return normalized;
}

function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

function refused(detail: string): AppError {
  return new AppError('BUSINESS_APP_CALLBACK_REFUSED', detail);
}
