import { CalendarIcon, CalendarPlusIcon, RadioIcon, UsersIcon, VideoIcon } from 'lucide-react';
import type { ComponentType, ReactNode, SVGProps } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { useMeetingDialogs } from '../meetings';
import { useCurrentUser } from '../session';
import { DashboardOverview } from './dashboard-overview';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

const CARD_CLASSES =
  'group flex h-full w-full items-start gap-4 rounded-2xl border border-slate-200 bg-white p-5 text-start shadow-sm transition hover:-translate-y-0.5 hover:border-primary-300 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-500 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-primary-500/60';

function CardBody({ icon: Icon, title, text, accent }: { icon: Icon; title: string; text: string; accent: string }) {
  return (
    <>
      <span className={`flex size-11 shrink-0 items-center justify-center rounded-xl ${accent}`}>
        <Icon className="size-5" />
      </span>
      <span>
        <span className="block font-semibold text-slate-900 dark:text-white">{title}</span>
        <span className="mt-1 block text-sm text-slate-600 dark:text-slate-400">{text}</span>
      </span>
    </>
  );
}

function Tile({ children }: { children: ReactNode }) {
  return <li>{children}</li>;
}

/** The home page: the actions a signed-in user starts from. */
export default function DashboardPage() {
  const { t } = useTranslation('shell');
  const user = useCurrentUser();
  const dialogs = useMeetingDialogs();
  return (
    <section>
      <PageHeader
        title={t('dashboard.greeting', { name: user?.username || t('user.default_name') })}
        description={t('dashboard.subtitle')}
      />
      <h2 className="sr-only">{t('dashboard.actions')}</h2>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <Tile>
          <button type="button" className={CARD_CLASSES} onClick={() => dialogs.open('instant')}>
            <CardBody
              icon={VideoIcon}
              title={t('nav.instant_meeting')}
              text={t('dashboard.instant_text')}
              accent="bg-primary-600 text-white dark:bg-primary-500 dark:text-slate-950"
            />
          </button>
        </Tile>
        <Tile>
          <button type="button" className={CARD_CLASSES} onClick={() => dialogs.open('schedule')}>
            <CardBody
              icon={CalendarPlusIcon}
              title={t('nav.schedule_meeting')}
              text={t('dashboard.schedule_text')}
              accent="bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300"
            />
          </button>
        </Tile>
        <Tile>
          <Link to="/calendar" className={CARD_CLASSES}>
            <CardBody
              icon={CalendarIcon}
              title={t('nav.calendar')}
              text={t('dashboard.calendar_text')}
              accent="bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300"
            />
          </Link>
        </Tile>
        <Tile>
          <Link to="/contacts" className={CARD_CLASSES}>
            <CardBody
              icon={UsersIcon}
              title={t('nav.contacts')}
              text={t('dashboard.contacts_text')}
              accent="bg-sky-100 text-sky-800 dark:bg-sky-500/15 dark:text-sky-300"
            />
          </Link>
        </Tile>
        <Tile>
          <Link to="/connect-stream" className={CARD_CLASSES}>
            <CardBody
              icon={RadioIcon}
              title={t('nav.streaming')}
              text={t('dashboard.streaming_text')}
              accent="bg-rose-100 text-rose-800 dark:bg-rose-500/15 dark:text-rose-300"
            />
          </Link>
        </Tile>
      </ul>
      <DashboardOverview />
    </section>
  );
}
