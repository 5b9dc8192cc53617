import type { AdminExportTable } from '@meetcast/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header';
import { AdminTable, type AdminTableProps } from './admin-table';
import { ExportButton } from './parts';

type AdminTableSection = 'users' | 'meetings' | 'channels' | 'contacts';

interface AdminTablePageProps<Row> extends Omit<AdminTableProps<Row>, 'label' | 'searchLabel'> {
  /** Key of the page's texts in the admin namespace: `{section}.title`, `.description`, `.search`. */
  section: AdminTableSection;
  /** The table the Export button downloads, searched like the page. */
  exportTable: AdminExportTable;
  /** Dialogs the page opens from its rows. */
  children?: ReactNode;
}

/** An admin list page: heading with the Export button, then the server-driven table. */
export function AdminTablePage<Row>({ section, exportTable, children, ...table }: AdminTablePageProps<Row>) {
  const { t } = useTranslation('admin');
  return (
    <section>
      <PageHeader
        title={t(`${section}.title`)}
        description={t(`${section}.description`)}
        actions={<ExportButton table={exportTable} fields={{ search: table.controls.fields.search }} />}
      />
      <AdminTable label={t(`${section}.title`)} searchLabel={t(`${section}.search`)} {...table} />
      {children}
    </section>
  );
}
