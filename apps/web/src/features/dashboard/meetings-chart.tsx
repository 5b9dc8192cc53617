import { useTranslation } from 'react-i18next';
import { formatDay } from '../../lib/zoned-time';

const WIDTH = 320;
const HEIGHT = 140;
const PADDING = 20;

/** A small SVG bar chart of meetings per week; each bar has a text alternative. */
export function MeetingsChart({ weeks, zone }: { weeks: { week_start: number; count: number }[]; zone: string }) {
  const { t, i18n } = useTranslation('meetings');
  const highest = Math.max(1, ...weeks.map((week) => week.count));
  const slot = (WIDTH - PADDING) / Math.max(1, weeks.length);
  const barWidth = slot * 0.6;
  return (
    <figure>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT + 24}`}
        role="img"
        aria-labelledby="meetings-chart-title"
        className="h-auto w-full text-primary-600 dark:text-primary-400"
      >
        <title id="meetings-chart-title">{t('dashboard.chart_title')}</title>
        <line x1={PADDING / 2} x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="stroke-slate-300 dark:stroke-slate-700" />
        {weeks.map((week, index) => {
          const height = (week.count / highest) * (HEIGHT - PADDING);
          const x = PADDING / 2 + index * slot + (slot - barWidth) / 2;
          const label = t('dashboard.chart_bar', {
            week: formatDay(week.week_start, zone, i18n.language),
            count: week.count,
          });
          return (
            <g key={week.week_start}>
              <rect x={x} y={HEIGHT - height} width={barWidth} height={Math.max(height, 1)} rx={3} fill="currentColor">
                <title>{label}</title>
              </rect>
              {week.count > 0 && (
                <text
                  x={x + barWidth / 2}
                  y={HEIGHT - height - 4}
                  textAnchor="middle"
                  className="fill-slate-700 text-[10px] dark:fill-slate-300"
                >
                  {week.count}
                </text>
              )}
              {/* Every other week is labelled, the latest included: dates like 10月12日 need the room. */}
              {(weeks.length - 1 - index) % 2 === 0 && (
                <text
                  x={x + barWidth / 2}
                  y={HEIGHT + 14}
                  textAnchor="middle"
                  className="fill-slate-500 text-[9px] dark:fill-slate-400"
                  data-axis-label
                >
                  {formatDay(week.week_start, zone, i18n.language)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="sr-only">
        {weeks
          .map((week) =>
            t('dashboard.chart_bar', { week: formatDay(week.week_start, zone, i18n.language), count: week.count }),
          )
          .join('; ')}
      </figcaption>
    </figure>
  );
}
