/** The scripted workflows of phpMyAdmin, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { browseTable, exportTable, runSql, searchRows } from './reads'
import { addColumn, createDatabase, deleteRow, editRow, insertRow } from './writes'

export const WORKFLOWS: Workflow[] = [
  searchRows,
  browseTable,
  runSql,
  exportTable,
  insertRow,
  editRow,
  deleteRow,
  addColumn,
  createDatabase,
]
