export {
  compileTrace,
  MIN_TARGET_SCORE,
  type CompileOptions,
  type CompileResult,
} from './compileTrace'
export { inferSchema } from './inferSchema'
