import { peopleCalls, type ImportReport } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { cn } from '../../lib/cn';
import { api } from '../../lib/api';
import { useSchemaForm } from '../../lib/use-schema-form';
import { useRefreshContacts } from './use-contacts';

const STATUS_STYLES: Record<ImportReport['rows'][number]['status'], string> = {
  added: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  merged: 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300',
  skipped: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-300',
};

/**
 * The server reads the file's content and reports each row; the browser only needs a file chosen
 * (the contract's file part is the upload's bytes, which the browser sends from this `File`).
 */
const ImportFormSchema = z.object({ file: z.instanceof(File) });

/** Import a CSV or vCard file; the answer's per-row report stays on screen. */
export function ImportDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useTranslation('contacts');
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('import.title')}
      description={t('import.description')}
      className="max-w-2xl"
    >
      <ImportBody onClose={() => onOpenChange(false)} />
    </Dialog>
  );
}

/** Lives only while the dialog is open, so each opening starts afresh. */
function ImportBody({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('contacts');
  const inputId = useId();
  const refresh = useRefreshContacts();
  const form = useSchemaForm(ImportFormSchema);
  const file = form.watch('file');
  const [report, setReport] = useState<ImportReport | null>(null);
  const [isShowingAll, setIsShowingAll] = useState(false);

  const upload = useMutation({
    mutationFn: (chosen: File) => api.call(peopleCalls.importContacts, { file: chosen }),
    onSuccess: (body) => {
      setReport(body.data);
      void refresh();
    },
  });

  const rows = report ? report.rows.filter((row) => isShowingAll || row.status !== 'added') : [];

  return (
    <>
      {!report ? (
        <form
          noValidate
          onSubmit={form.handleSubmit(({ file: chosen }) => upload.mutate(chosen))}
          className="space-y-4"
        >
          <div className="space-y-1.5">
            <label htmlFor={inputId} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
              {t('import.file')}
            </label>
            <input
              id={inputId}
              type="file"
              accept=".csv,.vcf,.vcard,text/csv,text/vcard,text/x-vcard"
              onChange={(event) => {
                const chosen = event.target.files?.[0];
                if (chosen) form.setValue('file', chosen);
                else form.resetField('file');
              }}
              className="block w-full text-sm text-slate-700 file:me-3 file:rounded-lg file:border-0 file:bg-primary-50 file:px-3 file:py-2 file:font-semibold file:text-primary-800 hover:file:bg-primary-100 dark:text-slate-300 dark:file:bg-primary-950 dark:file:text-primary-200"
            />
            <p className="text-xs text-slate-600 dark:text-slate-400">{t('import.hint')}</p>
          </div>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" disabled={!file} isLoading={upload.isPending}>
              {t('import.submit')}
            </Button>
          </div>
        </form>
      ) : (
        <div className="space-y-4">
          <p role="status" className="text-sm font-medium text-slate-800 dark:text-slate-200">
            {t('import.summary', { added: report.added, merged: report.merged, skipped: report.skipped })}
          </p>
          <label className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
            <input
              type="checkbox"
              checked={isShowingAll}
              onChange={(event) => setIsShowingAll(event.target.checked)}
              className="size-4 rounded border-slate-300 text-primary-600 focus:ring-primary-500"
            />
            {t('import.show_added')}
          </label>
          {rows.length > 0 ? (
            <div className="max-h-80 overflow-auto rounded-lg border border-slate-200 dark:border-slate-700">
              <table className="w-full text-start text-sm">
                <caption className="sr-only">{t('import.report')}</caption>
                <thead className="sticky top-0 bg-slate-50 text-xs uppercase text-slate-600 dark:bg-slate-800 dark:text-slate-300">
                  <tr>
                    <th scope="col" className="px-3 py-2 text-start">
                      {t('import.line')}
                    </th>
                    <th scope="col" className="px-3 py-2 text-start">
                      {t('import.status')}
                    </th>
                    <th scope="col" className="px-3 py-2 text-start">
                      {t('import.contact')}
                    </th>
                    <th scope="col" className="px-3 py-2 text-start">
                      {t('import.reason')}
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
                  {rows.map((row) => (
                    <tr key={`${row.row}-${row.status}`} data-status={row.status}>
                      <td className="px-3 py-2 tabular-nums text-slate-600 dark:text-slate-400">{row.row}</td>
                      <td className="px-3 py-2">
                        <span
                          className={cn('rounded-full px-2 py-0.5 text-xs font-semibold', STATUS_STYLES[row.status])}
                        >
                          {t(`import.statuses.${row.status}`)}
                        </span>
                      </td>
                      <td className="px-3 py-2 text-slate-900 dark:text-slate-100">
                        {[row.name, row.email].filter(Boolean).join(' · ') || '—'}
                      </td>
                      <td className="px-3 py-2 text-slate-700 dark:text-slate-300">{row.reason ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="text-sm text-slate-600 dark:text-slate-400">{t('import.all_added')}</p>
          )}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setReport(null)}>
              {t('import.another')}
            </Button>
            <Button onClick={onClose}>{t('actions.done')}</Button>
          </div>
        </div>
      )}
    </>
  );
}
