import { after } from 'node:test';
import { freshRepositories } from '@switchyard/sqlite-kit';
import { commandRepositoryContract } from '../contracts/command-repository.contract';
import { commandWebhookRepositoryContract } from '../contracts/command-webhook-repository.contract';
import { deliveryRepositoryContract } from '../contracts/delivery-repository.contract';
import { openDialogRepositoryContract } from '../contracts/open-dialog-repository.contract';
import { outgoingHookRepositoryContract } from '../contracts/outgoing-hook-repository.contract';
import { createSqliteRepositories } from './index';

// Each contract test gets its own store in a fresh temporary directory (no server needed).
const { fresh, disposeAll } = freshRepositories('outgoing-dispatch-sqlite-', createSqliteRepositories);
after(disposeAll);

outgoingHookRepositoryContract('sqlite', fresh('hooks'));
deliveryRepositoryContract('sqlite', fresh('deliveries'));
commandRepositoryContract('sqlite', fresh('commands'));
commandWebhookRepositoryContract('sqlite', fresh('commandWebhooks'));
openDialogRepositoryContract('sqlite', fresh('dialogs'));
