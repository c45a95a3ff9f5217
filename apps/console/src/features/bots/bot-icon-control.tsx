import { useId, useRef } from 'react';
import type { Bot } from '../../api/types';
import { ErrorText } from '../../ui/feedback';
import { useBotActions } from './use-bot-actions';

/** Upload (SVG only, as the reference) or remove a bot's icon; the server answers a non-SVG in words. */
export function BotIconControl({ bot }: { bot: Bot }) {
  const { setIcon, removeIcon } = useBotActions();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const hasIcon = (bot.last_icon_update ?? 0) > 0;
  return (
    <div className="bot-icon-control">
      <label htmlFor={inputId} className="file-label">
        {hasIcon ? 'Replace icon' : 'Upload icon'} for @{bot.username} (SVG)
      </label>
      <input
        id={inputId}
        ref={input}
        type="file"
        accept=".svg,image/svg+xml"
        disabled={setIcon.isPending}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (!file) return;
          setIcon.mutate({ botId: bot.user_id, file }, { onSettled: () => input.current && (input.current.value = '') });
        }}
      />
      {hasIcon ? (
        <button type="button" onClick={() => removeIcon.mutate(bot.user_id)} disabled={removeIcon.isPending}>
          Remove icon
        </button>
      ) : null}
      {setIcon.isPending ? <span role="status">Uploading…</span> : null}
      <ErrorText error={setIcon.error ?? removeIcon.error} />
    </div>
  );
}
