export { RENDERER_CSP, UI_SECURITY_HEADERS } from '../api/uiSecurity'

/**
 * Whether `url` is one of the app's own pages: the built renderer (a `file:` URL of its
 * `index.html`, any hash route) or, in development, the dev server's origin.
 */
export function isAppPage(url: string, appUrl: string): boolean {
  if (!URL.canParse(url) || !URL.canParse(appUrl)) return false
  const page = new URL(url)
  const app = new URL(appUrl)
  if (app.protocol === 'file:') return page.protocol === 'file:' && page.pathname === app.pathname
  return page.origin === app.origin
}

/** What the guards need of a window's `webContents` (a fake stands in for it in tests). */
export interface ContentsLike {
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: { preventDefault(): void; url: string }, url?: string) => void,
  ): unknown
}

/**
 * Keeps a window on the app's own pages (checklist §13): a navigation or a
 * redirect anywhere else is cancelled, and an http(s) one is handed to `openExternal` (the
 * person's browser).
 */
export function guardNavigation(
  contents: ContentsLike,
  appUrl: string,
  openExternal: (url: string) => void,
): void {
  const guard = (event: { preventDefault(): void; url: string }, url?: string) => {
    const target = url ?? event.url
    if (isAppPage(target, appUrl)) return
    event.preventDefault()
    if (/^https?:/i.test(target)) openExternal(target)
  }
  contents.on('will-navigate', guard)
  contents.on('will-redirect', guard)
}

/** What the permission guard needs of an Electron `Session`. */
export interface SessionLike {
  setPermissionRequestHandler(
    handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void
  setPermissionCheckHandler(handler: (contents: unknown, permission: string) => boolean): void
}

/**
 * Denies every permission request and check (camera, notifications from pages, geolocation…;
 * checklist §5): the app's pages need none, and main shows notifications itself.
 */
export function denyPermissions(session: SessionLike): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
}

/** The IPC event fields the sender check reads (Electron's `IpcMainInvokeEvent`). */
interface IpcSenderLike {
  senderFrame?: { url: string; parent?: unknown } | null
}

/**
 * Whether an IPC call comes from the app's own top frame (checklist §17): a frame of another
 * origin (an iframe, a page navigated away) may not call the contract.
 */
export function isTrustedSender(event: unknown, appUrl: string): boolean {
  const frame = (event as IpcSenderLike | null)?.senderFrame
  if (!frame) return false
  if (frame.parent) return false
  return isAppPage(frame.url, appUrl)
}
