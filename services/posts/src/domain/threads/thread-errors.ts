import { badRequest, notFound, type AppError } from '@switchyard/errors';

/** The reference's error ids of the collapsed-threads API (mattermost-wire-3.md §3.10). */
export const ThreadErrors = {
  membershipNotFound: (): AppError => notFound('app.user.get_thread_membership_for_user.not_found', 'Thread membership not found or not followed.', { detailedError: 'thread membership not found/followed' }),
  threadNotFound: (): AppError => notFound('app.user.get_threads_for_user.not_found', 'Thread not found or not followed.', { detailedError: 'thread not found/followed' }),
  beforeAndAfter: (): AppError => badRequest('api.getThreadsForUser.bad_params', 'Before and After parameters to getThreadsForUser are mutually exclusive'),
  totalsAndThreadsOnly: (): AppError => badRequest('api.getThreadsForUser.bad_only_params', 'ThreadsOnly and TotalsOnly parameters to getThreadsForUser are mutually exclusive'),
  postNotInThread: (): AppError => badRequest('app.user.update_thread_read_for_user_by_post.app_error', 'Unable to update thread read state: the post is not in the thread.'),
};
