import { createHash } from 'node:crypto'
import { canonicalJson } from '../engine/runEngine'

/** sha256 of the canonical JSON of an operation's inputs. */
export function hashInputs(inputs: unknown): string {
  return createHash('sha256').update(canonicalJson(inputs)).digest('hex')
}
