import type { Workflow } from '../../types'
import { logIn } from './login'
import { logInTwoFactor } from './login2fa'
import { filterIssues, searchIssues, viewIssue } from './reads'
import { changeStatus, createIssue, uploadFile } from './writes'

/** Every Redmine workflow of the corpus: three reads, three writes, a login with a password and one with a second factor. */
export const WORKFLOWS: Workflow[] = [
  searchIssues,
  viewIssue,
  filterIssues,
  createIssue,
  changeStatus,
  uploadFile,
  logIn,
  logInTwoFactor,
]
