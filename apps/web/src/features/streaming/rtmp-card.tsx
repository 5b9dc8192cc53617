import { zodResolver } from '@hookform/resolvers/zod';
import { AddRtmpDestinationInputSchema, STREAMING_LIMITS, type StreamConnection } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { z } from 'zod';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { ConnectionRow } from './connection-row';
import { StreamCard } from './platform-card';
import { streamingApi, useRefreshStreamConnections } from './streaming-api';

/** The server's own rules for the three fields, so the form refuses what the server would. */
const RtmpFormSchema = AddRtmpDestinationInputSchema.pick({ name: true, url: true, stream_key: true });
type RtmpFormInput = z.input<typeof RtmpFormSchema>;
type RtmpFormOutput = z.output<typeof RtmpFormSchema>;

/** Addresses as placeholders, so right-to-left text keeps them whole and in order. */
const RTMP_SCHEMES = { rtmp: 'rtmp://', rtmps: 'rtmps://' };

const EMPTY: RtmpFormInput = { name: '', url: '', stream_key: '' };

/** Any RTMP(S) service: the saved addresses (their keys never come back), and a form to add one. */
export function RtmpCard({ connections }: { connections: StreamConnection[] }) {
  const { t } = useTranslation('streaming');
  const refresh = useRefreshStreamConnections();
  const form = useForm<RtmpFormInput, unknown, RtmpFormOutput>({
    resolver: zodResolver(RtmpFormSchema),
    defaultValues: EMPTY,
  });
  const { errors } = form.formState;
  const add = useMutation({
    mutationKey: ['rtmp-destination-form'],
    mutationFn: (values: RtmpFormOutput) => streamingApi.addRtmp(values),
    onSuccess: (body) => {
      toast.success(t('rtmp.added', { name: body.data.data.name }));
      form.reset(EMPTY);
      void refresh();
    },
  });

  return (
    <StreamCard platform="rtmp" about={t('rtmp.about')}>
      <div className="grid gap-6 lg:grid-cols-2">
        <div>
          <h3 className="text-sm font-semibold text-slate-900 dark:text-white">{t('rtmp.saved')}</h3>
          {connections.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{t('rtmp.none')}</p>
          ) : (
            <ul
              aria-label={t('rtmp.saved')}
              className="mt-2 divide-y divide-slate-200 border-y border-slate-200 dark:divide-slate-800 dark:border-slate-800"
            >
              {connections.map((connection) => (
                <ConnectionRow key={connection.id} connection={connection} />
              ))}
            </ul>
          )}
        </div>
        <form
          noValidate
          aria-label={t('rtmp.form_title')}
          onSubmit={form.handleSubmit((values) => add.mutate(values))}
          className="space-y-4 lg:border-s lg:border-slate-200 lg:ps-6 dark:lg:border-slate-800"
        >
          <h3 className="text-sm font-semibold text-slate-900 dark:text-white">{t('rtmp.form_title')}</h3>
          <TextField
            label={t('rtmp.name')}
            hint={t('rtmp.name_hint')}
            autoComplete="off"
            maxLength={STREAMING_LIMITS.connectionName}
            error={errors.name && t('rtmp.errors.name', { max: STREAMING_LIMITS.connectionName })}
            {...form.register('name')}
          />
          <TextField
            label={t('rtmp.url')}
            hint={t('rtmp.url_hint', RTMP_SCHEMES)}
            type="url"
            dir="ltr"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="rtmps://live.example.com/app"
            maxLength={STREAMING_LIMITS.rtmpUrl}
            error={errors.url && t('rtmp.errors.url', RTMP_SCHEMES)}
            {...form.register('url')}
          />
          <TextField
            label={t('rtmp.stream_key')}
            hint={t('rtmp.stream_key_hint')}
            type="password"
            autoComplete="off"
            spellCheck={false}
            maxLength={STREAMING_LIMITS.streamKey}
            revealLabels={{ show: t('rtmp.show_key'), hide: t('rtmp.hide_key') }}
            error={errors.stream_key && t('rtmp.errors.stream_key', { max: STREAMING_LIMITS.streamKey })}
            {...form.register('stream_key')}
          />
          <div className="flex justify-end">
            <Button type="submit" isLoading={add.isPending}>
              {t('rtmp.add')}
            </Button>
          </div>
        </form>
      </div>
    </StreamCard>
  );
}
