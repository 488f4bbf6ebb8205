/** The scripted workflows of PostfixAdmin, in the order they are recorded (all on one instance). */
import type { Workflow } from '../../types'
import { addAlias, editAliasTargets } from './aliases'
import { addDomain } from './domains'
import { addMailbox, changeQuota, deleteMailbox, disableMailbox } from './mailboxes'
import { listDomainMailboxes, listDomains, searchMailboxes } from './read'

export const WORKFLOWS: Workflow[] = [
  listDomainMailboxes,
  searchMailboxes,
  listDomains,
  addDomain,
  addMailbox,
  addAlias,
  editAliasTargets,
  changeQuota,
  disableMailbox,
  deleteMailbox,
]
