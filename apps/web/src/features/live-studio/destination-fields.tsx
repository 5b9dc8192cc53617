import { STREAMING_LIMITS, YOUTUBE_PRIVACY, type StreamConnection } from '@meetcast/contracts';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SelectField, TextAreaField } from '../../components/form-controls';
import { TextField } from '../../components/text-field';
import { fieldsOf, problemOf, type DestinationProblem, type GoLivePlanForm } from './destination-requests';
import { TwitchCategoryField } from './twitch-category-field';

const LIMITS: Record<DestinationProblem, number> = {
  title_required: STREAMING_LIMITS.title,
  title_too_long: STREAMING_LIMITS.title,
  description_too_long: STREAMING_LIMITS.description,
};

/** The fields the destination at `index` of the form takes for its platform (none for an RTMP address). */
export function DestinationFields({
  connection,
  form,
  index,
}: {
  connection: StreamConnection;
  form: GoLivePlanForm;
  index: number;
}) {
  const { t } = useTranslation('streaming');
  const fields = fieldsOf(connection.platform);
  const errors = form.formState.errors.destinations?.[index];
  const problemText = (problem: DestinationProblem | undefined) =>
    problem && t(`destination.problems.${problem}`, { max: LIMITS[problem] });
  if (!fields.title) {
    return <p className="text-xs text-slate-600 dark:text-slate-400">{t('destination.rtmp_as_is')}</p>;
  }
  return (
    <div className="space-y-3">
      <TextField
        label={t('destination.title')}
        dir="auto"
        maxLength={STREAMING_LIMITS.title}
        error={problemText(problemOf('title', errors?.title))}
        {...form.register(`destinations.${index}.title`)}
      />
      {fields.description && (
        <TextAreaField
          label={t('destination.description')}
          rows={3}
          dir="auto"
          maxLength={STREAMING_LIMITS.description}
          error={problemText(problemOf('description', errors?.description))}
          {...form.register(`destinations.${index}.description`)}
        />
      )}
      {fields.privacy && (
        <SelectField
          label={t('destination.privacy')}
          options={YOUTUBE_PRIVACY.map((privacy) => ({ value: privacy, label: t(`destination.privacy_${privacy}`) }))}
          {...form.register(`destinations.${index}.privacy`)}
        />
      )}
      {fields.category && (
        <Controller
          control={form.control}
          name={`destinations.${index}.category`}
          render={({ field }) => (
            <TwitchCategoryField connectionId={connection.id} value={field.value} onChange={field.onChange} />
          )}
        />
      )}
    </div>
  );
}
