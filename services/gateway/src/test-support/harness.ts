import { inject, type InjectOptions, type Response as InjectResponse } from 'light-my-request';
import { envelope, Topics, type ConfigUpdatedEvent, type UsersEvent } from '@switchyard/contracts';
import { MemoryEventBus } from '@switchyard/event-bus';
import { InProcessTransport, type InternalRequest, type InternalResponse, type ServiceTransport } from '@switchyard/http-kit';
import { createSilentLogger } from '@switchyard/logger';
import type { SystemConfig } from '@switchyard/system-config';
import { createGatewayApp, type GatewayApp, type GatewayDeps } from '../app';
import { loadGatewayConfig } from '../config';
import type { RateLimiter, TokenCache } from '../domain/ports';
import { fakeService, fakeUsersBots, SECRET, type Echo, type FakeUsersBots } from './fake-services';

/** Wraps a transport so chosen services throw (as a service that is down does) or hang. */
export class FlakyTransport implements ServiceTransport {
  public readonly down = new Set<string>();
  public readonly hanging = new Set<string>();
  public readonly calls: { service: string; request: InternalRequest }[] = [];
  /** Calls the service has answered (in answer order). */
  public readonly answered: { service: string; request: InternalRequest; status: number }[] = [];

  public constructor(private readonly inner: ServiceTransport) {}

  public async send(service: string, request: InternalRequest): Promise<InternalResponse> {
    this.calls.push({ service, request });
    if (this.down.has(service)) throw new Error(`connect ECONNREFUSED (${service})`);
    if (this.hanging.has(service)) return new Promise(() => undefined);
    const response = await this.inner.send(service, request);
    this.answered.push({ service, request, status: response.status });
    return response;
  }

  public async close(): Promise<void> {
    await this.inner.close();
  }
}

export interface Harness {
  readonly gateway: GatewayApp;
  readonly usersBots: FakeUsersBots;
  readonly transport: FlakyTransport;
  readonly bus: MemoryEventBus;
  request(options: InjectOptions): Promise<InjectResponse>;
  echo(options: InjectOptions): Promise<Echo>;
  publishUsersEvent(type: UsersEvent['type'], userId: string): Promise<void>;
  publishConfig(config: SystemConfig): Promise<void>;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  /** Registered services (default: users-bots and posts). */
  readonly services?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly tokenCache?: TokenCache;
  readonly rateLimiter?: RateLimiter;
  /** Change users-bots' config before the gateway loads it. */
  readonly config?: (config: SystemConfig) => void;
  readonly start?: boolean;
  readonly edgeRoutes?: GatewayDeps['edgeRoutes'];
}

/** A gateway in front of fake services on an in-process transport and a memory bus. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const services = options.services ?? ['users-bots', 'posts'];
  const usersBots = fakeUsersBots();
  options.config?.(usersBots.config);
  const inner = new InProcessTransport();
  for (const service of services) inner.register(service, service === 'users-bots' ? usersBots.app : fakeService(service));
  const transport = new FlakyTransport(inner);
  const bus = new MemoryEventBus();
  const gateway = createGatewayApp(loadGatewayConfig({ INTERNAL_SECRET: SECRET, LOG_LEVEL: 'error', ...options.env }), {
    logger: createSilentLogger(),
    bus,
    transport,
    services,
    ...(options.tokenCache ? { tokenCache: options.tokenCache } : {}),
    ...(options.rateLimiter ? { rateLimiter: options.rateLimiter } : {}),
    ...(options.edgeRoutes ? { edgeRoutes: options.edgeRoutes } : {}),
  });
  if (options.start !== false) await gateway.start();
  const request = (o: InjectOptions): Promise<InjectResponse> => inject(gateway.handler, o);
  return {
    gateway,
    usersBots,
    transport,
    bus,
    request,
    echo: async (o) => {
      const res = await request(o);
      if (res.statusCode >= 300) throw new Error(`expected an echo, got ${res.statusCode} ${res.body}`);
      return res.json<Echo>();
    },
    publishUsersEvent: (type, userId) => bus.publish(Topics.usersEvents, [{ key: userId, value: envelope(type, { userId }) as UsersEvent }]),
    publishConfig: (config) =>
      bus.publish(Topics.configEvents, [{ key: 'config', value: envelope('config.updated', { config: config as unknown as Record<string, unknown> }) as ConfigUpdatedEvent }]),
    stop: async () => {
      await gateway.stop();
      await bus.close();
    },
  };
}

/** Waits until `check` holds (bus deliveries are asynchronous), failing after ~1 s. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 1000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
