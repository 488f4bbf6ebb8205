import type { StorageState } from '../../shared/trace'
import type { Recording, RecordingOptions } from '../recorder'

/**
 * What a session recording in its own Chromium is built from: the person's Record view and an
 * agent's browse session alike.
 */
export interface SessionBrowserDeps {
  /** Milliseconds since the Unix epoch (tests pass a fake one). */
  clock: () => number
  ulid: () => string
  uuid: () => string
  /** The Chromium to launch; throws `chromium_not_found` with the install hint when none. */
  chromiumPath: () => string
  startRecording: (options: RecordingOptions) => Promise<Recording>
  /** The vault's check that an intent holds no secret's value (spec B rule 4). */
  refuseSecretValues?: (text: string, tenant: string) => Promise<void>
  /** Seals a login into the vault; absent or failing (locked vault): not kept. */
  saveLogin?: (tenant: string, siteHost: string, state: StorageState) => Promise<void>
}
