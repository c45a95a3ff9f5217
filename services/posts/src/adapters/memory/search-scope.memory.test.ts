import { searchScopeContract } from '../contracts/search-scope.contract';
import { repositorySearchScope } from '../../domain/search/search-scope.port';
import { memoryRepositories } from './index';

searchScopeContract('memory repositories', () => {
  const { channels, channelMembers } = memoryRepositories();
  return { channels, channelMembers, scope: repositorySearchScope(channels, channelMembers) };
});
