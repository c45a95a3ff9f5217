import { postSearchContract } from '../contracts/post-search.contract';
import { memoryRepositories } from './index';

postSearchContract('memory', () => {
  const { posts, search } = memoryRepositories();
  return { posts, search };
});
