import { API_BASE } from './client';

/** What a picture URL depends on: the user and the times its picture (or, for a bot, its icon) last changed. */
export interface PictureOwner {
  readonly id: string;
  readonly last_picture_update?: number;
  readonly bot_last_icon_update?: number;
}

/**
 * A user's picture as the reference's clients address it (`/users/{id}/image?_=<last_picture_update>`):
 * the query changes with the picture, so the browser's cached copy is used until then. For a bot the icon
 * time is part of it, since a bot's picture is its icon when it has one.
 */
export function pictureUrl(owner: PictureOwner): string {
  const version = `${owner.last_picture_update ?? 0}${owner.bot_last_icon_update ? `-${owner.bot_last_icon_update}` : ''}`;
  return `${API_BASE}/users/${encodeURIComponent(owner.id)}/image?_=${version}`;
}

/** A bot's icon (`/bots/{id}/icon`), versioned by its `last_icon_update`. */
export function botIconUrl(botId: string, lastIconUpdate: number): string {
  return `${API_BASE}/bots/${encodeURIComponent(botId)}/icon?_=${lastIconUpdate}`;
}
