import { Schema, toDocument, toPlain, type Connection, type Model } from '@switchyard/mongo-kit';
import type { Team } from '../../domain/entities';
import { modelOn, SCHEMA_OPTIONS } from './mongo-support';

export const TEAMS_COLLECTION = 'teams';

/** A stored team: the entity with `_id` for `id`. */
export type TeamDocument = Omit<Team, 'id'> & { _id: string };

export const teamSchema = new Schema<TeamDocument>(
  {
    _id: { type: String },
    name: { type: String },
    displayName: { type: String },
    description: { type: String },
    email: { type: String },
    type: { type: String },
    companyName: { type: String },
    allowedDomains: { type: String },
    inviteId: { type: String },
    allowOpenInvite: { type: Boolean },
    createAt: { type: Number },
    updateAt: { type: Number },
    deleteAt: { type: Number },
    lastTeamIconUpdate: { type: Number },
  },
  SCHEMA_OPTIONS,
);

// _id (built in): findById, findByIds; DuplicateKeyError('id').
// findByName (GET /teams/name/{name}); DuplicateKeyError('name').
teamSchema.index({ name: 1 }, { unique: true });

export function teamModel(connection: Connection): Model<TeamDocument> {
  return modelOn(connection, 'Team', teamSchema, TEAMS_COLLECTION);
}

export const toTeamDocument = (team: Team): TeamDocument => toDocument(team);
export const fromTeamDocument = (doc: TeamDocument): Team => toPlain<Team>(doc);
