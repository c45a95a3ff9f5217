import { envelopeSchema, TEAM_EVENT_TYPES, Topics, type TeamEventType } from '@switchyard/contracts';
import { isAppError } from '@switchyard/errors';
import type { BusMessage, EventBus, Subscription } from '@switchyard/event-bus';
import type { Logger } from '@switchyard/logger';
import { Joi } from '@switchyard/validation';
import { joinDefaultChannels } from '../../domain/channels/default-channels.usecase';
import type { Deps } from '../../domain/ports';

export const TEAM_EVENTS_GROUP = 'posts.team-events-consumer';

const teamEventPayload = Joi.object({ teamId: Joi.string().min(1).max(64).required(), userId: Joi.string().min(1).max(64).required() }).unknown(true);

/**
 * users.events → `team.created` and `team.member_added`: the user joins the team's default channels
 * (created on first need). Every other users event is ignored; malformed ones are logged and skipped;
 * infrastructure failures throw so the bus redelivers (the use case is idempotent).
 */
export function teamEventsHandler(deps: Deps, logger: Logger) {
  return async (message: BusMessage): Promise<void> => {
    const envelope = envelopeSchema.validate(message.value, { allowUnknown: true });
    if (envelope.error) return;
    const value = envelope.value as { id: string; type: string; payload: unknown };
    if (!TEAM_EVENT_TYPES.includes(value.type as TeamEventType)) return;
    const payload = teamEventPayload.validate(value.payload, { convert: false });
    if (payload.error) {
      logger.warn('users.events: invalid team event skipped', { type: value.type, envelope_id: value.id, reason: payload.error.message });
      return;
    }
    const { teamId, userId } = payload.value as { teamId: string; userId: string };
    try {
      const outcome = await joinDefaultChannels(deps, teamId, userId);
      if (outcome === 'unknown_team') logger.warn('users.events: team event for an unknown team skipped', { type: value.type, team_id: teamId, user_id: userId });
      else logger.debug('users.events: default channels joined', { type: value.type, team_id: teamId, user_id: userId });
    } catch (error) {
      if (isAppError(error) && error.statusCode < 500) {
        logger.warn('users.events: team event refused and skipped', { type: value.type, team_id: teamId, user_id: userId, error_id: error.id });
        return;
      }
      throw error;
    }
  };
}

export function subscribeTeamEvents(bus: EventBus, deps: Deps, logger: Logger): Promise<Subscription> {
  return bus.subscribe({ groupId: TEAM_EVENTS_GROUP, topics: [Topics.usersEvents], handler: teamEventsHandler(deps, logger) });
}
