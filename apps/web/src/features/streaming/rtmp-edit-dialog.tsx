import { zodResolver } from '@hookform/resolvers/zod';
import { EditRtmpDestinationInputSchema, STREAMING_LIMITS, type StreamConnection } from '@meetcast/contracts';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { z } from 'zod';
import { Button } from '../../components/button';
import { Dialog, DialogClose } from '../../components/dialog';
import { TextField } from '../../components/text-field';
import { streamingApi, useRefreshStreamConnections } from './streaming-api';

/** The server's own rules, so the form refuses what the server would; the key may stay empty. */
const EditFormSchema = EditRtmpDestinationInputSchema.pick({ name: true, url: true, stream_key: true });
type EditFormInput = z.input<typeof EditFormSchema>;
type EditFormOutput = z.output<typeof EditFormSchema>;

const RTMP_SCHEMES = { rtmp: 'rtmp://', rtmps: 'rtmps://' };

/**
 * Changes a saved RTMP address. Its address comes back to the page, its key never does: the key
 * field starts empty and, left empty, keeps the saved key.
 */
export function RtmpEditDialog({
  connection,
  open,
  onOpenChange,
}: {
  connection: StreamConnection;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const { t } = useTranslation('streaming');
  const refresh = useRefreshStreamConnections();
  const form = useForm<EditFormInput, unknown, EditFormOutput>({
    resolver: zodResolver(EditFormSchema),
    values: { name: connection.name, url: connection.rtmp_url ?? '', stream_key: '' },
  });
  const { errors, isDirty } = form.formState;
  const save = useMutation({
    mutationFn: (values: EditFormOutput) => streamingApi.editRtmp({ id: connection.id, ...values }),
    onSuccess: (body) => {
      toast.success(body.message);
      onOpenChange(false);
      void refresh();
    },
  });
  const formId = `rtmp-edit-${connection.id}`;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      isDirty={isDirty}
      title={t('rtmp.edit_title', { name: connection.name })}
      footer={
        <>
          <DialogClose>{t('actions.cancel')}</DialogClose>
          <Button type="submit" form={formId} isLoading={save.isPending}>
            {t('rtmp.save_changes')}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        noValidate
        aria-label={t('rtmp.edit_title', { name: connection.name })}
        onSubmit={form.handleSubmit((values) => save.mutate(values))}
        className="space-y-4"
      >
        <TextField
          label={t('rtmp.name')}
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
          maxLength={STREAMING_LIMITS.rtmpUrl}
          error={errors.url && t('rtmp.errors.url', RTMP_SCHEMES)}
          {...form.register('url')}
        />
        <TextField
          label={t('rtmp.stream_key')}
          hint={t('rtmp.stream_key_keep')}
          type="password"
          autoComplete="off"
          spellCheck={false}
          maxLength={STREAMING_LIMITS.streamKey}
          revealLabels={{ show: t('rtmp.show_key'), hide: t('rtmp.hide_key') }}
          error={errors.stream_key && t('rtmp.errors.stream_key', { max: STREAMING_LIMITS.streamKey })}
          {...form.register('stream_key')}
        />
      </form>
    </Dialog>
  );
}
