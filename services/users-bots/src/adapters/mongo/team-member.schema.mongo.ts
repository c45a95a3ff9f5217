import { Schema, type Connection, type Model } from '@switchyard/mongo-kit';
import type { TeamMember } from '../../domain/entities';
import { modelOn, SCHEMA_OPTIONS } from './mongo-support';

export const TEAM_MEMBERS_COLLECTION = 'team_members';

/**
 * A stored membership: the entity as is, keyed by the unique (teamId, userId) pair; `_id` is the
 * ObjectId mongoose assigns and never leaves the adapter (a TeamMember has no id of its own).
 */
export type TeamMemberDocument = TeamMember & { _id?: unknown };

export const teamMemberSchema = new Schema<TeamMemberDocument>(
  {
    teamId: { type: String },
    userId: { type: String },
    schemeGuest: { type: Boolean },
    schemeUser: { type: Boolean },
    schemeAdmin: { type: Boolean },
    explicitRoles: { type: String },
    createAt: { type: Number },
    deleteAt: { type: Number },
  },
  SCHEMA_OPTIONS,
);

// find, update (by team and user); one membership per pair: DuplicateKeyError('member').
teamMemberSchema.index({ teamId: 1, userId: 1 }, { unique: true });
// listByTeam (active, oldest first: createAt, then userId, paged), countActive, userIdsInTeam.
teamMemberSchema.index({ teamId: 1, deleteAt: 1, createAt: 1, userId: 1 });
// listByUser (active, oldest first) and deleteByUser.
teamMemberSchema.index({ userId: 1, deleteAt: 1, createAt: 1 });
// userIdsWithAnyTeam (distinct userId over active memberships: the "without a team" user list).
teamMemberSchema.index({ deleteAt: 1, userId: 1 });

export function teamMemberModel(connection: Connection): Model<TeamMemberDocument> {
  return modelOn(connection, 'TeamMember', teamMemberSchema, TEAM_MEMBERS_COLLECTION);
}

export function fromTeamMemberDocument(doc: TeamMemberDocument): TeamMember {
  const { _id: _objectId, ...member } = doc as TeamMemberDocument & { __v?: unknown };
  delete (member as { __v?: unknown }).__v;
  return member;
}
