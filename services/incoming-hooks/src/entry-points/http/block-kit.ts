import { Joi } from '@switchyard/validation';
import { Errors } from '../../domain/errors';

/** Spec "Block Kit": at most this many blocks in one hook body. */
export const MAX_BLOCKS = 50;

const url = Joi.string().uri({ scheme: ['http', 'https'] }).max(3000);
const plainText = Joi.object({ type: Joi.string().valid('plain_text').required(), text: Joi.string().max(3000).required(), emoji: Joi.boolean() });
const textObject = Joi.object({ type: Joi.string().valid('plain_text', 'mrkdwn').required(), text: Joi.string().max(3000).required(), emoji: Joi.boolean(), verbatim: Joi.boolean() });
const imageElement = Joi.object({ type: Joi.string().valid('image').required(), image_url: url.required(), alt_text: Joi.string().max(2000).required() });
/** Buttons are drawn as links: a button without a url is kept (its text shows) but does nothing. */
const button = Joi.object({
  type: Joi.string().valid('button').required(),
  text: plainText.required(),
  url,
  value: Joi.string().max(2000),
  action_id: Joi.string().max(255),
  style: Joi.string().valid('primary', 'danger'),
});
const blockId = Joi.string().max(255);

/** The block types Switchyard keeps and the console draws; Slack's limits. Others are dropped. */
const KNOWN: Readonly<Record<string, ReturnType<typeof Joi.object>>> = {
  header: Joi.object({ type: Joi.string().required(), block_id: blockId, text: plainText.keys({ text: Joi.string().max(150).required() }).required() }),
  section: Joi.object({
    type: Joi.string().required(),
    block_id: blockId,
    text: textObject,
    fields: Joi.array().items(textObject.keys({ text: Joi.string().max(2000).required() })).min(1).max(10),
    accessory: Joi.alternatives(imageElement, button),
  }).or('text', 'fields'),
  context: Joi.object({ type: Joi.string().required(), block_id: blockId, elements: Joi.array().items(Joi.alternatives(textObject, imageElement)).min(1).max(10).required() }),
  divider: Joi.object({ type: Joi.string().required(), block_id: blockId }),
  image: Joi.object({ type: Joi.string().required(), block_id: blockId, image_url: url.required(), alt_text: Joi.string().max(2000).required(), title: plainText.keys({ text: Joi.string().max(2000).required() }) }),
  // Non-button elements (menus, date pickers...) are dropped; buttons are links.
  actions: Joi.object({ type: Joi.string().required(), block_id: blockId, elements: Joi.array().items(Joi.object().unknown(true)).min(1).max(25).required() }),
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A hook body's `blocks` (Slack Block Kit) as kept in `props.blocks`: at most 50; unknown types dropped;
 * known ones checked (400 model.incoming_hook.parse_data.app_error naming the block) and stripped of
 * unknown keys. `null` when none is left.
 */
export function normalizeBlocks(value: unknown): Record<string, unknown>[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw Errors.parseData('blocks must be an array');
  if (value.length > MAX_BLOCKS) throw Errors.parseData(`blocks: at most ${MAX_BLOCKS} blocks`);
  const kept: Record<string, unknown>[] = [];
  value.forEach((block: unknown, index) => {
    if (!isObject(block) || typeof block.type !== 'string') throw Errors.parseData(`blocks[${index}] must be an object with a type`);
    const schema = Object.prototype.hasOwnProperty.call(KNOWN, block.type) ? KNOWN[block.type] : undefined;
    if (!schema) return;
    const result = schema.validate(block, { abortEarly: true, convert: false, stripUnknown: true });
    if (result.error) throw Errors.parseData(`blocks[${index}] (${block.type}): ${result.error.message}`);
    const clean = result.value as Record<string, unknown>;
    if (block.type === 'actions') {
      const buttons: unknown[] = [];
      for (const element of clean.elements as unknown[]) {
        if (!isObject(element) || element.type !== 'button') continue;
        const checked = button.validate(element, { abortEarly: true, convert: false, stripUnknown: true });
        if (checked.error) throw Errors.parseData(`blocks[${index}] (actions): ${checked.error.message}`);
        buttons.push(checked.value);
      }
      if (buttons.length === 0) return;
      clean.elements = buttons;
    }
    kept.push(clean);
  });
  return kept.length > 0 ? kept : null;
}
