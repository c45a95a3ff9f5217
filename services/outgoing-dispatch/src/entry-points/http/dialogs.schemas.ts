import { Joi } from '@switchyard/validation';

// The reference decodes these bodies into Go structs: a value of the wrong JSON type fails the decode
// (400 invalid_param "dialog"), null leaves the zero value, unknown keys are ignored.
const text = Joi.string().allow('', null);
const whole = Joi.number().integer().allow(null);
const flag = Joi.boolean().allow(null);

const option = Joi.object({ text, value: text }).unknown(true).allow(null);

const element = Joi.object({
  display_name: text,
  name: text,
  type: text,
  subtype: text,
  default: text,
  placeholder: text,
  help_text: text,
  optional: flag,
  min_length: whole,
  max_length: whole,
  data_source: text,
  data_source_url: text,
  options: Joi.array().items(option).allow(null),
  multiselect: flag,
  refresh: flag,
  min_date: text,
  max_date: text,
  time_interval: whole,
})
  .unknown(true)
  .allow(null);

export const dialogSchema = Joi.object({
  callback_id: text,
  title: text,
  introduction_text: text,
  icon_url: text,
  elements: Joi.array().items(element).allow(null),
  submit_label: text,
  notify_on_cancel: flag,
  state: text,
  source_url: text,
})
  .unknown(true)
  .allow(null);

export const openDialogBody = Joi.object({ trigger_id: text, url: text, dialog: dialogSchema }).unknown(true).allow(null);

export const submitDialogBody = Joi.object({
  type: text,
  url: text,
  callback_id: text,
  state: text,
  user_id: text,
  channel_id: text,
  team_id: text,
  submission: Joi.object().unknown(true).allow(null),
  file_ids: Joi.array().items(Joi.string().max(64)).max(1000).allow(null),
  cancelled: flag,
})
  .unknown(true)
  .allow(null);

export interface SubmitDialogBody {
  readonly type?: string | null;
  readonly url?: string | null;
  readonly callback_id?: string | null;
  readonly state?: string | null;
  readonly channel_id?: string | null;
  readonly team_id?: string | null;
  readonly submission?: Record<string, unknown> | null;
  readonly file_ids?: string[] | null;
  readonly cancelled?: boolean | null;
}
