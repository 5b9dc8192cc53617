import type { ComponentType, SVGProps } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from './empty-state';
import { PageHeader } from './page-header';

/**
 * The honest page of a screen whose feature has not landed yet: its heading and an empty state that
 * says what will appear here. The feature replaces its page file with the real screen.
 */
export function FeaturePendingPage({
  page,
  icon,
}: {
  /** Key under `shell:pages`, with `title` and `empty` inside. */
  page: string;
  icon?: ComponentType<SVGProps<SVGSVGElement>>;
}) {
  const { t } = useTranslation('shell');
  return (
    <section>
      <PageHeader title={t(`pages.${page}.title`)} />
      <EmptyState title={t('pages.empty_title')} text={t(`pages.${page}.empty`)} icon={icon} />
    </section>
  );
}
