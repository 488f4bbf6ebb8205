import type { ReactNode } from 'react'

/**
 * A column of a {@link ListTable}: its header text, or null for the column of each row's actions
 * (buttons), whose header is named for screen readers only.
 */
type Column = string | null

interface ListTableProps {
  columns: readonly Column[]
  /** The items' rows, one `<tr>` each. */
  children: ReactNode
  className?: string
  testId?: string
}

/** A table of items: a header row naming the columns, then one row per item. */
export function ListTable({ columns, children, className, testId }: ListTableProps) {
  return (
    <table className={className} data-testid={testId}>
      <thead>
        <tr>
          {columns.map((name, i) => (
            <th key={i}>{name ?? <span className="visually-hidden">Actions</span>}</th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  )
}
