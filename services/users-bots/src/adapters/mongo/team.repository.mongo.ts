import type { Model } from '@switchyard/mongo-kit';
import type { Team } from '../../domain/entities';
import type { TeamRepository } from '../../domain/ports';
import { asDomainError, inRequestedOrder } from './mongo-support';
import { fromTeamDocument, toTeamDocument, type TeamDocument } from './team.schema.mongo';

/** Unique indexes of the teams collection → the key DuplicateKeyError names. */
const UNIQUE_KEYS = { _id: 'id', name: 'name' } as const;

export class MongoTeamRepository implements TeamRepository {
  public constructor(private readonly model: Model<TeamDocument>) {}

  public async insert(team: Team): Promise<void> {
    try {
      await this.model.create(toTeamDocument(team));
    } catch (error) {
      throw await asDomainError(error, UNIQUE_KEYS, async () => {
        if (await this.model.exists({ _id: team.id })) return 'id';
        if (await this.model.exists({ name: team.name })) return 'name';
        return undefined;
      });
    }
  }

  public async findById(id: string): Promise<Team | undefined> {
    const doc = await this.model.findById(id).lean<TeamDocument>();
    return doc ? fromTeamDocument(doc) : undefined;
  }

  public async findByName(name: string): Promise<Team | undefined> {
    const doc = await this.model.findOne({ name }).lean<TeamDocument>();
    return doc ? fromTeamDocument(doc) : undefined;
  }

  public async findByIds(ids: readonly string[]): Promise<Team[]> {
    if (ids.length === 0) return [];
    const docs = await this.model.find({ _id: { $in: [...new Set(ids)] } }).lean<TeamDocument[]>();
    return inRequestedOrder(ids, docs.map(fromTeamDocument), (t) => t.id);
  }
}
