import { BlockList, isIP } from 'node:net';

/** Resolves a host name to addresses (stubbed in tests so that no real DNS is asked). */
export type Resolver = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

export type GuardDecision =
  | { readonly allowed: true; readonly address: string; readonly family: 4 | 6; readonly viaAllowList: boolean }
  | { readonly allowed: false; readonly reason: string };

/**
 * Ranges never called unless allow-listed (README "SSRF guard"): loopback, private, link-local, CGNAT,
 * benchmarking 198.18/15, documentation and reserved nets, multicast, 0/8, and the IPv6 forms that embed
 * or translate IPv4 (mapped, NAT64, 6to4, Teredo), unique-local and link-local.
 */
const DENIED_V4: readonly [string, number][] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];
const DENIED_V6: readonly [string, number][] = [
  ['::', 128], ['::1', 128], ['::', 96], ['::ffff:0:0', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64],
  ['2001::', 32], ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
];

/** Cloud metadata names (their addresses are link-local, but the names are refused before any lookup). */
export const METADATA_HOSTS: ReadonlySet<string> = new Set([
  'metadata', 'metadata.google.internal', 'metadata.goog', 'metadata.azure.com', 'instance-data',
  'instance-data.ec2.internal', 'metadata.platformequinix.com', 'metadata.tencentyun.com', 'metadata.oraclecloud.com',
]);

// Two lists: node's BlockList treats ::ffff:0:0/96 and IPv4 as one space, so a single list with the
// mapped range would refuse every IPv4 address.
const deniedV4 = new BlockList();
for (const [net, prefix] of DENIED_V4) deniedV4.addSubnet(net, prefix, 'ipv4');
const deniedV6 = new BlockList();
for (const [net, prefix] of DENIED_V6) deniedV6.addSubnet(net, prefix, 'ipv6');

/** How many IP-literal URL decisions an allow-list keeps (callback origins are few; a flood of new ones only clears it). */
const MAX_REMEMBERED_DECISIONS = 1024;

/** `host:port`, `a.b.c.d:port` or `[v6]:port`: an allow-list entry for that port only. */
function withPort(entry: string): { host: string; port: number } | undefined {
  const match = /^\[([0-9a-f:.]+)\]:(\d{1,5})$/.exec(entry) ?? /^([^:[\]/]+):(\d{1,5})$/.exec(entry);
  if (!match?.[1] || !match[2]) return undefined;
  const port = Number(match[2]);
  return port >= 1 && port <= 65_535 ? { host: match[1], port } : undefined;
}

/**
 * `ServiceSettings.AllowedUntrustedInternalConnections`: space- or comma-separated hosts, IPs and CIDRs,
 * any port; an entry naming a port (`127.0.0.1:9000`, `[::1]:9000`, `hooks.internal:8443`) allows only that port.
 */
export class AllowList {
  public readonly hosts: ReadonlySet<string>;
  /** IPs and CIDRs allowed on every port (the connect-time filter's allow-list). */
  public readonly ipEntries: readonly string[];
  private readonly blocks = new BlockList();
  /** host or IP → the only ports allowed for it. */
  private readonly portEntries = new Map<string, Set<number>>();
  /**
   * The guard's decisions for IP-literal URLs (`protocol//host:port`), which depend only on the URL and this
   * list: a callback URL is checked once per setting instead of once per request (its regexes and BlockList
   * lookups were a few microseconds of every delivery). Bounded; host names are still resolved per request.
   */
  private readonly literalDecisions = new Map<string, GuardDecision>();

  public constructor(public readonly setting: string) {
    const hosts = new Set<string>();
    const ipEntries: string[] = [];
    for (const raw of setting.split(/[\s,]+/)) {
      const entry = raw.trim().toLowerCase();
      if (entry === '') continue;
      const scoped = withPort(entry);
      if (scoped) {
        const key = isIP(scoped.host) === 0 ? scoped.host : canonicalIp(scoped.host);
        const ports = this.portEntries.get(key) ?? new Set<number>();
        ports.add(scoped.port);
        this.portEntries.set(key, ports);
        continue;
      }
      const [net, bits] = entry.split('/');
      const family = isIP(net ?? '');
      if (family !== 0 && net) {
        const type = family === 4 ? 'ipv4' : 'ipv6';
        const prefix = bits === undefined ? (family === 4 ? 32 : 128) : Number(bits);
        if (Number.isInteger(prefix) && prefix >= 0 && prefix <= (family === 4 ? 32 : 128)) {
          this.blocks.addSubnet(net, prefix, type);
          ipEntries.push(bits === undefined ? net : `${net}/${prefix}`);
        }
      } else {
        hosts.add(entry.replace(/^\[|\]$/g, ''));
      }
    }
    this.hosts = hosts;
    this.ipEntries = ipEntries;
  }

  /** Whether the host name is allowed (on `port`, when given, port-scoped entries count too). */
  public allowsHost(host: string, port?: number): boolean {
    const name = host.toLowerCase();
    return this.hosts.has(name) || (port !== undefined && (this.portEntries.get(name)?.has(port) ?? false));
  }

