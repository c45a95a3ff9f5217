import { after } from 'node:test';
import { freshRepositories } from '@switchyard/sqlite-kit';
import {
  accessTokenRepositoryContract,
  botRepositoryContract,
  configRepositoryContract,
  imageStoreContract,
  preferenceRepositoryContract,
  sessionRepositoryContract,
  teamMemberRepositoryContract,
  teamRepositoryContract,
  userRepositoryContract,
} from '../contracts';
import { createSqliteRepositories } from './index';

// Each contract test gets its own store in a fresh temporary directory (no server needed).
const { fresh, disposeAll } = freshRepositories('users-bots-sqlite-', createSqliteRepositories);
after(disposeAll);

userRepositoryContract('sqlite', fresh('users'));
sessionRepositoryContract('sqlite', fresh('sessions'));
accessTokenRepositoryContract('sqlite', fresh('tokens'));
botRepositoryContract('sqlite', fresh('bots'));
teamRepositoryContract('sqlite', fresh('teams'));
teamMemberRepositoryContract('sqlite', fresh('members'));
configRepositoryContract('sqlite', fresh('configStore'));
imageStoreContract('sqlite', fresh('images'));
preferenceRepositoryContract('sqlite', fresh('preferences'));
