import { Errors } from '../errors';
import { runeLength } from '../rules/post-rules';

const NAME = /^[a-z0-9]+([a-z\-_0-9]+|(__)?)[a-z0-9]*$/;
const DM_NAME = /^[a-z0-9]{26}__[a-z0-9]{26}$/;
const GM_NAME = /^[0-9a-f]{40}$/;

/** The reference's channel name rule (model/channel.go). */
export function checkChannelName(name: string, type: string): void {
  if (name.length < 1 || name.length > 64 || !NAME.test(name)) throw Errors.channelName(`name=${name}`);
  if (type !== 'D' && DM_NAME.test(name)) throw Errors.channelName('looks like a direct channel name');
  if (type !== 'G' && GM_NAME.test(name)) throw Errors.channelName('looks like a group channel name');
}

export function checkChannelTexts(fields: { display_name: string; header: string; purpose: string }): void {
  if (runeLength(fields.display_name) > 64) throw Errors.channelDisplayName();
  if (runeLength(fields.header) > 1024) throw Errors.channelHeader();
  if (runeLength(fields.purpose) > 250) throw Errors.channelPurpose();
}

/** `GetDMNameFromIds`: `<smaller>__<larger>` by byte-wise comparison (a self-DM repeats the id). */
export function directChannelName(a: string, b: string): string {
  return a < b ? `${a}__${b}` : `${b}__${a}`;
}