  /** The decision remembered for an IP-literal URL's `protocol//host` (as the URL gives them), if any. */
  public rememberedLiteral(key: string): GuardDecision | undefined {
    return this.literalDecisions.get(key);
  }

  public rememberLiteral(key: string, decision: GuardDecision): GuardDecision {
    if (this.literalDecisions.size >= MAX_REMEMBERED_DECISIONS) this.literalDecisions.clear();
    this.literalDecisions.set(key, decision);
    return decision;
  }

  /** Whether the address is allowed (on `port`, when given, port-scoped entries count too). */
  public allowsAddress(address: string, port?: number): boolean {
    const v4 = mappedV4(address);
    if (v4 !== undefined && this.blocks.check(v4, 'ipv4')) return true;
    const family = isIP(address);
    if (family !== 0 && this.blocks.check(address, family === 4 ? 'ipv4' : 'ipv6')) return true;
    if (port === undefined || family === 0) return false;
    const ports = this.portEntries.get(canonicalIp(v4 ?? address));
    return ports?.has(port) ?? false;
  }
}

/** One spelling per address (`::1` and `0:0:0:0:0:0:0:1` are the same entry). */
function canonicalIp(address: string): string {
  if (isIP(address) !== 6) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return address;
  }
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, `::ffff:7f00:1`). */
export function mappedV4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower) ?? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted?.[1]) return dotted[1];
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex?.[1] || !hex[2]) return undefined;
  const hi = parseInt(hex[1], 16);
  const lo = parseInt(hex[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Whether an address may be called (the guard's decision for one resolved or literal address). */
export function decideAddress(address: string, allow: AllowList, port?: number): { allowed: boolean; viaAllowList: boolean; reason?: string } {
  const family = isIP(address);
  if (family === 0) return { allowed: false, viaAllowList: false, reason: `not an IP address: ${address}` };
  if (allow.allowsAddress(address, port)) return { allowed: true, viaAllowList: true };
  const isDenied = family === 4 ? deniedV4.check(address, 'ipv4') : deniedV6.check(address, 'ipv6') || mappedV4(address) !== undefined;
  if (isDenied) return { allowed: false, viaAllowList: false, reason: `address ${address} is in a reserved or internal range` };
  return { allowed: true, viaAllowList: false };
}

function literalKey(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

/** guardUrl's answer for an IP-literal URL this allow-list already decided (undefined otherwise): no await needed. */
export function rememberedDecision(url: URL, allow: AllowList): GuardDecision | undefined {
  return allow.rememberedLiteral(literalKey(url));
}

function literalDecision(host: string, family: number, allow: AllowList, port: number): GuardDecision {
  const decision = decideAddress(host, allow, port);
  return decision.allowed ? { allowed: true, address: host, family: family === 4 ? 4 : 6, viaAllowList: decision.viaAllowList } : { allowed: false, reason: decision.reason ?? 'denied' };
}

/**
 * Resolve, check, and pick the address to connect to (the connection is pinned to it, so a second DNS
 * answer cannot differ). Metadata names are refused before any lookup; an allow-listed host name may
 * resolve to internal addresses; otherwise every resolved address must be public.
 */
export async function guardUrl(rawUrl: string | URL, allow: AllowList, resolve: Resolver): Promise<GuardDecision> {
  let url: URL;
  try {
    url = typeof rawUrl === 'string' ? new URL(rawUrl) : rawUrl;
  } catch {
    return { allowed: false, reason: 'invalid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { allowed: false, reason: `scheme ${url.protocol} is not allowed` };
  const remembered = rememberedDecision(url, allow);
  if (remembered !== undefined) return remembered;
  const key = literalKey(url);
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  const literal = isIP(host);
  if (literal !== 0) return allow.rememberLiteral(key, literalDecision(host, literal, allow, port));
  const hostAllowed = allow.allowsHost(host, port);
  if (!hostAllowed && METADATA_HOSTS.has(host)) return { allowed: false, reason: `host ${host} is a cloud metadata name` };
  let addresses: readonly { address: string; family: number }[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    return { allowed: false, reason: `cannot resolve ${host}: ${(error as { code?: string }).code ?? String(error)}` };
  }
  if (addresses.length === 0) return { allowed: false, reason: `cannot resolve ${host}` };
  let viaAllowList = hostAllowed;
  for (const { address } of addresses) {
    if (hostAllowed) continue;
    const decision = decideAddress(address, allow, port);
    if (!decision.allowed) return { allowed: false, reason: `${host} resolves to ${address}: ${decision.reason ?? 'denied'}` };
    viaAllowList ||= decision.viaAllowList;
  }
  const first = addresses[0];
  if (!first) return { allowed: false, reason: `cannot resolve ${host}` };
  return { allowed: true, address: first.address, family: first.family === 6 ? 6 : 4, viaAllowList };
}
