import type { Model } from '@switchyard/mongo-kit';
import { splitRoles } from '@switchyard/permissions';
import type { User, UserChanges } from '../../domain/entities';
import type { UserQuery, UserRepository } from '../../domain/ports';
import { asDomainError, inRequestedOrder, pageWindow, setOf, type Filter } from './mongo-support';
import { fromUserDocument, toUserDocument, type UserDocument } from './user.schema.mongo';

/** Unique indexes of the users collection → the key DuplicateKeyError names. */
const UNIQUE_KEYS = { _id: 'id', username: 'username', email: 'email' } as const;

const SORTS = {
  username: { username: 1 },
  create_at: { createAt: -1, username: 1 },
  last_activity_at: { lastActivityAt: -1, username: 1 },
} as const;

export class MongoUserRepository implements UserRepository {
  public constructor(private readonly model: Model<UserDocument>) {}

  public async insert(user: User): Promise<void> {
    try {
      await this.model.create(toUserDocument(user));
    } catch (error) {
      throw await asDomainError(error, UNIQUE_KEYS, () => this.takenKey(user.id, user.username, user.email, true));
    }
  }

  public async update(id: string, changes: UserChanges): Promise<User | undefined> {
    const set = setOf(changes, ['id', 'createAt']);
    if (typeof set.roles === 'string') set.roleList = splitRoles(set.roles);
    if (Object.keys(set).length === 0) return this.findById(id);
    try {
      const doc = await this.model.findOneAndUpdate({ _id: id }, { $set: set }, { new: true }).lean<UserDocument>();
      return doc ? fromUserDocument(doc) : undefined;
    } catch (error) {
      throw await asDomainError(error, UNIQUE_KEYS, () => this.takenKey(id, changes.username, changes.email, false));
    }
  }

  public async reserveLoginAttempt(id: string, limit: number): Promise<boolean> {
    // One guarded $inc: the server checks and increments together (a missing count counts as 0).
    const result = await this.model.updateOne({ _id: id, failedAttempts: { $not: { $gte: limit } } }, { $inc: { failedAttempts: 1 } });
    return result.modifiedCount === 1;
  }

  public async delete(id: string): Promise<boolean> {
    const result = await this.model.deleteOne({ _id: id });
    return result.deletedCount === 1;
  }

  public async findById(id: string): Promise<User | undefined> {
    const doc = await this.model.findById(id).lean<UserDocument>();
    return doc ? fromUserDocument(doc) : undefined;
  }

  public async findByIds(ids: readonly string[]): Promise<User[]> {
    if (ids.length === 0) return [];
    const docs = await this.model.find({ _id: { $in: [...new Set(ids)] } }).lean<UserDocument[]>();
    return inRequestedOrder(ids, docs.map(fromUserDocument), (u) => u.id);
  }

  public async findByUsername(username: string): Promise<User | undefined> {
    const doc = await this.model.findOne({ username }).lean<UserDocument>();
    return doc ? fromUserDocument(doc) : undefined;
  }

  public async findByUsernames(usernames: readonly string[]): Promise<User[]> {
    if (usernames.length === 0) return [];
    const docs = await this.model.find({ username: { $in: [...new Set(usernames)] } }).lean<UserDocument[]>();
    return inRequestedOrder(usernames, docs.map(fromUserDocument), (u) => u.username);
  }

  public async findByEmail(email: string): Promise<User | undefined> {
    const doc = await this.model.findOne({ email }).lean<UserDocument>();
    return doc ? fromUserDocument(doc) : undefined;
  }

  public async search(query: UserQuery): Promise<User[]> {
    const window = pageWindow(query);
    if (!window || query.ids?.length === 0 || query.anyRole?.length === 0) return [];
    const docs = await this.model
      .find(searchFilter(query))
      .sort(SORTS[query.sort ?? 'username'])
      .skip(window.skip)
      .limit(window.limit)
      .lean<UserDocument[]>();
    return docs.map(fromUserDocument);
  }

  public async countHumans(): Promise<number> {
    return this.model.countDocuments({ isBot: false });
  }

  /** Which unique key another user holds (asked only when the server did not name the index). */
  private async takenKey(id: string, username: string | undefined, email: string | undefined, checkId: boolean): Promise<string | undefined> {
    if (checkId && (await this.model.exists({ _id: id }))) return 'id';
    if (username !== undefined && (await this.model.exists({ username, _id: { $ne: id } }))) return 'username';
    if (email !== undefined && (await this.model.exists({ email, _id: { $ne: id } }))) return 'email';
    return undefined;
  }
}

function searchFilter(query: UserQuery): Filter {
  const filter: Filter = {};
  const byId: Filter = {};
  if (query.ids) byId.$in = [...query.ids];
  if (query.excludeIds && query.excludeIds.length > 0) byId.$nin = [...query.excludeIds];
  if (Object.keys(byId).length > 0) filter._id = byId;
  if (query.active === true) filter.deleteAt = 0;
  if (query.active === false) filter.deleteAt = { $gt: 0 };
  if (query.updatedSince !== undefined) filter.updateAt = { $gt: query.updatedSince };
  const roles: Filter[] = [];
  if (query.role !== undefined) roles.push({ roleList: query.role });
  if (query.anyRole) roles.push({ roleList: { $in: [...query.anyRole] } });
  if (roles.length === 1) Object.assign(filter, roles[0]);
  if (roles.length > 1) filter.$and = roles;
  return filter;
}
