/**
 * A horizontal bar chart drawn as SVG (no chart library: three small charts do not need one). The picture is one
 * image to assistive technology, named by the chart's title and described by every bar's label and value; the same
 * numbers are a real table in a disclosure below it. Each bar carries its label and value as text, so colour is
 * never the only cue; bar colours keep at least 3:1 against white (WCAG 1.4.11).
 */
import { useId, type ReactNode } from 'react';
import { templatesText as text } from '../i18n/templates/index.ts';

export type Bar = { label: string; value: number; display: string; note?: string };

const WIDTH = 640;
const LABEL_WIDTH = 230;
const VALUE_WIDTH = 110;
const ROW = 38;
const BAR = 24;
const COLOURS = ['#1d4ed8', '#15803d', '#b45309', '#7e22ce', '#4b5563', '#be123c'];

function shorten(label: string, max = 30): string {
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}

export function BarChart({
  title,
  bars,
  max,
  table,
  colourByIndex = true,
}: {
  title: string;
  bars: Bar[];
  /** The value of a full-width bar (default: the largest value). */
  max?: number;
  /** The data table the disclosure shows (its caption is the chart's title). */
  table: ReactNode;
  colourByIndex?: boolean;
}) {
  const titleId = useId();
  const descId = useId();
  const top = Math.max(max ?? 0, ...bars.map((b) => b.value), 1e-9);
  const height = bars.length * ROW + 8;
  const area = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  return (
    <figure className="tp-chart" aria-labelledby={titleId}>
      <figcaption id={titleId} className="tp-chart-title">
        {title}
      </figcaption>
      <svg
        role="img"
        aria-labelledby={titleId}
        aria-describedby={descId}
        viewBox={`0 0 ${WIDTH} ${height}`}
        className="tp-chart-svg"
        preserveAspectRatio="xMinYMin meet"
      >
        <desc id={descId}>
          {bars.map((b) => text.chartValue(b.label, `${b.display}${b.note ? ` (${b.note})` : ''}`)).join('; ')}
        </desc>
        <line x1={LABEL_WIDTH} x2={LABEL_WIDTH} y1={0} y2={height} stroke="#6b7280" strokeWidth={1} />
        {bars.map((bar, i) => {
          const y = 4 + i * ROW;
          const width = bar.value > 0 ? Math.max(2, (bar.value / top) * area) : 0;
          return (
            <g key={`${bar.label}-${i}`}>
              <text
                x={LABEL_WIDTH - 8}
                y={y + BAR / 2}
                textAnchor="end"
                dominantBaseline="middle"
                className="tp-chart-label"
              >
                {shorten(bar.label)}
              </text>
              <rect
                x={LABEL_WIDTH}
                y={y}
                width={width}
                height={BAR}
                rx={3}
                fill={colourByIndex ? COLOURS[i % COLOURS.length] : COLOURS[0]}
                fillOpacity={bar.note ? 0.55 : 1}
                stroke={bar.note ? COLOURS[0] : 'none'}
                strokeDasharray={bar.note ? '4 3' : undefined}
              />
              <text x={LABEL_WIDTH + width + 6} y={y + BAR / 2} dominantBaseline="middle" className="tp-chart-value">
                {bar.display}
                {bar.note ? ' *' : ''}
              </text>
            </g>
          );
        })}
      </svg>
      {bars.some((b) => b.note) && <p className="st-hint">* {bars.find((b) => b.note)!.note}</p>}
      <details className="tp-chart-table">
        <summary>{text.showTable}</summary>
        {table}
      </details>
    </figure>
  );
}
