/** The scripted workflows of Adminer, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { importSqlFile } from './import'
import { exportTable, listProducts, runSql, searchCustomers } from './reads'
import { addColumn, addProduct, deleteCustomer, editOrderStatus } from './writes'

export const WORKFLOWS: Workflow[] = [
  searchCustomers,
  listProducts,
  runSql,
  exportTable,
  editOrderStatus,
  addProduct,
  deleteCustomer,
  addColumn,
  importSqlFile,
]
