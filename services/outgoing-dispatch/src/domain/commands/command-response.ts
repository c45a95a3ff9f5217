import { jsonNestsDeeperThan, Joi, MAX_JSON_DEPTH } from '@switchyard/validation';

/** The reference's CommandResponse (every key present on the wire; absent values are their zero). */
export interface CommandResponse {
  response_type: string;
  text: string;
  username: string;
  channel_id: string;
  icon_url: string;
  type: string;
  props: Record<string, unknown> | null;
  goto_location: string;
  trigger_id: string;
  skip_slack_parsing: boolean;
  attachments: unknown[] | null;
  extra_responses: CommandResponse[] | null;
}

const str = Joi.string().allow('');
const base = {
  response_type: str,
  text: str,
  username: str,
  channel_id: str,
  icon_url: str,
  type: str,
  props: Joi.object().unknown(true),
  goto_location: str,
  trigger_id: str,
  skip_slack_parsing: Joi.boolean(),
  attachments: Joi.array().items(Joi.object().unknown(true).allow(null)),
};
/** As Go decodes it: wrong JSON types fail, unknown keys are ignored, null is "not set". */
const responseSchema = Joi.object({ ...base, extra_responses: Joi.array().items(Joi.object({ ...base, extra_responses: Joi.any() }).unknown(true).allow(null)) }).unknown(true);

type Decoded = Partial<Omit<CommandResponse, 'extra_responses'>> & { extra_responses?: (Decoded | null)[] };

function complete(d: Decoded, nested: boolean): CommandResponse {
  return {
    response_type: d.response_type ?? '',
    text: d.text ?? '',
    username: d.username ?? '',
    channel_id: d.channel_id ?? '',
    icon_url: d.icon_url ?? '',
    type: d.type ?? '',
    props: d.props ?? null,
    goto_location: d.goto_location ?? '',
    trigger_id: d.trigger_id ?? '',
    skip_slack_parsing: d.skip_slack_parsing ?? false,
    attachments: d.attachments ?? null,
    // One level deep: entries' own extra_responses are ignored, as the reference.
    extra_responses: nested || !d.extra_responses ? null : d.extra_responses.filter((e): e is Decoded => e !== null).map((e) => complete(e, true)),
  };
}

/** The media type of a Content-Type header, lower-cased. */
export function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * `CommandResponseFromHTTPBody`: a JSON body when the media type is `application/json` (an empty or
 * invalid body, or one of the wrong shape, is an error), otherwise the whole body is the `text`.
 */
export function parseCommandResponse(contentType: string, body: string): { response: CommandResponse } | { error: string } {
  if (mediaType(contentType) !== 'application/json') return { response: complete({ text: body }, false) };
  if (jsonNestsDeeperThan(body)) return { error: `the response nests deeper than ${MAX_JSON_DEPTH} levels` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    return { error: `the response is not JSON: ${(error as Error).message}` };
  }
  if (parsed === null) return { response: complete({}, false) };
  const { error, value } = responseSchema.validate(parsed, { convert: false });
  if (error) return { error: `the response is not a CommandResponse: ${error.message}` };
  return { response: complete(value as Decoded, false) };
}
