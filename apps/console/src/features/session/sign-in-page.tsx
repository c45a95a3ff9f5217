import { useState, type FormEvent } from 'react';
import { ErrorText } from '../../ui/feedback';
import { TextField } from '../../ui/field';
import { useSessionActions } from './use-session';

/** Username (or e-mail) and password; the session lives in an HTTP-only cookie set by the server. */
export function SignInPage() {
  const { signIn } = useSessionActions();
  const [loginId, setLoginId] = useState('');
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ loginId, password });
  };
  return (
    <main id="main" className="sign-in">
      <h1>Sign in to Switchyard</h1>
      <form onSubmit={submit} aria-describedby={signIn.error ? 'sign-in-error' : undefined}>
        <TextField label="Username or email" name="username" autoComplete="username" required value={loginId} onChange={(e) => setLoginId(e.target.value)} />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <ErrorText error={signIn.error} id="sign-in-error" />
        <button type="submit" className="primary" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
