/** A channel's member ids (posts' internal API): for `in_channel_id` / `not_in_channel_id` filters. */
export interface ChannelMemberIds {
  /** undefined when the channel does not exist. */
  memberIds(channelId: string): Promise<readonly string[] | undefined>;
}
