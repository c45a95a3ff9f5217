import type { Migration } from '@switchyard/sqlite-kit';

/** posts' tables in the embedded store: each entity as a JSON `doc`, plus the columns its queries use. */
export const POSTS_COMPONENT = 'posts';

export const POSTS_MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE p_channels (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    display_name TEXT NOT NULL,
    delete_at INTEGER NOT NULL,
    doc TEXT NOT NULL
  ) STRICT;
  CREATE UNIQUE INDEX p_channels_name ON p_channels (team_id, name);
  CREATE INDEX p_channels_team ON p_channels (team_id, display_name, id);

  CREATE TABLE p_channel_members (
    channel_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    create_at INTEGER NOT NULL,
    doc TEXT NOT NULL,
    PRIMARY KEY (channel_id, user_id)
  ) STRICT;
  CREATE INDEX p_channel_members_channel ON p_channel_members (channel_id, create_at, user_id);
  CREATE INDEX p_channel_members_user ON p_channel_members (user_id, create_at);

  CREATE TABLE p_posts (
    id TEXT PRIMARY KEY,
    channel_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    pending_post_id TEXT NOT NULL,
    create_at INTEGER NOT NULL,
    update_at INTEGER NOT NULL,
    delete_at INTEGER NOT NULL,
    outbox INTEGER NOT NULL,      -- 1 while pending_events is not empty (the outbox sweep)
    doc TEXT NOT NULL
  ) STRICT;
  CREATE INDEX p_posts_channel ON p_posts (channel_id, create_at, id);
  CREATE INDEX p_posts_pending_post ON p_posts (user_id, pending_post_id) WHERE pending_post_id <> '';
  CREATE INDEX p_posts_outbox ON p_posts (create_at, id) WHERE outbox = 1;

  CREATE TABLE p_reactions (
    post_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    emoji_name TEXT NOT NULL,
    create_at INTEGER NOT NULL,
    doc TEXT NOT NULL,
    PRIMARY KEY (post_id, user_id, emoji_name)
  ) STRICT;
  `,
  // 2: a post's pending events move out of its document into their own column, so clearing one (the
  // outbox relay, once per event) rewrites that short array instead of the whole post.
  `
  ALTER TABLE p_posts ADD COLUMN events TEXT NOT NULL DEFAULT '[]';
  UPDATE p_posts SET events = json_extract(doc, '$.pending_events'), doc = json_remove(doc, '$.pending_events')
    WHERE json_type(doc, '$.pending_events') = 'array';
  `,
  // 3: file infos (files on posts); the storage keys live in the document.
  `
  CREATE TABLE p_file_infos (
    id TEXT PRIMARY KEY,
    post_id TEXT NOT NULL,
    create_at INTEGER NOT NULL,
    delete_at INTEGER NOT NULL,
    doc TEXT NOT NULL
  ) STRICT;
  CREATE INDEX p_file_infos_post ON p_file_infos (post_id, create_at, id) WHERE post_id <> '';
  `,
  // 4: post search (docs/adr: post search index). Two contentless FTS5 tables keyed by the post row's rowid,
  // kept by triggers, so the index is written in the post write's own transaction (a crash keeps both or
  // neither): message words (Porter-stemmed, case and diacritics folded) and exact hashtags (`#tag` one
  // token). Deleted posts and system_* posts are never in them; an edit or delete rewrites the entry.
  `
  CREATE VIRTUAL TABLE p_posts_fts USING fts5(message, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');
  CREATE VIRTUAL TABLE p_posts_tags_fts USING fts5(tags, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 2 tokenchars '#-_.'");

  CREATE TRIGGER p_posts_search_insert AFTER INSERT ON p_posts
    WHEN new.delete_at = 0 AND coalesce(json_extract(new.doc, '$.type'), '') NOT LIKE 'system\\_%' ESCAPE '\\'
  BEGIN
    INSERT INTO p_posts_fts (rowid, message) VALUES (new.rowid, coalesce(json_extract(new.doc, '$.message'), ''));
    INSERT INTO p_posts_tags_fts (rowid, tags) SELECT new.rowid, json_extract(new.doc, '$.hashtags') WHERE coalesce(json_extract(new.doc, '$.hashtags'), '') <> '';
  END;

  CREATE TRIGGER p_posts_search_delete AFTER DELETE ON p_posts BEGIN
    DELETE FROM p_posts_fts WHERE rowid = old.rowid;
    DELETE FROM p_posts_tags_fts WHERE rowid = old.rowid;
  END;

  CREATE TRIGGER p_posts_search_update AFTER UPDATE OF doc, delete_at ON p_posts
    WHEN old.delete_at <> new.delete_at OR json_extract(old.doc, '$.message') IS NOT json_extract(new.doc, '$.message')
  BEGIN
    DELETE FROM p_posts_fts WHERE rowid = old.rowid;
    DELETE FROM p_posts_tags_fts WHERE rowid = old.rowid;
    INSERT INTO p_posts_fts (rowid, message) SELECT new.rowid, coalesce(json_extract(new.doc, '$.message'), '')
      WHERE new.delete_at = 0 AND coalesce(json_extract(new.doc, '$.type'), '') NOT LIKE 'system\\_%' ESCAPE '\\';
    INSERT INTO p_posts_tags_fts (rowid, tags) SELECT new.rowid, json_extract(new.doc, '$.hashtags')
      WHERE new.delete_at = 0 AND coalesce(json_extract(new.doc, '$.type'), '') NOT LIKE 'system\\_%' ESCAPE '\\' AND coalesce(json_extract(new.doc, '$.hashtags'), '') <> '';
  END;

  INSERT INTO p_posts_fts (rowid, message) SELECT rowid, coalesce(json_extract(doc, '$.message'), '') FROM p_posts
    WHERE delete_at = 0 AND coalesce(json_extract(doc, '$.type'), '') NOT LIKE 'system\\_%' ESCAPE '\\';
  INSERT INTO p_posts_tags_fts (rowid, tags) SELECT rowid, json_extract(doc, '$.hashtags') FROM p_posts
    WHERE delete_at = 0 AND coalesce(json_extract(doc, '$.type'), '') NOT LIKE 'system\\_%' ESCAPE '\\' AND coalesce(json_extract(doc, '$.hashtags'), '') <> '';
  `,
  // 5: thread memberships (collapsed reply threads): who follows which thread, last viewed, unread mentions.
  `
  CREATE TABLE p_thread_memberships (
    post_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    team_id TEXT NOT NULL,
    following INTEGER NOT NULL,
    doc TEXT NOT NULL,
    PRIMARY KEY (post_id, user_id)
  ) STRICT;
  CREATE INDEX p_thread_memberships_user ON p_thread_memberships (user_id, team_id);
  CREATE INDEX p_thread_memberships_followers ON p_thread_memberships (post_id) WHERE following = 1;
  `,
  // 6: a root's replies without walking its channel (thread lists read each shown thread's replies); only
  // replies are in it, so root posts add no entry.
  `
  CREATE INDEX p_posts_root ON p_posts (json_extract(doc, '$.root_id'), create_at, id) WHERE json_extract(doc, '$.root_id') <> '';
  `,
  // 7: a counter of search-scope changes (search-scope.sqlite.ts): triggers bump it whenever a membership is
  // added or removed, or a channel is archived, restored, moved or deleted, in that write's own statement, so
  // a cached scope is reused only while no write that could change any user's scope has happened.
  `
  CREATE TABLE p_search_scope_version (id INTEGER PRIMARY KEY CHECK (id = 1), v INTEGER NOT NULL) STRICT;
  INSERT INTO p_search_scope_version (id, v) VALUES (1, 0);
  CREATE TRIGGER p_search_scope_member_insert AFTER INSERT ON p_channel_members BEGIN
    UPDATE p_search_scope_version SET v = v + 1 WHERE id = 1;
  END;
  CREATE TRIGGER p_search_scope_member_delete AFTER DELETE ON p_channel_members BEGIN
    UPDATE p_search_scope_version SET v = v + 1 WHERE id = 1;
  END;
  CREATE TRIGGER p_search_scope_member_update AFTER UPDATE ON p_channel_members
    WHEN old.channel_id IS NOT new.channel_id OR old.user_id IS NOT new.user_id
  BEGIN
    UPDATE p_search_scope_version SET v = v + 1 WHERE id = 1;
  END;
  CREATE TRIGGER p_search_scope_channel_update AFTER UPDATE ON p_channels
    WHEN old.delete_at IS NOT new.delete_at OR old.team_id IS NOT new.team_id OR old.id IS NOT new.id
  BEGIN
    UPDATE p_search_scope_version SET v = v + 1 WHERE id = 1;
  END;
  CREATE TRIGGER p_search_scope_channel_delete AFTER DELETE ON p_channels BEGIN
    UPDATE p_search_scope_version SET v = v + 1 WHERE id = 1;
  END;
  `,
  // 8: what search checks of each full-text match (channel, author, time), by the post row's rowid, in a
  // narrow table of its own, kept by triggers like the FTS5 tables: a match is checked without reading its
  // post row (measured at 1,000,000 posts: the candidate scan of a `from:` + word search 1.7x faster).
  `
  CREATE TABLE p_posts_search_meta (
    rowid INTEGER PRIMARY KEY,
    channel_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    create_at INTEGER NOT NULL
  ) STRICT;
  CREATE TRIGGER p_posts_search_meta_insert AFTER INSERT ON p_posts BEGIN
    INSERT INTO p_posts_search_meta (rowid, channel_id, user_id, create_at) VALUES (new.rowid, new.channel_id, new.user_id, new.create_at);
  END;
  CREATE TRIGGER p_posts_search_meta_delete AFTER DELETE ON p_posts BEGIN
    DELETE FROM p_posts_search_meta WHERE rowid = old.rowid;
  END;
  CREATE TRIGGER p_posts_search_meta_update AFTER UPDATE OF channel_id, user_id, create_at ON p_posts
    WHEN old.channel_id IS NOT new.channel_id OR old.user_id IS NOT new.user_id OR old.create_at IS NOT new.create_at
  BEGIN
    UPDATE p_posts_search_meta SET channel_id = new.channel_id, user_id = new.user_id, create_at = new.create_at WHERE rowid = new.rowid;
  END;
  INSERT INTO p_posts_search_meta (rowid, channel_id, user_id, create_at) SELECT rowid, channel_id, user_id, create_at FROM p_posts;
  `,
  // 9: a root's thread participants (JSON array of user ids in order of first reply), kept by each reply's
  // counter write, so a reply does not list its thread's authors. NULL: a reply, or a root stored before
  // (read from its replies instead).
  `
  ALTER TABLE p_posts ADD COLUMN participant_ids TEXT;
  `,
  // 10: an author's search rows by rowid (a rowid table's index holds the rowid after its key), so a `from:` search
  // whose authors wrote few posts reads those posts and checks each in FTS5, instead of every match of its words
  // (post-search-plan.sqlite.ts; at 1,000,000 posts, 30 posts + the commonest word: ~100 ms -> ~3 ms).
  `
  CREATE INDEX p_posts_search_meta_user ON p_posts_search_meta (user_id);
  `,
  // 11: search rows by time, so a search with `before:`/`after:`/`on:` over few posts hands FTS5 the rowid range
  // those posts span (exact whatever order posts were stored in) instead of reading every newer or older match.
  `
  CREATE INDEX p_posts_search_meta_time ON p_posts_search_meta (create_at);
  `,
  // 12: a new post's search rows (FTS5 words and tags, match metadata) are written by the post repository's insert
  // (post-search-rows.sqlite.ts), not by insert triggers, and the channels' scope trigger fires only when a column
  // it looks at is set: a statement that fires a trigger runs in a statement savepoint, and FTS5 writes its pending
  // terms as a new segment at each one, so every post cost one segment (and its merges) instead of one per commit.
  // The scope trigger's condition is unchanged; edits and deletes keep their triggers.
  `
  DROP TRIGGER p_posts_search_insert;
  DROP TRIGGER p_posts_search_meta_insert;
  DROP TRIGGER p_search_scope_channel_update;
  CREATE TRIGGER p_search_scope_channel_update AFTER UPDATE OF delete_at, team_id, id ON p_channels
    WHEN old.delete_at IS NOT new.delete_at OR old.team_id IS NOT new.team_id OR old.id IS NOT new.id
  BEGIN
    UPDATE p_search_scope_version SET v = v + 1 WHERE id = 1;
  END;
  `,
  // 13: a channel's roots by time (the collapsed-threads channel view, PostQuery.rootsOnly): root_id lives only in the
  // JSON doc, so without it a page of roots walked every reply in between on p_posts_channel. Partial: replies have
  // no entry. The list query repeats this WHERE expression exactly (ROOTS_ONLY), or SQLite would not use it.
  `
  CREATE INDEX p_posts_channel_roots ON p_posts (channel_id, create_at, id) WHERE json_extract(doc, '$.root_id') = '';
  `,
];
