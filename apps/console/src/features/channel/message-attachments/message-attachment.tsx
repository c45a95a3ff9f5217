import { Markdown } from '../../../ui/markdown/markdown';
import { ActionButton } from './action-button';
import { ActionMenu } from './action-menu';
import { AttachmentFields } from './attachment-fields';
import { barColor, isLongText, safeUrl, truncateFooter } from './attachment-rules';
import { ShowMore } from './show-more';
import type { DataSources } from '../../data-sources/data-sources';
import type { Attachment, OnAction } from './types';

export interface AttachmentProps {
  readonly attachment: Attachment;
  readonly onAction: OnAction;
  readonly busy: boolean;
  readonly sources: DataSources;
}

/**
 * One attachment as the requirements describe it: HEX colour bar, pretext, author (icon, link), title (link),
 * Markdown text collapsed when long, fields, image scaled down, thumbnail, footer (icon, cut at 300) and actions.
 * `ts` is not shown.
 */
export function MessageAttachment({ attachment: a, onAction, busy, sources }: AttachmentProps) {
  const color = barColor(a.color);
  const authorLink = safeUrl(a.author_link);
  const titleLink = safeUrl(a.title_link);
  const thumb = safeUrl(a.thumb_url);
  const image = safeUrl(a.image_url);
  const authorIcon = safeUrl(a.author_icon);
  const footerIcon = safeUrl(a.footer_icon);
  const actions = (a.actions ?? []).filter((x) => x && typeof x === 'object');
  return (
    <div className="attachment">
      {a.pretext ? <Markdown className="attachment-pretext" text={a.pretext} /> : null}
      <div className="attachment-body" data-color={color ?? 'default'} style={color ? { borderLeftColor: color } : undefined}>
        <div className="attachment-main">
          <div className="attachment-content">
            {a.author_name ? (
              <div className="attachment-author">
                {authorIcon ? <img src={authorIcon} alt="" width={16} height={16} className="icon16" /> : null}
                {authorLink ? (
                  <a href={authorLink} target="_blank" rel="noopener noreferrer">
                    {a.author_name}
                  </a>
                ) : (
                  <span>{a.author_name}</span>
                )}
              </div>
            ) : null}
            {a.title ? (
              <h4 className="attachment-title">
                {titleLink ? (
                  <a href={titleLink} target="_blank" rel="noopener noreferrer">
                    {a.title}
                  </a>
                ) : (
                  a.title
                )}
              </h4>
            ) : null}
            {a.text ? (
              <ShowMore long={isLongText(a.text)}>
                <Markdown className="attachment-text" text={a.text} />
              </ShowMore>
            ) : null}
            {a.fields && a.fields.length > 0 ? <AttachmentFields fields={a.fields} /> : null}
          </div>
          {thumb ? <img className="attachment-thumb" src={thumb} alt="" width={75} height={75} /> : null}
        </div>
        {image ? <img className="attachment-image" src={image} alt={a.title ? `Image: ${a.title}` : 'Attached image'} loading="lazy" /> : null}
        {a.footer ? (
          <div className="attachment-footer">
            {footerIcon ? <img src={footerIcon} alt="" width={16} height={16} className="icon16" /> : null}
            <span>{truncateFooter(a.footer)}</span>
          </div>
        ) : null}
        {actions.length > 0 ? (
          <div className="attachment-actions" role="group" aria-label={a.title ? `Actions: ${a.title}` : 'Actions'}>
            {actions.map((action, i) =>
              action.type === 'select' ? (
                <ActionMenu key={action.id ?? i} action={action} onAction={onAction} busy={busy} sources={sources} />
              ) : (
                <ActionButton key={action.id ?? i} action={action} onAction={onAction} busy={busy} />
              ),
            )}
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** Every attachment of a post. */
export function MessageAttachments({ attachments, onAction, busy, sources }: { attachments: readonly Attachment[] } & Omit<AttachmentProps, 'attachment'>) {
  if (attachments.length === 0) return null;
  return (
    <div className="attachments">
      {attachments.map((attachment, i) => (
        <MessageAttachment key={i} attachment={attachment} onAction={onAction} busy={busy} sources={sources} />
      ))}
    </div>
  );
}
