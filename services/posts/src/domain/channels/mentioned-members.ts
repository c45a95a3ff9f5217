import { mentionTexts, type UserMentionSettings } from '@switchyard/contracts';
import type { Channel, ChannelMember, StoredPost } from '../entities';
import type { Deps } from '../ports';
import { hasPermission, Permissions } from '@switchyard/permissions';
import { channelNotifyPropsOf } from './channel-notify-props';
import { MAX_NOTIFIED_MEMBERS, mentionPlan } from './mention-plan';
import { keywordMentions, keywordsOf } from './mention-keywords';
import { mentionTextRuns } from './mention-text-runs';
import { commentMentions } from './comment-mentions';

type MentioningPost = Pick<StoredPost, 'message' | 'props' | 'user_id' | 'root_id'>;

/** Who a post mentions: every id (counted, `posted.mentions`), and those mentioned only as a thread's writers (comments). */
export interface PostMentions {
  readonly ids: readonly string[];
  /**
   * Mentioned only by their `comments` notify prop (the reference's ThreadMention/CommentMention, which outrank a group
   * channel's mention): they count on the channel but gain no unread thread mention and are not made to follow again.
   */
  readonly asWriters: ReadonlySet<string>;
}

/**
 * Whether the author may use `@channel`, `@all` and `@here` here (the reference's HasPermissionToChannel on
 * use_channel_mentions): every channel role grants it, so a member may; someone outside the channel (an
 * incoming hook's creator) only through their system roles.
 */
export async function mayMentionChannel(deps: Deps, channel: Channel, authorId: string): Promise<boolean> {
  if (await deps.cachedMembers.cachedMember(channel.id, authorId)) return true;
  const [author] = await deps.users.usersByIds([authorId]);
  return hasPermission(author?.roles, Permissions.useChannelMentions);
}

/**
 * Whether `@channel`, `@all` and `@here` mention this member (the reference's MentionKeywords.AddUser): the user's `channel`
 * notify prop is on (users-bots' settings; absent = the default, on) and the membership does not ignore them: its
 * `ignore_channel_mentions` is `on`, or `default` in a muted channel (`mark_unread` `mention`).
 */
export function heedsChannelMentions(member: Pick<ChannelMember, 'notify_props'>, settings: UserMentionSettings | undefined): boolean {
  if (settings && !settings.channel) return false;
  const props = channelNotifyPropsOf(member);
  const ignore = props.ignore_channel_mentions;
  return !(ignore === 'on' || (ignore === 'default' && props.mark_unread === 'mention'));
}

/** A channel's member ids are read in pages of this many (the first page cached), at most MAX_MEMBER_PAGES of them per post. */
const MEMBER_PAGE = MAX_NOTIFIED_MEMBERS;
/** Bounded work per post: keywords are looked for among the first 100,000 members (in user id order) at most. */
const MAX_MEMBER_PAGES = 100;

type Settings = ReadonlyMap<string, UserMentionSettings>;

/**
 * Every member id of the channel, read a page at a time, with the mention settings of those that differ from the defaults
 * (users-bots, cached; unknown settings when users-bots cannot answer count as the defaults). `complete` is false when the
 * channel has more members than MAX_MEMBER_PAGES pages hold.
 */
async function membersAndSettings(deps: Deps, channelId: string): Promise<{ ids: string[]; settings: Settings; complete: boolean }> {
  const ids: string[] = [];
  const settings = new Map<string, UserMentionSettings>();
  let page = await deps.channelMembers.userIdsOfChannel(channelId, MEMBER_PAGE);
  for (let read = 1; ; read += 1) {
    ids.push(...page);
    const found = deps.mentionSettings ? await deps.mentionSettings.of(page).catch((): Settings => new Map()) : new Map();
    for (const [id, s] of found) settings.set(id, s);
    if (page.length < MEMBER_PAGE) return { ids, settings, complete: true };
    if (read >= MAX_MEMBER_PAGES) return { ids, settings, complete: false };
    page = await deps.channelMembers.userIdsOfChannel(channelId, MEMBER_PAGE, page[page.length - 1]);
  }
}

