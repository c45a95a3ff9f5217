import type { ReactNode } from 'react';
import { Markdown } from '../../ui/markdown/markdown';

/** Slack Block Kit blocks as the server keeps them in `props.blocks` (checked there; spec "Block Kit"). */
type TextObject = { type: 'plain_text' | 'mrkdwn'; text: string };
type ImageElement = { type: 'image'; image_url: string; alt_text: string };
type Button = { type: 'button'; text: TextObject; url?: string; style?: 'primary' | 'danger' };
type Block =
  | { type: 'header'; text: TextObject }
  | { type: 'section'; text?: TextObject; fields?: TextObject[]; accessory?: ImageElement | Button }
  | { type: 'context'; elements: (TextObject | ImageElement)[] }
  | { type: 'divider' }
  | { type: 'image'; image_url: string; alt_text: string; title?: TextObject }
  | { type: 'actions'; elements: Button[] };

/** Only web addresses become links or images (the server checks this too). */
const webUrl = (url: string | undefined): string | undefined => (url !== undefined && /^https?:\/\//i.test(url) ? url : undefined);

function Text({ text, inline = false }: { text: TextObject; inline?: boolean }) {
  return text.type === 'mrkdwn' ? <Markdown text={text.text} inline={inline} /> : <span>{text.text}</span>;
}

function Element({ element }: { element: TextObject | ImageElement | Button }): ReactNode {
  if (element.type === 'image') {
    const src = webUrl(element.image_url);
    return src ? <img className="block-image-small" src={src} alt={element.alt_text} /> : null;
  }
  if (element.type === 'button') {
    const href = webUrl(element.url);
    const label = element.text.text;
    return href ? (
      <a className={`block-button ${element.style ?? ''}`} href={href} target="_blank" rel="noopener noreferrer">
        {label}
      </a>
    ) : (
      <span className="block-button disabled">{label}</span>
    );
  }
  return <Text text={element} inline />;
}

function OneBlock({ block }: { block: Block }): ReactNode {
  switch (block.type) {
    case 'header':
      return <p className="block-header">{block.text.text}</p>;
    case 'section':
      return (
        <div className="block-section">
          <div className="block-section-main">
            {block.text ? <Text text={block.text} /> : null}
            {block.fields ? (
              <div className="block-fields">
                {block.fields.map((field, i) => (
                  <div key={i}>
                    <Text text={field} />
                  </div>
                ))}
              </div>
            ) : null}
          </div>
          {block.accessory ? <Element element={block.accessory} /> : null}
        </div>
      );
    case 'context':
      return (
        <div className="block-context muted">
          {block.elements.map((element, i) => (
            <Element key={i} element={element} />
          ))}
        </div>
      );
    case 'divider':
      return <hr className="block-divider" />;
    case 'image': {
      const src = webUrl(block.image_url);
      return src ? (
        <figure className="block-image">
          <img src={src} alt={block.alt_text} />
          {block.title ? <figcaption>{block.title.text}</figcaption> : null}
        </figure>
      ) : null;
    }
    case 'actions':
      return (
        <div className="block-actions">
          {block.elements.map((element, i) => (
            <Element key={i} element={element} />
          ))}
        </div>
      );
    default:
      return null;
  }
}

/** The post's blocks, drawn in order (the message text stays the fallback elsewhere). */
export function BlockKit({ blocks }: { blocks: unknown }) {
  if (!Array.isArray(blocks) || blocks.length === 0) return null;
  return (
    <div className="blocks" aria-label="Blocks">
      {(blocks as Block[]).map((block, i) => (
        <OneBlock key={i} block={block} />
      ))}
    </div>
  );
}
