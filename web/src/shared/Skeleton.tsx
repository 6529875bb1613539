/**
 * The shape of the screen that is on its way, in grey, while its data or code loads: a person sees where things
 * will be instead of a bare "Loading…", and nothing jumps when it arrives. Screen readers hear the label once
 * (a status); the shapes themselves are hidden from them. The shimmer stops for people who ask for less motion.
 */
import type { ReactNode } from 'react';
import './skeleton.css';

export type SkeletonShape = 'list' | 'rows' | 'document' | 'form';

const ROWS = 6;

export function Skeleton({
  shape,
  label,
  withHeading = true,
}: {
  shape: SkeletonShape;
  label: string;
  /** False where the page's own heading is already on screen. */
  withHeading?: boolean;
}) {
  return (
    <div className={`sk sk--${shape}`} role="status" aria-busy="true">
      <span className="visually-hidden">{label}</span>
      <div aria-hidden="true">{shapes[shape](withHeading)}</div>
    </div>
  );
}

const bar = (className: string, key?: number) => <span key={key} className={`sk-bar ${className}`} />;

const rows = () => (
  <div className="sk-rows">
    {Array.from({ length: ROWS }, (_, i) => (
      <div key={i} className="sk-row">
        {bar('sk-check')}
        <div className="sk-lines">
          {bar('sk-line sk-line--strong')}
          {bar('sk-line sk-line--short')}
        </div>
        {bar('sk-pill')}
      </div>
    ))}
  </div>
);

const shapes: Record<SkeletonShape, (withHeading: boolean) => ReactNode> = {
  rows,
  list: (withHeading) => (
    <>
      {withHeading && bar('sk-heading')}
      <div className="sk-split">
        <div className="sk-side">{[0, 1, 2, 3, 4].map((i) => bar('sk-line', i))}</div>
        {rows()}
      </div>
    </>
  ),
  document: (withHeading) => (
    <>
      {withHeading && bar('sk-heading')}
      <div className="sk-split sk-split--document">
        <div className="sk-page" />
        <div className="sk-side">{[0, 1, 2, 3].map((i) => bar('sk-line', i))}</div>
      </div>
    </>
  ),
  form: (withHeading) => (
    <>
      {withHeading && bar('sk-heading')}
      {[0, 1, 2, 3].map((i) => (
        <div key={i} className="sk-field">
          {bar('sk-line sk-line--short')}
          {bar('sk-input')}
        </div>
      ))}
    </>
  ),
};
