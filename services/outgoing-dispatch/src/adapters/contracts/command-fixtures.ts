import { createHash } from 'node:crypto';
import { newId } from '@switchyard/ids';
import type { Command, CommandWebhook } from '../../domain/commands/command';

let clock = 1_700_000_000_000;
const tick = (): number => (clock += 1);

export function aCommand(overrides: Partial<Command> = {}): Command {
  const now = tick();
  return {
    id: newId(), token: newId(), createAt: now, updateAt: now, deleteAt: 0, creatorId: newId(), teamId: newId(), trigger: `t${newId().slice(0, 6)}`,
    method: 'P', username: '', iconUrl: '', autoComplete: false, autoCompleteDesc: '', autoCompleteHint: '', displayName: 'd', description: '',
    url: 'http://example.com/cmd',
    ...overrides,
  };
}

export function aCommandWebhook(overrides: Partial<CommandWebhook> = {}): CommandWebhook {
  return {
    idHash: createHash('sha256').update(newId()).digest('hex'), createAt: tick(), commandId: newId(), userId: newId(), channelId: newId(), rootId: '', useCount: 0,
    ...overrides,
  };
}
