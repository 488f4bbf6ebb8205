export {
  ACTION_BINDING,
  ACTION_FLUSH,
  FILL_DEBOUNCE_MS,
  SECRET_AUTOCOMPLETE,
  SECRET_FIELD_NAME,
  actionScript,
} from './actionScript'
export type { ActionPayload } from './actionScript'
export {
  CHROMIUM_ENV,
  chromiumArgs,
  defaultChromiumPaths,
  findChromium,
  requireChromium,
} from './chromium'
export type { ChromiumLocation, ChromiumSource, FindChromiumOptions } from './chromium'
export { encodeBody, isTextualContentType } from './encodeBody'
export { SECRET_PLACEHOLDER, redactSecrets } from './redactSecrets'
export { storedCookies } from './storedCookies'
export { defaultHeadless, startRecording } from './traceRecorder'
export type { Recording, RecordingOptions } from './traceRecorder'
