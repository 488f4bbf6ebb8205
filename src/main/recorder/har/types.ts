/**
 * HAR 1.2 as read and written here (http://www.softwareishard.com/blog/har-12-spec/), with the
 * custom fields browsers add (`_resourceType` by Chrome). Every field a writer may omit is
 * optional: the importer takes HARs as Chrome DevTools, Firefox, Playwright and mitmproxy write
 * them, which differ in what they leave out.
 */
export interface HarNameValue {
  name: string
  value: string
  comment?: string
}

export interface HarCookie {
  name: string
  value: string
  path?: string
  domain?: string
  expires?: string | null
  httpOnly?: boolean
  secure?: boolean
  sameSite?: string
}

interface HarPostParam {
  name: string
  value?: string
  fileName?: string
  contentType?: string
}

export interface HarPostData {
  mimeType: string
  text?: string
  params?: HarPostParam[]
  /** Not in HAR 1.2: written by Sitecall for a binary request body kept as base64. */
  _encoding?: 'base64'
}

interface HarRequest {
  method: string
  url: string
  httpVersion: string
  cookies: HarCookie[]
  headers: HarNameValue[]
  queryString: HarNameValue[]
  postData?: HarPostData
  headersSize: number
  bodySize: number
}

export interface HarContent {
  size: number
  /** Bytes saved by compression; the `text` is always the decoded body. */
  compression?: number
  mimeType: string
  text?: string
  encoding?: string
}

interface HarResponse {
  status: number
  statusText: string
  httpVersion: string
  cookies: HarCookie[]
  headers: HarNameValue[]
  content: HarContent
  redirectURL: string
  headersSize: number
  bodySize: number
}

interface HarTimings {
  blocked?: number
  dns?: number
  connect?: number
  send: number
  wait: number
  receive: number
  ssl?: number
}

export interface HarEntry {
  pageref?: string
  startedDateTime: string
  time: number
  request: HarRequest
  response: HarResponse
  cache: Record<string, unknown>
  timings: HarTimings
  serverIPAddress?: string
  connection?: string
  /** Chrome DevTools: document, xhr, fetch, script, stylesheet, image, font, ping, other... */
  _resourceType?: string
}

export interface HarPage {
  startedDateTime: string
  id: string
  /** Chrome writes the page URL here; Firefox and Playwright write the document title. */
  title: string
  pageTimings: { onContentLoad?: number; onLoad?: number }
}

interface HarLog {
  version: string
  creator: { name: string; version: string }
  browser?: { name: string; version: string }
  pages?: HarPage[]
  entries: HarEntry[]
}

export interface Har {
  log: HarLog
}
