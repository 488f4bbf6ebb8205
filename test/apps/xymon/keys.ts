/**
 * The requests the answer keys of Xymon name. Reads are GETs of the public CGIs with the query
 * their forms build; the admin writes are POSTs of `enadis.sh` told apart by their `go` field
 * ("Disable now", "Enable", "Cancel") and of `acknowledge.sh`, and a GET of `criticaleditor.sh`
 * with `Update=Update record`.
 */
import type { RequestKey } from '../types'
import { CGI, SECURE } from './seed'

export const ENADIS = `${SECURE}/enadis.sh`
export const ACKNOWLEDGE = `${SECURE}/acknowledge.sh`
export const CRITICAL_EDITOR = `${SECURE}/criticaleditor.sh`

/** The Enable/disable page: the disabled tests and the scheduled jobs, each with its form. */
export const ENADIS_PAGE: RequestKey = { method: 'GET', path: ENADIS }

/** The Acknowledge page: one row per alert, with the alert's number in `NUMBER_<row>`. */
export const ACKNOWLEDGE_PAGE: RequestKey = { method: 'GET', path: ACKNOWLEDGE }

/** The editor's Search: the record of a host and test, every field filled in. */
export const CRITICAL_SEARCH: RequestKey = {
  method: 'GET',
  path: CRITICAL_EDITOR,
  operation: { field: 'Find', value: 'Search' },
}

/** A POST of enadis.sh whose `go` is `value`. */
export function enadisKey(value: string): RequestKey {
  return { method: 'POST', path: ENADIS, operation: { field: 'go', value } }
}

export const FINDHOST = `${CGI}/findhost.sh`
export const EVENTLOG = `${CGI}/eventlog.sh`
export const HISTORY = `${CGI}/history.sh`
