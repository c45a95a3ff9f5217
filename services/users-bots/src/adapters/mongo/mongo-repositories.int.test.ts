import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { newId } from '@switchyard/ids';
import { connectMongo, type Connection } from '@switchyard/mongo-kit';
import type { Repositories } from '../../domain/ports';
import {
  aBot,
  aMember,
  aToken,
  aUser,
  accessTokenRepositoryContract,
  botRepositoryContract,
  configRepositoryContract,
  imageStoreContract,
  preferenceRepositoryContract,
  sessionRepositoryContract,
  teamMemberRepositoryContract,
  teamRepositoryContract,
  userRepositoryContract,
} from '../contracts';
import { createMongoRepositories, USERS_BOTS_COLLECTIONS } from './index';

const url = process.env.MONGO_URL;

/** Key patterns every collection must have after start (besides `_id`), unique ones marked. */
const EXPECTED_INDEXES: Record<keyof Repositories, readonly { key: Record<string, number>; unique?: boolean }[]> = {
  images: [],
  preferences: [{ key: { user_id: 1, category: 1, name: 1 }, unique: true }, { key: { category: 1, name: 1, user_id: 1 } }],
  users: [
    { key: { username: 1 }, unique: true },
    { key: { email: 1 }, unique: true },
    { key: { isBot: 1 } },
    { key: { roleList: 1 } },
    { key: { createAt: -1, username: 1 } },
    { key: { lastActivityAt: -1, username: 1 } },
    { key: { updateAt: 1 } },
  ],
  sessions: [{ key: { tokenHash: 1 }, unique: true }, { key: { userId: 1, createAt: 1 } }, { key: { tokenId: 1 } }],
  tokens: [{ key: { tokenHash: 1 }, unique: true }, { key: { userId: 1, createAt: 1, _id: 1 } }, { key: { createAt: 1, _id: 1 } }],
  bots: [{ key: { ownerId: 1, createAt: 1, _id: 1 } }, { key: { createAt: 1, _id: 1 } }],
  teams: [{ key: { name: 1 }, unique: true }],
  members: [
    { key: { teamId: 1, userId: 1 }, unique: true },
    { key: { teamId: 1, deleteAt: 1, createAt: 1, userId: 1 } },
    { key: { userId: 1, deleteAt: 1, createAt: 1 } },
    { key: { deleteAt: 1, userId: 1 } },
  ],
  configStore: [],
};

