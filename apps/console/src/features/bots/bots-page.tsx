import { Permissions } from '@switchyard/permissions';
import { Link } from '../../ui/router';
import { EmptyState, ErrorText, Loading } from '../../ui/feedback';
import { usePermissions } from '../session/use-permissions';
import { useConfig } from '../system-console/use-config';
import { BotRow } from './bot-row';
import { ConvertUserForm } from './convert-user-form';
import { CreateBotForm } from './create-bot-form';
import { useBots } from './use-bots';

/** Bot accounts: create (when allowed and switched on), list with the BOT label, disable/enable, new tokens. */
export function BotsPage() {
  const { can, isAdmin } = usePermissions();
  const canRead = can(Permissions.readBots) || can(Permissions.readOthersBots);
  const bots = useBots(canRead);
  const config = useConfig(isAdmin);
  const creationOn = config.data ? config.data.ServiceSettings.EnableBotAccountCreation === true : true;
  const canCreate = can(Permissions.createBot);
  const canManage = can(Permissions.manageBots) || can(Permissions.manageOthersBots);
  return (
    <>
      <h1>Bot accounts</h1>
      <p className="lead">A bot is an account for an integration: it works only through the API, with a token, and always carries the BOT label.</p>
      {canCreate && creationOn ? <CreateBotForm /> : null}
      {canCreate && !creationOn ? (
        <p className="notice">
          Bot account creation is switched off. {isAdmin ? <Link to="/admin">Turn it on in the System console.</Link> : 'Ask a system administrator to turn it on.'}
        </p>
      ) : null}
      <section aria-labelledby="bot-list-title">
        <h2 id="bot-list-title">Bots</h2>
        {!canRead ? <p className="notice">You do not have permission to see bot accounts.</p> : null}
        {bots.isPending && canRead ? <Loading label="Loading bots…" /> : null}
        <ErrorText error={bots.error} />
        {bots.data && bots.data.length === 0 ? (
          <EmptyState title="No bots yet.">{canCreate ? 'Create one above; its token is shown once, right after creation.' : 'A system administrator can create one.'}</EmptyState>
        ) : null}
        {bots.data && bots.data.length > 0 ? (
          <ul className="rows" aria-label="Bots">
            {bots.data.map((bot) => (
              <BotRow key={bot.user_id} bot={bot} canManage={canManage} />
            ))}
          </ul>
        ) : null}
      </section>
      {isAdmin ? <ConvertUserForm /> : null}
    </>
  );
}