/** `@` (an `@name` or a channel-wide word), or `&`: a character reference that may spell one (`&#64;`). */
const MAY_NAME = /[@&]/;

/**
 * Whether a post's text may name anyone. When it may not and no member has keywords of their own, its text is not read
 * at all (no Markdown parse): no reading of it could mention anyone.
 */
function mayNameSomeone(post: MentioningPost): boolean {
  return mentionTexts(post).some((text) => MAY_NAME.test(text));
}

/**
 * The members a new post mentions (the reference's getExplicitMentionsAndKeywords), its author only when a webhook posted it:
 * in a direct channel the other user; in a group channel every member; elsewhere the members it names (`@username`), the
 * members whose mention keys or first name (when they turned first-name mentions on) it contains, and, when the author may use
 * them in a channel of fewer than 1,000 members, every member heeding `@channel`/`@all` and the online ones heeding `@here`.
 * Read from the post's Markdown text only (mention-text-runs.ts). Keywords are looked for among every member, read in pages of
 * 1,000 (bounded: MAX_MEMBER_PAGES); memberships are read only for a channel-wide word.
 */
export async function mentionedMembers(deps: Deps, post: MentioningPost, channel: Channel): Promise<string[]> {
  return [...(await postMentions(deps, post, channel)).ids];
}

/** mentionedMembers, telling apart those mentioned only as the thread's writers (a reply's `comments` mentions). */
export async function postMentions(deps: Deps, post: MentioningPost, channel: Channel): Promise<PostMentions> {
  // A webhook's post may mention its creator (the reference removes the author only from other posts).
  const author = post.props?.from_webhook === 'true' ? undefined : post.user_id;
  if (channel.type === 'D') return { ids: [...(mentionPlan(channel, post)?.direct ?? [])], asWriters: new Set() };
  const { ids: memberIds, settings, complete } = await membersAndSettings(deps, channel.id);
  if (memberIds.length === 0) return { ids: [], asWriters: new Set() };
  const keywords = keywordsOf(settings);
  const texts = keywords.size > 0 || mayNameSomeone(post) ? await mentionTextRuns(post) : [];
  const plan = mentionPlan(channel, post, texts);
  const members = new Set(memberIds);
  const ids = new Set<string>();
  if (plan && plan.names.length > 0) {
    // Past MAX_MEMBER_PAGES pages a named user is left to the store's membership check.
    for (const id of (await deps.userNames.idsByUsernames(plan.names)).values()) if (!complete || members.has(id)) ids.add(id);
  }
  for (const id of keywordMentions(texts, keywords)) ids.add(id);
  if (plan && (plan.everyone || plan.here) && memberIds.length < MAX_NOTIFIED_MEMBERS && (await mayMentionChannel(deps, channel, post.user_id))) {
    const listed = await deps.channelMembers.listByChannel(channel.id, { page: 0, perPage: MAX_NOTIFIED_MEMBERS });
    const heeding = listed.filter((m) => m.user_id !== author && heedsChannelMentions(m, settings.get(m.user_id))).map((m) => m.user_id);
    if (plan.everyone) for (const id of heeding) ids.add(id);
    else if (deps.onlineUsers && heeding.length > 0) for (const id of await deps.onlineUsers.online(heeding)) ids.add(id);
  }
  // Writers of the thread with `comments` on outrank a group channel's mention, explicit mentions outrank them.
  const writers = await commentMentions(deps, post, channel, settings, members);
  const asWriters = new Set([...writers].filter((id) => !ids.has(id)));
  for (const id of writers) ids.add(id);
  // A group channel's post mentions every member (the newest reference's GMMention).
  if (channel.type === 'G') for (const id of memberIds) ids.add(id);
  if (author !== undefined) {
    ids.delete(author);
    asWriters.delete(author);
  }
  return { ids: [...ids], asWriters };
}
