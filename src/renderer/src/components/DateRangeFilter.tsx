/**
 * The From/To pair of a list toolbar, in the bank's terms: from_date inclusive, to_date
 * exclusive. Each picker is bounded by the other so a reversed range cannot be picked.
 */
import { DateField } from './DateField.tsx';
import { ToolbarItem } from './Page.tsx';

export interface DateRange {
  fromDate: string;
  toDate: string;
}

export function DateRangeFilter({
  range,
  onChange,
}: {
  range: DateRange;
  onChange: (change: Partial<DateRange>) => void;
}) {
  return (
    <>
      <ToolbarItem label="From">
        <DateField
          compact
          label="From date"
          value={range.fromDate}
          {...(range.toDate === '' ? {} : { max: range.toDate })}
          onChange={(fromDate) => {
            onChange({ fromDate });
          }}
        />
      </ToolbarItem>
      <ToolbarItem label="To">
        <DateField
          compact
          label="To date (exclusive)"
          value={range.toDate}
          {...(range.fromDate === '' ? {} : { min: range.fromDate })}
          onChange={(toDate) => {
            onChange({ toDate });
          }}
        />
      </ToolbarItem>
    </>
  );
}
