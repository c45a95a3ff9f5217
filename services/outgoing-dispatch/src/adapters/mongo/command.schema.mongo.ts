import { type Connection, type Model, modelOn, Schema, SCHEMA_OPTIONS, toDocument, toPlain } from '@switchyard/mongo-kit';
import type { Command, CommandWebhook } from '../../domain/commands/command';

export const COMMANDS_COLLECTION = 'commands';
export const COMMAND_WEBHOOKS_COLLECTION = 'command_webhooks';

export type CommandDocument = Omit<Command, 'id'> & { _id: string };
export type CommandWebhookDocument = Omit<CommandWebhook, 'idHash'> & { _id: string };

const string = { type: String };
const number = { type: Number };

export const commandSchema = new Schema<CommandDocument>(
  {
    _id: string, token: string, createAt: number, updateAt: number, deleteAt: number, creatorId: string, teamId: string, trigger: string,
    method: string, username: string, iconUrl: string, autoComplete: { type: Boolean }, autoCompleteDesc: string, autoCompleteHint: string,
    displayName: string, description: string, url: string,
  },
  SCHEMA_OPTIONS,
);
// listByTeam (execute's lookup, trigger uniqueness, the list routes), oldest first.
commandSchema.index({ teamId: 1, deleteAt: 1, createAt: 1 });

export const commandWebhookSchema = new Schema<CommandWebhookDocument>(
  { _id: string, createAt: number, commandId: string, userId: string, channelId: string, rootId: string, useCount: number },
  SCHEMA_OPTIONS,
);
// deleteCreatedBefore (expiry sweep).
commandWebhookSchema.index({ createAt: 1 });

export function commandModel(connection: Connection): Model<CommandDocument> {
  return modelOn(connection, 'Command', commandSchema, COMMANDS_COLLECTION);
}

export function commandWebhookModel(connection: Connection): Model<CommandWebhookDocument> {
  return modelOn(connection, 'CommandWebhook', commandWebhookSchema, COMMAND_WEBHOOKS_COLLECTION);
}

export const toCommandDocument = (command: Command): CommandDocument => toDocument(command);
export const fromCommandDocument = (doc: CommandDocument): Command => toPlain<Command>(doc);
export const toCommandWebhookDocument = ({ idHash, ...rest }: CommandWebhook): CommandWebhookDocument => ({ _id: idHash, ...rest });
export function fromCommandWebhookDocument(doc: CommandWebhookDocument): CommandWebhook {
  const { id, ...rest } = toPlain<Omit<CommandWebhook, 'idHash'> & { id: string }>(doc);
  return { idHash: id, ...rest };
}
