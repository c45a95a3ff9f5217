import { Schema, toPlain, type Connection, type Model } from '@switchyard/mongo-kit';
import { splitRoles } from '@switchyard/permissions';
import type { User } from '../../domain/entities';
import { modelOn, SCHEMA_OPTIONS } from './mongo-support';

export const USERS_COLLECTION = 'users';

/**
 * A stored user: the entity with `_id` for `id`, plus `roleList`, the space-separated `roles` split
 * into an array (kept in step by every write of `roles`) so role filters are an indexed equality
 * instead of a regex over the string. `roleList` never leaves the adapter.
 */
export type UserDocument = Omit<User, 'id'> & { _id: string; roleList: string[] };

export const userSchema = new Schema<UserDocument>(
  {
    _id: { type: String },
    username: { type: String },
    email: { type: String },
    emailVerified: { type: Boolean },
    passwordHash: { type: String },
    authService: { type: String },
    authData: { type: String },
    nickname: { type: String },
    firstName: { type: String },
    lastName: { type: String },
    position: { type: String },
    roles: { type: String },
    roleList: { type: [String] },
    locale: { type: String },
    props: { type: Schema.Types.Mixed },
    notifyProps: { type: Schema.Types.Mixed },
    timezone: { type: Schema.Types.Mixed },
    isBot: { type: Boolean },
    mfaActive: { type: Boolean },
    createAt: { type: Number },
    updateAt: { type: Number },
    deleteAt: { type: Number },
    lastPasswordUpdate: { type: Number },
    lastPictureUpdate: { type: Number },
    lastActivityAt: { type: Number },
    lastLogin: { type: Number },
    failedAttempts: { type: Number },
  },
  SCHEMA_OPTIONS,
);

// _id (built in): findById, findByIds, update, delete, search's `ids`/`excludeIds`; DuplicateKeyError('id').
// findByUsername, findByUsernames; DuplicateKeyError('username'); search's default sort (username ascending).
userSchema.index({ username: 1 }, { unique: true });
// findByEmail; DuplicateKeyError('email').
userSchema.index({ email: 1 }, { unique: true });
// countHumans ({isBot: false}, counted from the index alone: the first-user rule runs on every sign-up).
userSchema.index({ isBot: 1 });
// search's `role` (every listed role) and `anyRole` ($in) filters, e.g. listing system admins (multikey).
userSchema.index({ roleList: 1 });
// search sorted by `create_at` (newest first, then username).
userSchema.index({ createAt: -1, username: 1 });
// search sorted by `last_activity_at` (newest first, then username).
userSchema.index({ lastActivityAt: -1, username: 1 });
// search's `updatedSince` (updateAt > since: the clients' "users changed since" sync).
userSchema.index({ updateAt: 1 });
// No index on deleteAt: `active` splits users in two large groups, it filters alongside the ones above.

export function userModel(connection: Connection): Model<UserDocument> {
  return modelOn(connection, 'User', userSchema, USERS_COLLECTION);
}

export function toUserDocument(user: User): UserDocument {
  const { id, ...rest } = user;
  return { _id: id, ...rest, roleList: splitRoles(user.roles) };
}

export function fromUserDocument(doc: UserDocument): User {
  const { roleList: _roleList, ...stored } = doc;
  return toPlain<User>(stored);
}
