import { ErrorText, Loading } from '../../ui/feedback';
import { usePermissions } from '../session/use-permissions';
import { SETTINGS } from './settings';
import { SettingControl } from './setting-control';
import { useConfig } from './use-config';

/** The integration switches of the system config, each applied live. Admins only. */
export function SystemConsolePage() {
  const { isAdmin } = usePermissions();
  const config = useConfig(isAdmin);
  if (!isAdmin) return <p className="notice">Only system administrators can change these settings.</p>;
  return (
    <>
      <h1>System console</h1>
      <p className="lead">Changes apply at once, on every service, without a restart.</p>
      {config.isPending ? <Loading label="Loading settings…" /> : null}
      <ErrorText error={config.error} />
      {config.data ? (
        <>
          <section aria-labelledby="integrations-settings">
            <h2 id="integrations-settings">Integrations</h2>
            {SETTINGS.filter((s) => s.section === 'ServiceSettings').map((s) => (
              <SettingControl key={s.key} setting={s} config={config.data} />
            ))}
          </section>
          <section aria-labelledby="rate-settings">
            <h2 id="rate-settings">Rate limiting</h2>
            {SETTINGS.filter((s) => s.section === 'RateLimitSettings').map((s) => (
              <SettingControl key={s.key} setting={s} config={config.data} />
            ))}
          </section>
        </>
      ) : null}
    </>
  );
}
