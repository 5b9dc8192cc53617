import { PlusIcon, TrashIcon } from 'lucide-react';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  peopleCalls,
  CHANNEL_CATEGORIES,
  CHANNEL_LIMITS,
  ChannelSlugSchema,
  CreateChannelInputSchema,
  type InputOf,
  type ChannelDetail,
} from '@meetcast/contracts';
import { useEffect, useState } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Button } from '../../components/button';
import { SelectField, TextAreaField } from '../../components/form-controls';
import { TextField } from '../../components/text-field';
import { api, ApiError } from '../../lib/api';
import { useDebouncedValue } from '../../lib/use-debounced-value';

const FormSchema = CreateChannelInputSchema.pick({
  name: true,
  slug: true,
  description: true,
  category: true,
  visibility: true,
}).extend({
  links: z
    .array(z.object({ label: z.string(), url: z.string() }))
    .max(CHANNEL_LIMITS.links)
    .superRefine((links, context) => {
      links.forEach((link, index) => {
        const isEmpty = link.label.trim() === '' && link.url.trim() === '';
        if (isEmpty) return;
        const checked = CreateChannelInputSchema.shape.links.safeParse([link]);
        if (!checked.success) context.addIssue({ code: 'custom', path: [index], message: 'link' });
      });
    }),
});
type FormInput = z.input<typeof FormSchema>;
type FormOutput = z.output<typeof FormSchema>;

/** What the form submits: the channel's fields, the links as a list (sent as JSON, not text in a form field). */
export type ChannelFormValues = Required<Omit<InputOf<typeof peopleCalls.createChannel>, 'token' | 'lng' | 'links'>> & {
  links: FormOutput['links'];
};

function defaults(channel: ChannelDetail | undefined): FormInput {
  return {
    name: channel?.name ?? '',
    slug: channel?.slug ?? '',
    description: channel?.description ?? '',
    category: channel?.category ?? 'other',
    visibility: channel?.visibility ?? 'public',
    links: channel?.links.length ? channel.links : [{ label: '', url: '' }],
  };
}

/** Asks the server whether the address is free on every change, like the meeting slug check. */
function useSlugCheck(slug: string, current: string | undefined) {
  const debounced = useDebouncedValue(slug.trim().toLowerCase(), 300);
  const [result, setResult] = useState<{ slug: string; error?: string }>({ slug: '' });
  useEffect(() => {
    if (debounced === current || !ChannelSlugSchema.safeParse(debounced).success) return;
    const controller = new AbortController();
    api.call(peopleCalls.checkChannelSlug, { slug: debounced }, { signal: controller.signal }).then(
      () => setResult({ slug: debounced }),
      (error: unknown) => {
        if (!controller.signal.aborted && error instanceof ApiError)
          setResult({ slug: debounced, error: error.message });
      },
    );
    return () => controller.abort();
  }, [debounced, current]);
  const typed = slug.trim().toLowerCase();
  return typed !== current && result.slug === typed ? result.error : undefined;
}

export function ChannelForm({
  channel,
  submitLabel,
  isSaving,
  onSubmit,
}: {
  channel?: ChannelDetail | undefined;
  submitLabel: string;
  isSaving: boolean;
  onSubmit(values: ChannelFormValues): void;
}) {
  const { t } = useTranslation('channels');
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(FormSchema),
    defaultValues: defaults(channel),
  });
  const links = useFieldArray({ control: form.control, name: 'links' });
  const { errors } = form.formState;
  const slug = useWatch({ control: form.control, name: 'slug' });
  const slugError = useSlugCheck(slug, channel?.slug);

  useEffect(() => form.reset(defaults(channel)), [channel, form]);

  const submit = form.handleSubmit((values) => {
    if (slugError) return;
    onSubmit({
      name: values.name,
      slug: values.slug,
      description: values.description ?? '',
      category: values.category ?? 'other',
      visibility: values.visibility ?? 'public',
      links: values.links.filter((link) => link.label.trim() || link.url.trim()),
    });
  });

  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      <TextField label={t('fields.name')} error={errors.name && t('errors.name')} {...form.register('name')} />
      <TextField
        label={t('fields.slug')}
        hint={t('fields.slug_hint', { url: `${window.location.origin}/channel/${slug || '…'}` })}
        error={errors.slug ? t('errors.slug') : slugError}
        autoCapitalize="none"
        spellCheck={false}
        {...form.register('slug')}
      />
      <TextAreaField
        label={t('fields.description')}
        rows={4}
        error={errors.description && t('errors.description')}
        {...form.register('description')}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <SelectField
          label={t('fields.category')}
          options={CHANNEL_CATEGORIES.map((value) => ({ value, label: t(`categories.${value}`) }))}
          {...form.register('category')}
        />
        <fieldset className="space-y-1.5">
          <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">{t('fields.visibility')}</legend>
          {(['public', 'unlisted'] as const).map((value) => (
            <label key={value} className="flex items-start gap-2 text-sm text-slate-700 dark:text-slate-300">
              <input type="radio" value={value} className="mt-0.5" {...form.register('visibility')} />
              <span>
                <span className="font-medium">{t(`visibility.${value}`)}</span>
                <span className="block text-xs text-slate-600 dark:text-slate-400">
                  {t(`visibility.${value}_hint`)}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
      </div>
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">{t('fields.links')}</legend>
        {links.fields.map((field, index) => (
          <div key={field.id} className="flex flex-wrap items-start gap-2">
            <TextField
              className="w-40"
              label={t('fields.link_label', { number: index + 1 })}
              error={errors.links?.[index] ? t('errors.link') : undefined}
              {...form.register(`links.${index}.label`)}
            />
            <TextField
              className="min-w-56 flex-1"
              type="url"
              label={t('fields.link_url', { number: index + 1 })}
              placeholder="https://"
              {...form.register(`links.${index}.url`)}
            />
            <Button
              variant="ghost"
              className="mt-7"
              aria-label={t('actions.remove_link', { number: index + 1 })}
              onClick={() => links.remove(index)}
            >
              <TrashIcon className="size-4" />
            </Button>
          </div>
        ))}
        {links.fields.length < CHANNEL_LIMITS.links && (
          <Button variant="secondary" size="sm" onClick={() => links.append({ label: '', url: '' })}>
            <PlusIcon className="size-4" />
            {t('actions.add_link')}
          </Button>
        )}
      </fieldset>
      <div className="flex justify-end">
        <Button type="submit" size="lg" isLoading={isSaving} disabled={Boolean(slugError)}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
