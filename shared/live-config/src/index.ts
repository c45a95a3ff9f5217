export { followSystemConfig, type FollowSystemConfigOptions, type SystemConfigFollower } from './follow-system-config';
export { LiveConfig, type ConfigSource, type LiveConfigOptions } from './live-config';
export { HttpConfigSource } from './config-source.http';
export { configEventsConsumer } from './config-events.consumer';
export { serviceSetup, type ServiceSetup, type ServiceSetupOptions, type FollowingServiceSetup } from './service-setup';
