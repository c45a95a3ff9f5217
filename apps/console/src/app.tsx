import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { onUnauthorized } from './api/client';
import { LiveEvents } from './features/channel/live-events';
import { AppShell } from './features/layout/app-shell';
import { SignInPage } from './features/session/sign-in-page';
import { useMe } from './features/session/use-session';
import { ErrorText, Loading } from './ui/feedback';
import { matchPath, useRouter } from './ui/router';
import { pages } from './pages';
import { keys } from './api/query-keys';

/** Signed out: the sign-in page. Signed in: the shell around the page the path names. */
export function App() {
  const me = useMe();
  const client = useQueryClient();
  useEffect(() => onUnauthorized(() => client.setQueryData(keys.me, null)), [client]);
  if (me.isPending) return <Loading label="Loading Switchyard…" />;
  if (me.error) return <ErrorText error={me.error} />;
  if (!me.data) return <SignInPage />;
  return (
    <LiveEvents>
      <AppShell me={me.data}>
        <Suspense fallback={<Loading label="Loading page…" />}>
          <CurrentPage />
        </Suspense>
      </AppShell>
    </LiveEvents>
  );
}

function CurrentPage() {
  const { path } = useRouter();
  for (const page of pages) {
    const params = matchPath(page.path, path);
    if (params) return page.render(params);
  }
  return <NotFound />;
}

function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>There is no page at this address. Use the navigation above.</p>
    </>
  );
}
