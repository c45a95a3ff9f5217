/** The five services, their default ports and the env each needs beyond the shared keys. */
export interface ServiceSpec {
  readonly name: string;
  readonly port: number;
  readonly dbName?: string;
  /** 2, 3, ... for the extra replicas of a service (absent for the first). */
  readonly replica?: number;
}

export const SERVICE_TABLE: readonly ServiceSpec[] = [
  { name: 'users-bots', port: 8066, dbName: 'switchyard_users' },
  { name: 'posts', port: 8067, dbName: 'switchyard_posts' },
  { name: 'incoming-hooks', port: 8068, dbName: 'switchyard_incoming' },
  { name: 'outgoing-dispatch', port: 8069, dbName: 'switchyard_outgoing' },
  { name: 'realtime', port: 8070 },
  { name: 'gateway', port: 8065 },
];

/**
 * The table with the non-gateway services moved to `base`, `base+1`, ... (in table order), so that two
 * launchers (a test run next to a developer's) do not collide; the gateway keeps its own port (PORT).
 */
export function withPortBase(specs: readonly ServiceSpec[], base: number | undefined): ServiceSpec[] {
  if (base === undefined) return [...specs];
  let next = base;
  return specs.map((s) => (s.name === 'gateway' ? s : { ...s, port: next++ }));
}

/** A spec's process name: the service name, with `#2`, `#3`, ... for extra replicas. */
export function processName(spec: ServiceSpec): string {
  return spec.replica === undefined ? spec.name : `${spec.name}#${spec.replica}`;
}

/**
 * The table with `count` replicas of `name` (count - 1 extra entries right after the first, on the
 * following ports; with a port base they get consecutive ports like the others).
 */
export function withReplicas(specs: readonly ServiceSpec[], name: string, count: number): ServiceSpec[] {
  const out: ServiceSpec[] = [];
  for (const spec of specs) {
    out.push(spec);
    if (spec.name !== name) continue;
    for (let replica = 2; replica <= count; replica += 1) out.push({ ...spec, port: spec.port + 100 * (replica - 1), replica });
  }
  return out;
}

/**
 * `users-bots=http://127.0.0.1:8066,...` for the gateway and for services that call each other; the
 * replicas of one service as `name=url1|url2`.
 */
export function serviceUrls(specs: readonly ServiceSpec[], host = '127.0.0.1'): string {
  const byName = new Map<string, string[]>();
  for (const s of specs) {
    if (s.name === 'gateway') continue;
    const urls = byName.get(s.name) ?? [];
    urls.push(`http://${host}:${s.port}`);
    byName.set(s.name, urls);
  }
  return [...byName].map(([name, urls]) => `${name}=${urls.join('|')}`).join(',');
}
