import type { Channel, User } from '../../api/types';
import { BotLabel } from '../../ui/feedback';

/** The other person of a direct conversation (`<id>__<id>`); yourself for a conversation with yourself. */
export function otherMemberId(channel: Pick<Channel, 'name'>, meId: string): string {
  const [a = '', b = ''] = channel.name.split('__');
  return a === meId ? b : a;
}

/** A direct conversation's name: the other member's username, with the BOT label when that member is a bot. */
export function DirectName({ user, fallback }: { user: User | undefined; fallback: string }) {
  return (
    <>
      @{user?.username ?? fallback}
      {user?.is_bot ? (
        <>
          {' '}
          <BotLabel />
        </>
      ) : null}
    </>
  );
}
