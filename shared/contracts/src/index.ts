export { envelope, envelopeSchema, type Envelope } from './envelope';
export { Topics, ALL_TOPICS, type TopicName } from './topics';
export { usersEventPayloadSchema, type UsersEvent, type UsersEventType, type UsersEventPayload } from './users-events';
export { CONFIG_EVENT_KEY, type ConfigUpdatedEvent } from './config-events';
export { InternalPaths, Services, type ResolvedSession, type InternalUser, type ServiceName } from './internal-api';
