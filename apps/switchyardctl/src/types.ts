/** The parts of the Mattermost wire objects (spec: mattermost-wire.md §3–§5) that the CLI reads. */

export interface User {
  readonly id: string;
  readonly username: string;
  readonly email?: string;
  readonly nickname?: string;
  readonly first_name?: string;
  readonly last_name?: string;
  readonly roles?: string;
  readonly auth_service?: string;
  readonly is_bot?: boolean;
  readonly delete_at?: number;
}

export interface Bot {
  readonly user_id: string;
  readonly username: string;
  readonly display_name?: string;
  readonly description?: string;
  readonly owner_id?: string;
  readonly create_at?: number;
  readonly update_at?: number;
  readonly delete_at?: number;
}

export interface UserAccessToken {
  readonly id: string;
  /** Present only in the creation response. */
  readonly token?: string;
  readonly user_id: string;
  readonly description?: string;
  readonly is_active?: boolean;
  readonly expires_at?: number;
}

export interface StatusOk {
  readonly status: string;
}
