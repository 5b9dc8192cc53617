import type { WeekCount } from '@meetcast/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from './format';

const WIDTH = 360;
const HEIGHT = 150;
const PAD = { top: 12, bottom: 24, start: 28, end: 6 };

/** Twelve weekly bars as a small SVG; each bar carries its week and count as a tooltip and for screen readers. */
export function WeekChart({ title, weeks, colorClass }: { title: string; weeks: WeekCount[]; colorClass: string }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const titleId = useId();
  const max = Math.max(1, ...weeks.map((week) => week.count));
  const total = weeks.reduce((sum, week) => sum + week.count, 0);
  const plotWidth = WIDTH - PAD.start - PAD.end;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, weeks.length);
  const barWidth = slot * 0.64;

  return (
    <figure className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <figcaption className="flex items-baseline justify-between gap-2">
        <span id={titleId} className="text-sm font-semibold text-slate-900 dark:text-white">
          {title}
        </span>
        <span className="text-xs text-slate-600 dark:text-slate-400">
          {t('dashboard.chart_total', { total: format.number(total) })}
        </span>
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="mt-3 w-full"
        role="img"
        aria-labelledby={titleId}
        direction="ltr"
      >
        <line
          x1={PAD.start}
          x2={WIDTH - PAD.end}
          y1={HEIGHT - PAD.bottom}
          y2={HEIGHT - PAD.bottom}
          className="stroke-slate-300 dark:stroke-slate-700"
        />
        <text x={PAD.start - 6} y={PAD.top + 4} textAnchor="end" className="fill-slate-500 text-[10px]">
          {format.number(max)}
        </text>
        <text x={PAD.start - 6} y={HEIGHT - PAD.bottom} textAnchor="end" className="fill-slate-500 text-[10px]">
          0
        </text>
        {weeks.map((week, index) => {
          const height = (week.count / max) * plotHeight;
          const x = PAD.start + index * slot + (slot - barWidth) / 2;
          const label = t('dashboard.chart_bar', {
            week: format.shortDate(week.week_start),
            total: format.number(week.count),
          });
          return (
            <g key={week.week_start}>
              <rect
                x={x}
                y={HEIGHT - PAD.bottom - height}
                width={barWidth}
                height={Math.max(height, week.count > 0 ? 1 : 0)}
                rx={2}
                className={colorClass}
              >
                <title>{label}</title>
              </rect>
              {index % 3 === 0 && (
                <text x={x + barWidth / 2} y={HEIGHT - 8} textAnchor="middle" className="fill-slate-500 text-[9px]">
                  {format.shortDate(week.week_start)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <ul className="sr-only">
        {weeks.map((week) => (
          <li key={week.week_start}>
            {t('dashboard.chart_bar', { week: format.shortDate(week.week_start), total: format.number(week.count) })}
          </li>
        ))}
      </ul>
    </figure>
  );
}
