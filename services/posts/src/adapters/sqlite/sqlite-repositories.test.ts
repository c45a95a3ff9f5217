import { after } from 'node:test';
import { freshRepositories } from '@switchyard/sqlite-kit';
import { channelMemberRepositoryContract, channelRepositoryContract, postRepositoryContract, reactionRepositoryContract, fileInfoRepositoryContract, threadMembershipRepositoryContract, emojiRepositoryContract } from '../contracts';
import { createSqliteRepositories } from './index';

// Each contract test gets its own store in a fresh temporary directory (no server needed).
const { fresh, disposeAll } = freshRepositories('posts-sqlite-', createSqliteRepositories);
after(disposeAll);

channelRepositoryContract('sqlite', fresh('channels'));
channelMemberRepositoryContract('sqlite', fresh('channelMembers'));
postRepositoryContract('sqlite', fresh('posts'));
reactionRepositoryContract('sqlite', fresh('reactions'));
fileInfoRepositoryContract('sqlite', fresh('files'));
threadMembershipRepositoryContract('sqlite', fresh('threads'));
emojiRepositoryContract('sqlite', fresh('emoji'));
