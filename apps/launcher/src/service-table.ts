/** The five services, their default ports and the env each needs beyond the shared keys. */
export interface ServiceSpec {
  readonly name: string;
  readonly port: number;
  readonly dbName?: string;
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

/** `users-bots=http://127.0.0.1:8066,...` for the gateway and for services that call each other. */
export function serviceUrls(specs: readonly ServiceSpec[], host = '127.0.0.1'): string {
  return specs
    .filter((s) => s.name !== 'gateway')
    .map((s) => `${s.name}=http://${host}:${s.port}`)
    .join(',');
}
