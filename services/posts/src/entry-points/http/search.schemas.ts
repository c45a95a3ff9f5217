import { Joi } from '@switchyard/validation';

/** `SearchParameter` (mattermost-wire-3.md §2.1): every field optional except `terms` (checked by the route). */
export const searchPostsBody = Joi.object({
  terms: Joi.string().allow('').max(100_000),
  is_or_search: Joi.boolean(),
  time_zone_offset: Joi.number().integer().min(-86_400).max(86_400),
  include_deleted_channels: Joi.boolean(),
  page: Joi.number().integer().min(0).max(1_000_000),
  per_page: Joi.number().integer().min(0).max(1_000_000),
  modifier: Joi.string().allow(''),
})
  .unknown(true)
  .required();

export interface SearchPostsBody {
  terms?: string;
  is_or_search?: boolean;
  time_zone_offset?: number;
  include_deleted_channels?: boolean;
  page?: number;
  per_page?: number;
  modifier?: string;
}