describe('users-bots repositories on MongoDB', { skip: !url && 'MONGO_URL not set: run deploy/local/up.sh' }, () => {
  // One fresh database per run, dropped at the end; each contract test starts from an empty collection.
  const dbName = `users_it_${randomBytes(6).toString('hex')}`;
  let connection: Connection | undefined;
  let repositories: Repositories | undefined;

  before(async () => {
    connection = await connectMongo({ url: url ?? '', dbName, serverSelectionTimeoutMs: 5_000 });
    repositories = await createMongoRepositories(connection);
  });

  after(async () => {
    if (!connection) return;
    await connection.dropDatabase();
    await connection.close();
  });

  const started = (): { connection: Connection; repositories: Repositories } => {
    if (!connection || !repositories) throw new Error('MongoDB not connected (see the before hook)');
    return { connection, repositories };
  };

  const fresh =
    <K extends keyof Repositories>(key: K) =>
    async (): Promise<Repositories[K]> => {
      const s = started();
      await s.connection.collection(USERS_BOTS_COLLECTIONS[key]).deleteMany({});
      return s.repositories[key];
    };

  userRepositoryContract('mongo', fresh('users'));
  sessionRepositoryContract('mongo', fresh('sessions'));
  accessTokenRepositoryContract('mongo', fresh('tokens'));
  botRepositoryContract('mongo', fresh('bots'));
  teamRepositoryContract('mongo', fresh('teams'));
  teamMemberRepositoryContract('mongo', fresh('members'));
  configRepositoryContract('mongo', fresh('configStore'));
  imageStoreContract('mongo', fresh('images'));
  preferenceRepositoryContract('mongo', fresh('preferences'));

  describe('mongo adapter specifics', () => {
    it('when the repositories are created, then every declared index exists, unique ones unique', async () => {
      const { connection: conn } = started();
      for (const [key, expected] of Object.entries(EXPECTED_INDEXES) as [keyof Repositories, (typeof EXPECTED_INDEXES)['users']][]) {
        const indexes = (await conn.collection(USERS_BOTS_COLLECTIONS[key]).listIndexes().toArray()) as { key: Record<string, number>; unique?: boolean }[];
        const shown = indexes.map((i) => `${JSON.stringify(i.key)}${i.unique ? ' unique' : ''}`);
        for (const want of expected) {
          const found = indexes.find((i) => JSON.stringify(i.key) === JSON.stringify(want.key));
          assert.ok(found, `${key}: missing index ${JSON.stringify(want.key)} (has ${shown.join(', ')})`);
          assert.equal(found.unique === true, want.unique === true, `${key}: ${JSON.stringify(want.key)} unique`);
        }
        assert.equal(indexes.length, expected.length + 1, `${key}: ${shown.join(', ')}`);
      }
    });

    it('when created again on the same connection with indexes: sync, then nothing changes and data stays', async () => {
      const { connection: conn, repositories: repos } = started();
      const user = aUser();
      await repos.users.insert(user);
      const again = await createMongoRepositories(conn, { indexes: 'sync' });
      assert.deepEqual(await again.users.findById(user.id), user);
      const indexes = await conn.collection(USERS_BOTS_COLLECTIONS.users).listIndexes().toArray();
      assert.equal(indexes.length, EXPECTED_INDEXES.users.length + 1);
    });

    it('when a user is stored, then the document holds roleList and _id, and reads return the entity only', async () => {
      const { connection: conn, repositories: repos } = started();
      const user = aUser({ roles: 'system_user  system_admin' });
      await repos.users.insert(user);
      const raw = await conn.collection(USERS_BOTS_COLLECTIONS.users).findOne({ _id: user.id as never });
      assert.deepEqual(raw?.roleList, ['system_user', 'system_admin']);
      assert.equal(raw && '__v' in raw, false);
      const read = await repos.users.findById(user.id);
      assert.deepEqual(Object.keys(read ?? {}).sort(), Object.keys(user).sort());
    });

    it('when roles change, then role searches follow (roleList kept in step)', async () => {
      const { repositories: repos } = started();
      const user = aUser();
      await repos.users.insert(user);
      assert.deepEqual(await repos.users.search({ ids: [user.id], role: 'system_admin', page: 0, perPage: 10 }), []);
      await repos.users.update(user.id, { roles: 'system_admin system_user' });
      const found = await repos.users.search({ ids: [user.id], role: 'system_admin', page: 0, perPage: 10 });
      assert.deepEqual(found.map((u) => u.id), [user.id]);
      assert.deepEqual(await repos.users.search({ ids: [user.id], anyRole: [], page: 0, perPage: 10 }), []);
    });

    it('when a page of size 0 is asked, then it is empty (not every row: MongoDB reads limit(0) as no limit)', async () => {
      const { repositories: repos } = started();
      const user = aUser();
      await repos.users.insert(user);
      const token = aToken();
      await repos.tokens.insert(token);
      const bot = aBot();
      await repos.bots.insert(bot);
      const member = aMember();
      await repos.members.insert(member);
      assert.deepEqual(await repos.users.search({ page: 0, perPage: 0 }), []);
      assert.deepEqual(await repos.tokens.listAll({ page: 0, perPage: 0 }), []);
      assert.deepEqual(await repos.bots.list({ includeDeleted: true, page: 0, perPage: 0 }), []);
      assert.deepEqual(await repos.members.listByTeam(member.teamId, { page: 0, perPage: 0 }), []);
    });

    it('when ids are asked in some order, repeated or missing, then results follow that order', async () => {
      const { repositories: repos } = started();
      const [a, b] = [aUser(), aUser()];
      await repos.users.insert(a);
      await repos.users.insert(b);
      const found = await repos.users.findByIds([b.id, newId(), a.id, b.id]);
      assert.deepEqual(found.map((u) => u.id), [b.id, a.id, b.id]);
      assert.notEqual(found[0], found[2]);
      const byName = await repos.users.findByUsernames([b.username, a.username]);
      assert.deepEqual(byName.map((u) => u.id), [b.id, a.id]);
    });

    it('when a user update sets undefined fields, then they stay as they were', async () => {
      const { repositories: repos } = started();
      const user = aUser({ nickname: 'nick' });
      await repos.users.insert(user);
      const updated = await repos.users.update(user.id, { nickname: undefined, firstName: 'First' });
      assert.equal(updated?.nickname, 'nick');
      assert.equal(updated?.firstName, 'First');
      assert.deepEqual(await repos.users.update(user.id, {}), { ...user, firstName: 'First' });
    });
  });
});
