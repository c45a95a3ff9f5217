import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { keys } from '../../api/query-keys';
import type { User } from '../../api/types';

export const PEOPLE_PER_PAGE = 60;

/** The query of one page of people (GET /users?page=&per_page=), as options so it can be fetched outside a component too. */
export function peopleQuery(page: number) {
  return {
    queryKey: keys.peoplePage(page),
    queryFn: () => api.get<User[]>('/users', { query: { page, per_page: PEOPLE_PER_PAGE } }),
  };
}

/** Everyone the user may see, a page at a time (the previous page stays shown while the next loads). */
export function usePeople(page: number) {
  const query = useQuery({ ...peopleQuery(page), placeholderData: keepPreviousData });
  return { ...query, hasNextPage: (query.data?.length ?? 0) >= PEOPLE_PER_PAGE };
}
