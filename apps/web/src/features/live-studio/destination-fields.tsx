import { STREAMING_LIMITS, YOUTUBE_PRIVACY, type StreamConnection } from '@meetcast/contracts';
import { useTranslation } from 'react-i18next';
import { SelectField, TextAreaField } from '../../components/form-controls';
import { TextField } from '../../components/text-field';
import {
  fieldsOf,
  type DestinationDraft,
  type DestinationProblem,
  type DestinationProblems,
  type YouTubePrivacy,
} from './destination-requests';
import { TwitchCategoryField } from './twitch-category-field';

const LIMITS: Record<DestinationProblem, number> = {
  title_required: STREAMING_LIMITS.title,
  title_too_long: STREAMING_LIMITS.title,
  description_too_long: STREAMING_LIMITS.description,
};

/** The fields one destination's platform takes (none for an RTMP address). */
export function DestinationFields({
  connection,
  draft,
  problems = {},
  onChange,
}: {
  connection: StreamConnection;
  draft: DestinationDraft;
  problems?: DestinationProblems;
  onChange(draft: DestinationDraft): void;
}) {
  const { t } = useTranslation('streaming');
  const fields = fieldsOf(connection.platform);
  const problemText = (problem: DestinationProblem | undefined) =>
    problem && t(`destination.problems.${problem}`, { max: LIMITS[problem] });
  if (!fields.title) {
    return <p className="text-xs text-slate-600 dark:text-slate-400">{t('destination.rtmp_as_is')}</p>;
  }
  return (
    <div className="space-y-3">
      <TextField
        label={t('destination.title')}
        value={draft.title}
        dir="auto"
        maxLength={STREAMING_LIMITS.title}
        error={problemText(problems.title)}
        onChange={(event) => onChange({ ...draft, title: event.target.value })}
      />
      {fields.description && (
        <TextAreaField
          label={t('destination.description')}
          value={draft.description}
          rows={3}
          dir="auto"
          maxLength={STREAMING_LIMITS.description}
          error={problemText(problems.description)}
          onChange={(event) => onChange({ ...draft, description: event.target.value })}
        />
      )}
      {fields.privacy && (
        <SelectField
          label={t('destination.privacy')}
          value={draft.privacy}
          options={YOUTUBE_PRIVACY.map((privacy) => ({ value: privacy, label: t(`destination.privacy_${privacy}`) }))}
          onChange={(event) => onChange({ ...draft, privacy: event.target.value as YouTubePrivacy })}
        />
      )}
      {fields.category && (
        <TwitchCategoryField
          connectionId={connection.id}
          value={draft.category}
          onChange={(category) => onChange({ ...draft, category })}
        />
      )}
    </div>
  );
}
