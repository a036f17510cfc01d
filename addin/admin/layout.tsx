import {
  Card,
  CardHeader,
  makeStyles,
  Table,
  TableBody,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import type { ReactNode } from 'react';

/** The pieces the admin console's cards are made of. */
export const useAdminStyles = makeStyles({
  /** A row of small buttons, wrapping in a narrow window. */
  actions: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
  /** A line of detail under a name, in the quieter colour. */
  detail: { display: 'block', color: tokens.colorNeutralForeground3, overflowWrap: 'anywhere' },
  cell: { overflowWrap: 'anywhere' },
  // The columns do not fit a phone or a narrow window: each row becomes a block of lines instead, so no text runs
  // into the next column; a cell with a `data-label` says which column it is.
  table: {
    '@media (max-width: 640px)': {
      display: 'block',
      '& thead': { display: 'none' },
      '& tbody, & tr, & td': { display: 'block', width: 'auto', height: 'auto' },
      '& tr': { paddingBlock: tokens.spacingVerticalS },
      '& td[data-label]::before': {
        content: 'attr(data-label)',
        display: 'block',
        fontWeight: tokens.fontWeightSemibold,
        color: tokens.colorNeutralForeground3,
      },
    },
  },
});

/** One card of the console under its title. */
export function AdminCard({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <Card>
      <CardHeader header={<Text weight="semibold">{title}</Text>} />
      {children}
    </Card>
  );
}

/** A table named `label` with a header of `columns`; its rows (`children`) stack in a narrow window. */
export function StackedTable({ label, columns, children }: { label: string; columns: string[]; children: ReactNode }) {
  const styles = useAdminStyles();
  return (
    <Table aria-label={label} size="small" className={styles.table}>
      <TableHeader>
        <TableRow>
          {columns.map((column) => (
            <TableHeaderCell key={column}>{column}</TableHeaderCell>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>{children}</TableBody>
    </Table>
  );
}
