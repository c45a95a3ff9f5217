import { buttonStyle } from './attachment-rules';
import type { AttachmentAction, OnAction } from './types';

/** An interactive button: its style (named or HEX), disabled when the action says so or while a press is pending. */
export function ActionButton({ action, onAction, busy }: { action: AttachmentAction; onAction: OnAction; busy: boolean }) {
  const style = buttonStyle(action.style);
  return (
    <button
      type="button"
      className={`action-button action-${style.name}`}
      style={style.color ? { color: style.color, borderColor: style.color } : undefined}
      disabled={action.disabled === true || busy || !action.id}
      onClick={() => action.id && onAction(action.id)}
    >
      {action.name || 'Action'}
    </button>
  );
}
