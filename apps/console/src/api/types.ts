/** The JSON records of the REST API v4 the console reads (only the fields it uses). */

export interface User {
  readonly id: string;
  readonly username: string;
  readonly first_name?: string;
  readonly last_name?: string;
  readonly nickname?: string;
  readonly email?: string;
  readonly roles: string;
  readonly is_bot?: boolean;
  /** ms; absent while the picture is the generated default. */
  readonly last_picture_update?: number;
  /** ms; a bot's icon, absent when it has none. */
  readonly bot_last_icon_update?: number;
  readonly delete_at: number;
}

export interface Bot {
  readonly user_id: string;
  readonly username: string;
  readonly display_name: string;
  readonly description: string;
  readonly owner_id: string;
  readonly create_at: number;
  readonly update_at: number;
  readonly delete_at: number;
  /** ms; absent until an icon is set. */
  readonly last_icon_update?: number;
}

export interface UserAccessToken {
  readonly id: string;
  readonly token?: string;
  readonly user_id: string;
  readonly description: string;
  readonly is_active: boolean;
}

export interface Team {
  readonly id: string;
  readonly name: string;
  readonly display_name: string;
  readonly type: string;
}

export interface Channel {
  readonly id: string;
  readonly team_id: string;
  readonly name: string;
  readonly display_name: string;
  readonly type: string;
  readonly purpose?: string;
  readonly header?: string;
  readonly delete_at: number;
}

/** A file's info (GET /files/{id}/info, `metadata.files` of a post). */
export interface FileInfo {
  readonly id: string;
  readonly user_id: string;
  readonly post_id?: string;
  readonly name: string;
  readonly extension: string;
  readonly size: number;
  readonly mime_type: string;
  readonly width?: number;
  readonly height?: number;
  readonly has_preview_image?: boolean;
}

export interface Post {
  readonly id: string;
  readonly create_at: number;
  readonly update_at: number;
  readonly edit_at: number;
  readonly delete_at: number;
  readonly user_id: string;
  readonly channel_id: string;
  readonly root_id: string;
  readonly message: string;
  readonly type: string;
  readonly props: Readonly<Record<string, unknown>>;
  readonly reply_count?: number;
  readonly has_reactions?: boolean;
  readonly is_pinned?: boolean;
  readonly file_ids?: readonly string[];
  readonly metadata?: { readonly files?: readonly FileInfo[] };
}

export interface PostList {
  readonly order: readonly string[];
  readonly posts: Readonly<Record<string, Post>>;
}

export interface Reaction {
  readonly user_id: string;
  readonly post_id: string;
  readonly emoji_name: string;
  readonly create_at: number;
}

/** Hook and delivery JSON: declared once, in @switchyard/contracts/wire, beside the server's presenters. */
export type { WireIncomingHook as IncomingHook, WireOutgoingHook as OutgoingHook, WireDelivery as Delivery } from '@switchyard/contracts/wire';

/** The part of the system config the console shows (GET /config); the rest is kept as it is. */
export interface SystemConfig {
  readonly ServiceSettings: Readonly<Record<string, unknown>>;
  readonly RateLimitSettings: Readonly<Record<string, unknown>>;
  readonly [section: string]: unknown;
}
