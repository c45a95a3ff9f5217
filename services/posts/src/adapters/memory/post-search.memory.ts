import type { StoredPost } from '../../domain/entities';
import type { PostRepository } from '../../domain/ports';
import type { FoundPost, PostSearchIndex, PostSearchQuery } from '../../domain/search/post-search.port';
import { newestFirst, postMatchesQuery } from '../../domain/search/post-matches-query';
import { withMatches } from '../../domain/search/search-matches';

/** Read per channel: the memory store is for tests and small embedded data, so a scan is the index. */
const SCAN_LIMIT = 1_000_000;

/** Post search over any PostRepository by reading the channels' posts (no index to keep). */
export class ScanningPostSearch implements PostSearchIndex {
  public constructor(private readonly posts: PostRepository) {}

  public async search(query: PostSearchQuery): Promise<FoundPost[]> {
    if (!(query.limit > 0)) return [];
    const found: StoredPost[] = [];
    for (const channelId of new Set(query.channelIds)) {
      const posts = await this.posts.list({ channelId, includeDeleted: false, skip: 0, limit: SCAN_LIMIT });
      for (const post of posts) if (postMatchesQuery(post, query)) found.push(post);
    }
    return withMatches(found.sort(newestFirst).slice(0, query.limit), query.highlight);
  }
}
