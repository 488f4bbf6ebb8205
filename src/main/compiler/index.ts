export { compileTrace, type CompileResult } from './compileTrace'
