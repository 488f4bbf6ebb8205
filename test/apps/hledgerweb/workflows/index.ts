/**
 * The scripted workflows of hledger-web, in the order they are recorded (all on one instance):
 * the reads and the download first, then the file edit (its textarea holds the whole journal,
 * which the adds would change), the adds, and the upload last (it replaces the whole journal).
 */
import type { Workflow } from '../../types'
import { addSplitTransaction, addTransaction } from './add'
import { editJournal, uploadJournal } from './files'
import { accountRegister, downloadJournal, journalForMonth, searchDescription } from './reads'

export const WORKFLOWS: Workflow[] = [
  searchDescription,
  accountRegister,
  journalForMonth,
  downloadJournal,
  editJournal,
  addTransaction,
  addSplitTransaction,
  uploadJournal,
]
