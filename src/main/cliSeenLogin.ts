import type { LoginOffer } from '../shared/appApi'
import { isServiceError } from '../shared/errors'
import { ask } from './cliLogin'
import { describeOffer } from './logins/seenLogins'
import type { Vault } from './vault'

/** What `record` and `import-har` need to offer the login they saw. */
export interface SeenLoginPrompt {
  /** `record` or `import-har`: named in the hint to add `--save-login`. */
  command: string
  /** The login seen on the recorded site, or null. */
  offer: LoginOffer | null
  /** `--save-login` was given. */
  save: boolean
  /** `--json`: nothing is asked at the terminal. */
  json: boolean
  vault: Pick<Vault, 'open' | 'unlock'>
  /** Saves it, sealed in the vault (`SeenLogins.save`); `password` completes a Digest login. */
  saveLogin(password?: string): Promise<LoginOffer>
}

/**
 * The CLI's offer of a seen login, told on stderr: without `--save-login`,
 * one line saying a login was seen and how to keep it; with it, the login is saved sealed in the
 * vault (asking the vault's passphrase, or a Digest password, at a terminal). A locked vault
 * keeps nothing, in the clear or otherwise, and says so. Returns the offer as it ends (`saved`
 * true once saved), or null when none was seen.
 */
export async function offerSeenLogin(prompt: SeenLoginPrompt): Promise<LoginOffer | null> {
  const { offer } = prompt
  if (!offer) return null
  const what = describeOffer(offer)
  const held = what ? ` (${what})` : ''
  if (offer.saved) {
    process.stderr.write(`The login to ${offer.host}${held} is saved, sealed in the vault.\n`)
    return offer
  }
  if (!prompt.save) {
    process.stderr.write(
      `A login to ${offer.host} was used${held}; it was not saved: add --save-login to ${prompt.command} to keep it, sealed in the vault.\n`,
    )
    return offer
  }
  const interactive = process.stdin.isTTY === true && !prompt.json
  let vault = await prompt.vault.open()
  if (vault.mode === 'locked' && vault.unlockWith === 'passphrase' && interactive)
    vault = await prompt.vault.unlock(await ask('Vault passphrase: ', true))
  if (vault.mode === 'locked') {
    process.stderr.write(
      `The login to ${offer.host} was not saved: the vault is locked, and a login is never kept in the clear. ${vault.message}\n`,
    )
    return offer
  }
  let password: string | undefined
  if (offer.needsPassword) {
    if (!interactive) {
      process.stderr.write(
        `The login to ${offer.host} was not saved: it used Digest authentication, whose password never crosses the wire. Run \`sitecall login ${offer.host}\` to save it.\n`,
      )
      return offer
    }
    password = await ask(`Password of ${offer.username ?? 'the user'} on ${offer.host}: `, true)
  }
  try {
    const saved = await prompt.saveLogin(password)
    process.stderr.write(`Saved the login to ${offer.host}${held}, sealed in the vault.\n`)
    return saved
  } catch (error) {
    if (!isServiceError(error) || error.code !== 'unavailable') throw error
    process.stderr.write(
      `The login to ${offer.host} was not saved: ${error.message} Nothing was kept in the clear.\n`,
    )
    return offer
  }
}
