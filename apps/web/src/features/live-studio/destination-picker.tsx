import type { StreamConnection } from '@meetcast/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConnectionStatus, PlatformMark } from '../streaming';
import { DestinationFields } from './destination-fields';
import type { GoLivePlanForm } from './destination-requests';

const LINK = 'font-semibold text-primary-700 underline hover:no-underline dark:text-primary-300';

/**
 * Links to the Streaming page open a new tab: leaving the room's page would leave the meeting.
 *
 * The connections to stream to, each a checkbox; a chosen one opens its fields. Connections that no
 * longer work are shown, unchecked and disabled, with the way to mend them.
 */
export function DestinationPicker({
  connections,
  chosen,
  form,
  onToggle,
}: {
  connections: StreamConnection[];
  /** The chosen connections' ids, in the order of the form's destinations. */
  chosen: number[];
  form: GoLivePlanForm;
  onToggle(connection: StreamConnection, isChosen: boolean): void;
}) {
  const { t } = useTranslation('streaming');
  if (connections.length === 0) {
    return (
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {t('go_live.no_connections')}{' '}
        <Link to="/connect-stream" target="_blank" rel="noopener" className={LINK}>
          {t('go_live.set_up')}
        </Link>
      </p>
    );
  }
  return (
    <ul className="space-y-3">
      {connections.map((connection) => {
        const isUsable = connection.status === 'connected';
        const index = chosen.indexOf(connection.id);
        const isChosen = isUsable && index >= 0;
        return (
          <li
            key={connection.id}
            className="rounded-xl border border-slate-200 p-3 has-[:checked]:border-primary-400 dark:border-slate-700 dark:has-[:checked]:border-primary-500"
          >
            <label className="flex items-center gap-3">
              <input
                type="checkbox"
                checked={isChosen}
                disabled={!isUsable}
                onChange={(event) => onToggle(connection, event.target.checked)}
                className="size-4 shrink-0 accent-primary-600"
              />
              <PlatformMark platform={connection.platform} size="sm" />
              <span className="min-w-0 flex-1">
                {/* Aligned to the page's start whatever the name's own direction. */}
                <span dir="auto" className="block truncate text-sm font-medium ltr:text-left rtl:text-right">
                  {connection.name}
                </span>
                <span className="block text-xs text-slate-600 dark:text-slate-400">
                  {t(`platforms.${connection.platform}`)}
                </span>
              </span>
              {!isUsable && <ConnectionStatus status={connection.status} />}
            </label>
            {!isUsable && (
              <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
                <Link to="/connect-stream" target="_blank" rel="noopener" className={LINK}>
                  {t('go_live.reconnect_there')}
                </Link>
              </p>
            )}
            {isChosen && (
              <div className="mt-3 border-t border-slate-200 pt-3 dark:border-slate-700">
                <DestinationFields connection={connection} form={form} index={index} />
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
