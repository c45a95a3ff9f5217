import { useState, type FormEvent } from 'react';
import { ErrorText } from '../../ui/feedback';
import { TextField } from '../../ui/field';
import { BOT_USERNAME_RULE, botUsernameProblem } from './bot-username';
import { TokenReveal } from './token-reveal';
import { useBotActions } from './use-bot-actions';

/** Bot creation with the username rule checked as one types; on success the first token is shown once. */
export function CreateBotForm() {
  const { create } = useBotActions();
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [description, setDescription] = useState('');
  const [touched, setTouched] = useState(false);
  const problem = touched ? botUsernameProblem(username) : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (botUsernameProblem(username)) return;
    create.mutate({ username, display_name: displayName, description });
  };
  if (create.data) {
    return (
      <TokenReveal
        token={create.data.token.token ?? ''}
        owner={create.data.bot.username}
        onDone={() => {
          create.reset();
          setUsername('');
          setDisplayName('');
          setDescription('');
          setTouched(false);
        }}
      />
    );
  }
  return (
    <form onSubmit={submit} aria-labelledby="create-bot-title" noValidate>
      <h2 id="create-bot-title">Create a bot</h2>
      <TextField
        label="Username"
        name="username"
        required
        autoComplete="off"
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        onBlur={() => setTouched(username !== '')}
        hint={BOT_USERNAME_RULE}
        problem={problem}
      />
      <TextField label="Display name" name="display_name" maxLength={64} value={displayName} onChange={(e) => setDisplayName(e.target.value)} />
      <TextField label="Description" name="description" maxLength={1024} value={description} onChange={(e) => setDescription(e.target.value)} />
      <ErrorText error={create.error} />
      <button type="submit" className="primary" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create bot'}
      </button>
    </form>
  );
}
