/**
 * A chart as a figure: its caption, the picture (SVG) named by a sentence that says what it
 * shows (the text alternative, for whoever cannot see it), and the same numbers as a table a
 * click (or Enter) away: "Show as a table". The picture is hidden from screen readers only
 * because the sentence and the table say everything it does.
 */
import { useId, useState, type ReactNode } from 'react';
import { Button } from '../../components/Button.tsx';

export function ChartFigure({
  caption,
  summary,
  chart,
  table,
}: {
  caption: string;
  /** The text alternative: the chart's message in one or two sentences. */
  summary: string;
  chart: ReactNode;
  table: ReactNode;
}) {
  const [asTable, setAsTable] = useState(false);
  const id = useId();
  return (
    <figure className="overview-figure" aria-labelledby={`${id}-caption`}>
      <div className="overview-figure-head">
        <figcaption id={`${id}-caption`} className="overview-figure-caption">
          {caption}
        </figcaption>
        <Button
          size="sm"
          variant="ghost"
          aria-expanded={asTable}
          // Only while the table is there: an id that names nothing is an error (HTML_CodeSniffer, IBM).
          aria-controls={asTable ? `${id}-table` : undefined}
          onClick={() => {
            setAsTable(!asTable);
          }}
        >
          {asTable ? 'Show as a chart' : 'Show as a table'}
        </Button>
      </div>
      <p className="overview-figure-summary">{summary}</p>
      {asTable ? (
        <div
          id={`${id}-table`}
          className="overview-table-scroll"
          tabIndex={0}
          role="region"
          aria-label={`${caption}: table`}
        >
          {table}
        </div>
      ) : (
        <div className="overview-chart" aria-hidden="true">
          {chart}
        </div>
      )}
    </figure>
  );
}
