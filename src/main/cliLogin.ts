import { createInterface } from 'node:readline/promises'
import { Writable } from 'node:stream'
import { parseArgs } from 'node:util'
import { createCore, LOCAL_TENANT } from './core'

/**
 * Asks one question on the terminal; `secret` hides what is typed (a TOTP seed, a passphrase),
 * so it is neither echoed nor left in the scrollback.
 */
export async function ask(question: string, secret = false): Promise<string> {
  let muted = false
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk)
      done()
    },
  })
  const rl = createInterface({ input: process.stdin, output, terminal: process.stdin.isTTY })
  try {
    const answer = rl.question(question)
    muted = secret
    return (await answer).trim()
  } finally {
    if (secret) process.stderr.write('\n')
    rl.close()
  }
}

/**
 * `sitecall login HOST [--url URL] [--save-password] [--json]`: opens the
 * site in the recorder's browser, waits until the person has signed in (the login is then saved,
 * sealed in the vault), and, at the terminal, offers to keep the typed username and password as
 * secrets and to enter a TOTP seed. The typed values pass from the browser to the vault in this
 * process's memory only. Exit codes: 0 saved, 1 not saved, 2 bad usage.
 */
export async function loginCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      'save-password': { type: 'boolean' },
      json: { type: 'boolean' },
    },
  })
  const host = positionals[0]
  if (!host && !values.url) {
    process.stderr.write('Usage: sitecall login HOST [--url URL] [--save-password] [--json]\n')
    return 2
  }
  const interactive = process.stdin.isTTY === true && !values.json
  const core = createCore({ rendererDir: null })
  try {
    let vault = await core.vault.open()
    if (vault.mode === 'locked' && vault.unlockWith === 'passphrase' && interactive)
      vault = await core.vault.unlock(await ask('Vault passphrase: ', true))
    if (vault.mode === 'locked') {
      process.stderr.write(`The login cannot be saved: ${vault.message}\n`)
      return 1
    }
    const started = await core.signIns.start(LOCAL_TENANT, {
      ...(host ? { host } : {}),
      ...(values.url ? { url: values.url } : {}),
    })
    process.stderr.write(
      `Sign in to ${started.host} in the browser window (${started.url}).\nThe login is saved once you are signed in; close the window to give up.\n`,
    )
    const onSignal = () => void core.signIns.cancel(LOCAL_TENANT, started.signInId)
    process.once('SIGINT', onSignal)
    let state = await core.signIns.settled(started.signInId)
    process.off('SIGINT', onSignal)
    if (state.status === 'signed_in') {
      let saveCredentials = values['save-password'] === true && state.canSaveCredentials
      if (interactive && state.canSaveCredentials && !saveCredentials)
        saveCredentials = /^y(es)?$/i.test(
          await ask(
            `Save the username${state.username ? ` (${state.username})` : ''} and password as secrets, so Sitecall can sign in again by itself? [y/N] `,
          ),
        )
      let totpSeed = ''
      if (interactive && (saveCredentials || state.sawOneTimeCode))
        totpSeed = await ask(
          'TOTP seed for the second factor (Base32 or otpauth:// URI; empty to skip): ',
          true,
        )
      state = await core.signIns.finish(LOCAL_TENANT, started.signInId, {
        saveCredentials,
        ...(totpSeed ? { totpSeed } : {}),
      })
    }
    if (values.json) process.stdout.write(`${JSON.stringify(state)}\n`)
    else process.stdout.write(`${state.message}\n`)
    return state.status === 'saved' ? 0 : 1
  } finally {
    await core.close()
  }
}
