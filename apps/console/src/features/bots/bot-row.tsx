import { useState } from 'react';
import { pictureUrl } from '../../api/pictures';
import type { Bot } from '../../api/types';
import { Avatar, initialsOf } from '../../ui/avatar';
import { BotLabel, ErrorText } from '../../ui/feedback';
import { BotIconControl } from './bot-icon-control';
import { TokenReveal } from './token-reveal';
import { useBotActions } from './use-bot-actions';

/** One bot: name with the BOT label, state, and what the user may do to it. */
export function BotRow({ bot, canManage }: { bot: Bot; canManage: boolean }) {
  const { disable, enable, newToken } = useBotActions();
  const [token, setToken] = useState<string | undefined>();
  const disabled = bot.delete_at !== 0;
  const error = disable.error ?? enable.error ?? newToken.error;
  return (
    <li className="row" aria-label={`@${bot.username}`}>
      <Avatar src={pictureUrl({ id: bot.user_id, bot_last_icon_update: bot.last_icon_update ?? 0 })} initials={initialsOf(bot.display_name || bot.username)} />
      <div className="row-main">
        <span className="name">
          {bot.display_name || bot.username} <span className="muted">@{bot.username}</span> <BotLabel />
          {disabled ? <span className="badge">Disabled</span> : null}
        </span>
        {bot.description ? <span className="muted">{bot.description}</span> : null}
      </div>
      {canManage ? (
        <div className="row-actions">
          {disabled ? (
            <button type="button" onClick={() => enable.mutate(bot.user_id)} disabled={enable.isPending}>
              Enable
            </button>
          ) : (
            <>
              <button type="button" onClick={() => disable.mutate(bot.user_id)} disabled={disable.isPending}>
                Disable
              </button>
              <button
                type="button"
                onClick={() => newToken.mutate({ botId: bot.user_id, description: 'Issued from the bot list' }, { onSuccess: (t) => setToken(t.token) })}
                disabled={newToken.isPending}
              >
                New token
              </button>
            </>
          )}
        </div>
      ) : null}
      {canManage && !disabled ? <BotIconControl bot={bot} /> : null}
      {disabled && canManage ? <p className="hint">After enabling a bot, issuing it a new token is recommended.</p> : null}
      <ErrorText error={error} />
      {token ? <TokenReveal token={token} owner={bot.username} onDone={() => setToken(undefined)} /> : null}
    </li>
  );
}
