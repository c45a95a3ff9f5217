import { after } from 'node:test';
import { openTestStore, type TestStore } from '@switchyard/sqlite-kit';
import type { Repositories } from '../../domain/ports';
import { commandRepositoryContract } from '../contracts/command-repository.contract';
import { commandWebhookRepositoryContract } from '../contracts/command-webhook-repository.contract';
import { deliveryRepositoryContract } from '../contracts/delivery-repository.contract';
import { openDialogRepositoryContract } from '../contracts/open-dialog-repository.contract';
import { outgoingHookRepositoryContract } from '../contracts/outgoing-hook-repository.contract';
import { createSqliteRepositories } from './index';

// Each contract test gets its own store in a fresh temporary directory (no server needed).
const stores: TestStore[] = [];
after(async () => {
  for (const store of stores) await store.dispose();
});

const fresh =
  <K extends keyof Repositories>(key: K) =>
  async (): Promise<Repositories[K]> => {
    const store = openTestStore('outgoing-dispatch-sqlite-');
    stores.push(store);
    return createSqliteRepositories(store)[key];
  };

outgoingHookRepositoryContract('sqlite', fresh('hooks'));
deliveryRepositoryContract('sqlite', fresh('deliveries'));
commandRepositoryContract('sqlite', fresh('commands'));
commandWebhookRepositoryContract('sqlite', fresh('commandWebhooks'));
openDialogRepositoryContract('sqlite', fresh('dialogs'));
