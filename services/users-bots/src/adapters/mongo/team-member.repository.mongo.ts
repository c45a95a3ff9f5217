import type { Model } from '@switchyard/mongo-kit';
import type { TeamMember, TeamMemberChanges } from '../../domain/entities';
import type { Page, TeamMemberRepository } from '../../domain/ports';
import { asDomainError, pageWindow, setOf } from './mongo-support';
import { fromTeamMemberDocument, type TeamMemberDocument } from './team-member.schema.mongo';

/** The only unique key of the team_members collection (the pair; `_id` is a fresh ObjectId) → DuplicateKeyError('member'). */
const UNIQUE_KEYS = { teamId: 'member', userId: 'member', _id: 'member' } as const;
const OLDEST_FIRST = { createAt: 1, userId: 1 } as const;

export class MongoTeamMemberRepository implements TeamMemberRepository {
  public constructor(private readonly model: Model<TeamMemberDocument>) {}

  public async insert(member: TeamMember): Promise<void> {
    try {
      await this.model.create({ ...member });
    } catch (error) {
      throw await asDomainError(error, UNIQUE_KEYS);
    }
  }

  public async update(teamId: string, userId: string, changes: TeamMemberChanges): Promise<TeamMember | undefined> {
    const set = setOf(changes, ['teamId', 'userId', 'createAt']);
    if (Object.keys(set).length === 0) return this.find(teamId, userId);
    const doc = await this.model.findOneAndUpdate({ teamId, userId }, { $set: set }, { new: true }).lean<TeamMemberDocument>();
    return doc ? fromTeamMemberDocument(doc) : undefined;
  }

  public async find(teamId: string, userId: string): Promise<TeamMember | undefined> {
    const doc = await this.model.findOne({ teamId, userId }).lean<TeamMemberDocument>();
    return doc ? fromTeamMemberDocument(doc) : undefined;
  }

  public async listByTeam(teamId: string, page: Page): Promise<TeamMember[]> {
    const window = pageWindow(page);
    if (!window) return [];
    const docs = await this.model
      .find({ teamId, deleteAt: 0 })
      .sort(OLDEST_FIRST)
      .skip(window.skip)
      .limit(window.limit)
      .lean<TeamMemberDocument[]>();
    return docs.map(fromTeamMemberDocument);
  }

  public async listByUser(userId: string): Promise<TeamMember[]> {
    const docs = await this.model.find({ userId, deleteAt: 0 }).sort(OLDEST_FIRST).lean<TeamMemberDocument[]>();
    return docs.map(fromTeamMemberDocument);
  }

  public async countActive(teamId: string): Promise<number> {
    return this.model.countDocuments({ teamId, deleteAt: 0 });
  }

  public async userIdsInTeam(teamId: string): Promise<string[]> {
    const docs = await this.model.find({ teamId, deleteAt: 0 }, { _id: 0, userId: 1 }).sort(OLDEST_FIRST).lean<{ userId: string }[]>();
    return docs.map((doc) => doc.userId);
  }

  public async userIdsWithAnyTeam(): Promise<string[]> {
    const ids: unknown[] = await this.model.distinct('userId', { deleteAt: 0 });
    return ids.map(String);
  }

  public async deleteByUser(userId: string): Promise<number> {
    const result = await this.model.deleteMany({ userId });
    return result.deletedCount;
  }
}
