import { useState, type FormEvent } from 'react';
import { ErrorText } from '../../ui/feedback';
import { TextField } from '../../ui/field';
import { useBotActions } from './use-bot-actions';

/** Admins only: turn an existing account into a bot (its password sign-in is removed). */
export function ConvertUserForm() {
  const { convertUser } = useBotActions();
  const [username, setUsername] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (username.trim() !== '') convertUser.mutate(username.trim());
  };
  return (
    <form onSubmit={submit} aria-labelledby="convert-title">
      <h2 id="convert-title">Convert a user to a bot</h2>
      <TextField
        label="Username of the user to convert"
        name="convert_username"
        required
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        hint="The account keeps its posts and memberships; a user who signed in with a password can no longer sign in."
      />
      <ErrorText error={convertUser.error} />
      {convertUser.data ? (
        <p role="status">
          @{convertUser.data.username} is now a bot.
        </p>
      ) : null}
      <button type="submit" disabled={convertUser.isPending}>
        {convertUser.isPending ? 'Converting…' : 'Convert to bot'}
      </button>
    </form>
  );
}
