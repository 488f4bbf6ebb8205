import { create } from 'zustand'
import type { LoginSummary, SignInState } from '../../shared/appApi'
import { invoke } from '../api'
import { attempt } from './useAppStore'

interface LoginsState {
  logins: LoginSummary[] | null
  /** The sign-in the person is doing now, if any. */
  signIn: SignInState | null
  load(): Promise<void>
  /** Opens the site in a browser to sign in, by a saved login's host or a page's URL. */
  start(target: { host: string } | { url: string }): Promise<void>
  /** Reads the open sign-in's state again (the view polls while the person signs in). */
  refresh(): Promise<void>
  finish(saveCredentials: boolean, totpSeed: string): Promise<void>
  cancel(): Promise<void>
  /** Answers the site's HTTP authentication challenge; true once the site took the answer. */
  answerAuth(username: string, password: string): Promise<boolean>
  forget(host: string): Promise<void>
  dismissSignIn(): void
}

/** Sign-in states in which the person still works in the browser. */
export const SIGNING_IN: ReadonlyArray<SignInState['status']> = ['open', 'signing_in']

/** Where the open sign-in's id is kept, so a reloaded page finds its sign-in again. */
const OPEN_SIGN_IN_KEY = 'sitecall.signInId'

function remember(signIn: SignInState | null): void {
  // Only the id: the flow's state stays in the core and is read again with it.
  if (signIn && SIGNING_IN.includes(signIn.status))
    sessionStorage.setItem(OPEN_SIGN_IN_KEY, signIn.signInId)
  else sessionStorage.removeItem(OPEN_SIGN_IN_KEY)
}

export const useLoginsStore = create<LoginsState>()((set, get) => ({
  logins: null,
  signIn: null,
  async load() {
    const logins = await attempt(invoke('logins.list', {}))
    if (logins) set({ logins })
    const kept = sessionStorage.getItem(OPEN_SIGN_IN_KEY)
    if (get().signIn || !kept) return
    // A sign-in that ended or was forgotten by a restart is not brought back.
    const signIn = await invoke('logins.signInState', { signInId: kept }).catch(() => null)
    if (signIn && SIGNING_IN.includes(signIn.status) && !get().signIn) set({ signIn })
    else if (!signIn || !SIGNING_IN.includes(signIn.status)) remember(null)
  },
  async start(target) {
    const signIn = await attempt(invoke('logins.signIn', target))
    if (signIn) set({ signIn })
    remember(signIn ?? null)
  },
  async refresh() {
    const open = get().signIn
    if (!open) return
    const signIn = await attempt(invoke('logins.signInState', { signInId: open.signInId }))
    if (signIn && get().signIn?.signInId === signIn.signInId) set({ signIn })
    if (signIn) remember(signIn)
  },
  async finish(saveCredentials, totpSeed) {
    const open = get().signIn
    if (!open) return
    const seed = totpSeed.trim()
    const signIn = await attempt(
      invoke('logins.finishSignIn', {
        signInId: open.signInId,
        saveCredentials,
        ...(seed ? { totpSeed: seed } : {}),
      }),
    )
    if (signIn) set({ signIn })
    remember(null)
    await get().load()
  },
  async answerAuth(username, password) {
    const open = get().signIn
    if (!open) return false
    const input = { signInId: open.signInId, username, password }
    const signIn = await attempt(invoke('logins.answerAuth', input))
    if (!signIn) return false
    set({ signIn })
    remember(signIn)
    if (signIn.status === 'saved') await get().load()
    return true
  },
  async cancel() {
    const open = get().signIn
    if (!open) return
    const signIn = await attempt(invoke('logins.cancelSignIn', { signInId: open.signInId }))
    set({ signIn: signIn ?? null })
    remember(null)
  },
  async forget(host) {
    const answer = await attempt(invoke('logins.forget', { host }))
    if (answer) set({ logins: (get().logins ?? []).filter((l) => l.host !== host) })
  },
  dismissSignIn: () => {
    remember(null)
    set({ signIn: null })
  },
}))
