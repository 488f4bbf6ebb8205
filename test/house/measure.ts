// The house's figures (issue 28 "Done when"): measured from the TypeScript syntax tree of src/, so
// the figures script and the house-rules test count exactly the same things.
import { readdirSync, readFileSync } from 'node:fs'
import { join, sep } from 'node:path'
import ts from 'typescript'

/** The longest a function in src/ may be (issue 28 "Done when"), outside the pinned list. */
export const MAX_FUNCTION_LINES = 120

/** One function-like node with a body: where it is, a stable name, and its length in lines. */
export interface FunctionLength {
  /** Path from the repository root, with `/`. */
  file: string
  /** The enclosing named functions and this one, joined by `.` (see `functionName`). */
  name: string
  /** Lines from the line of its first token to the line of its last, both counted. */
  lines: number
}

/** One bare catch (see `isBareCatch`): where it is and the function that holds it. */
export interface BareCatch {
  file: string
  /** The enclosing function's name as in `FunctionLength.name`, or `(top level)`. */
  function: string
  /** 1-based line of the `catch` keyword. */
  line: number
  /** Whether a comment sits inside the catch block: the exception says why it is one. */
  commented: boolean
}

/** A pinned row of the house-rules test: [file, function path, lines or bare catches in it]. */
export type Pin = [file: string, name: string, count: number]

/** Everything one pass over the syntax tree of src/ finds. */
export interface SourceFigures {
  files: { file: string; lines: number }[]
  functions: FunctionLength[]
  /** `x as T` and `<T>x`; `as const` is a literal's type, not a cast, and is left out. */
  casts: { file: string; line: number }[]
  bareCatches: BareCatch[]
}

/** Every `.ts` and `.tsx` file under `dir`, as paths from `root` with `/`, sorted. */
export function sourceFiles(root: string, dir = 'src'): string[] {
  const found: string[] = []
  const walk = (at: string): void => {
    for (const entry of readdirSync(join(root, at), { withFileTypes: true })) {
      const path = join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.tsx?$/.test(entry.name)) found.push(path.split(sep).join('/'))
    }
  }
  walk(dir)
  return found.sort()
}

/** Lines of a text as an editor numbers them: a final newline does not open another line. */
function lineCount(text: string): number {
  if (text === '') return 0
  const breaks = text.split('\n').length - 1
  return text.endsWith('\n') ? breaks : breaks + 1
}

/** A function-like node that has a body of code (a signature or a function type has none). */
function isFunctionWithBody(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)) &&
    node.body !== undefined
  )
}

/** A property or binding name as written, or undefined for a computed one. */
function nameText(name: ts.Node | undefined): string | undefined {
  if (!name) return undefined
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text
  return undefined
}

/**
 * The own name of a function: its declared name, else the name it is bound to (a variable, a
 * property, an assignment's target, a class member), else the callee it is passed to
 * (`describe(...)` → `describe()`), else `<anonymous>`.
 */
function ownName(node: ts.FunctionLikeDeclaration): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  const declared = nameText(node.name)
  if (declared) {
    if (ts.isGetAccessorDeclaration(node)) return `get ${declared}`
    if (ts.isSetAccessorDeclaration(node)) return `set ${declared}`
    return declared
  }
  let at: ts.Node = node.parent
  while (ts.isParenthesizedExpression(at) || ts.isAsExpression(at) || ts.isSatisfiesExpression(at))
    at = at.parent
  if (ts.isVariableDeclaration(at) || ts.isPropertyAssignment(at) || ts.isPropertyDeclaration(at))
    return nameText(at.name) ?? '<anonymous>'
  if (ts.isBinaryExpression(at) && at.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    const target = at.left
    if (ts.isPropertyAccessExpression(target)) return target.name.text
    if (ts.isIdentifier(target)) return target.text
  }
  if (ts.isCallExpression(at)) {
    const callee = at.expression
    if (ts.isIdentifier(callee)) return `${callee.text}()`
    if (ts.isPropertyAccessExpression(callee)) return `${callee.name.text}()`
  }
  if (ts.isExportAssignment(at)) return 'default'
  return '<anonymous>'
}

/**
 * A bare catch: the error is not used (no binding, or a binding the block never names) and the
 * block is empty or trivial. Trivial is one statement that only leaves or gives a constant:
 * `return`, `return` of a literal, `null`, `undefined`, an identifier, an empty array or object,
 * `continue`, `break`, or giving such a constant to a variable (`found = false`). Such a catch
 * swallows every error the same way, so a reader cannot tell which failure it is there for.
 */
export function isBareCatch(clause: ts.CatchClause): boolean {
  const binding = clause.variableDeclaration?.name
  if (binding && !ts.isIdentifier(binding)) return false
  if (binding && namesIdentifier(clause.block, binding.text)) return false
  const statements = clause.block.statements
  if (statements.length === 0) return true
  if (statements.length > 1) return false
  const only = statements[0]!
  if (ts.isContinueStatement(only) || ts.isBreakStatement(only) || ts.isEmptyStatement(only))
    return true
  if (ts.isReturnStatement(only)) return !only.expression || isConstant(only.expression)
  if (!ts.isExpressionStatement(only) || !ts.isBinaryExpression(only.expression)) return false
  const { left, operatorToken, right } = only.expression
  return (
    operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(left) && isConstant(right)
  )
}

/** A literal, `null`, `undefined`, `void 0`, an identifier, or an empty array or object. */
function isConstant(expression: ts.Expression): boolean {
  if (ts.isParenthesizedExpression(expression)) return isConstant(expression.expression)
  if (ts.isAsExpression(expression)) return isConstant(expression.expression)
  if (ts.isIdentifier(expression) || ts.isLiteralExpression(expression)) return true
  if (ts.isNoSubstitutionTemplateLiteral(expression)) return true
  if (ts.isArrayLiteralExpression(expression)) return expression.elements.length === 0
  if (ts.isObjectLiteralExpression(expression)) return expression.properties.length === 0
  if (ts.isVoidExpression(expression)) return ts.isLiteralExpression(expression.expression)
  if (ts.isPrefixUnaryExpression(expression)) return ts.isLiteralExpression(expression.operand)
  return [
    ts.SyntaxKind.NullKeyword,
    ts.SyntaxKind.TrueKeyword,
    ts.SyntaxKind.FalseKeyword,
  ].includes(expression.kind)
}

/** Whether an identifier named `name` appears anywhere under `node`. */
function namesIdentifier(node: ts.Node, name: string): boolean {
  if (ts.isIdentifier(node) && node.text === name) return true
  return ts.forEachChild(node, (child) => namesIdentifier(child, name) || undefined) ?? false
}

/** Whether a comment sits between the braces of a block. */
function hasCommentInside(block: ts.Block, text: string): boolean {
  const inner = text.slice(block.getStart() + 1, block.end - 1)
  return /\/\/|\/\*/.test(inner)
}

/** A cast: `x as T` or `<T>x`, except `x as const`. */
function isCast(node: ts.Node): boolean {
  if (ts.isTypeAssertionExpression(node)) return true
  if (!ts.isAsExpression(node)) return false
  const type = node.type
  return !(
    ts.isTypeReferenceNode(type) &&
    ts.isIdentifier(type.typeName) &&
    type.typeName.text === 'const'
  )
}

/** The figures of one source file (its path from `root` with `/`). */
export function measureFile(root: string, file: string): SourceFigures {
  return measureText(file, readFileSync(join(root, file), 'utf8'))
}

/** The figures of a source text; `file` names it in the rows and picks TSX by its extension. */
export function measureText(file: string, text: string): SourceFigures {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind)
  const figures: SourceFigures = {
    files: [{ file, lines: lineCount(text) }],
    functions: [],
    casts: [],
    bareCatches: [],
  }
  const seen = new Map<string, number>()
  const lineOf = (pos: number): number => source.getLineAndCharacterOfPosition(pos).line + 1
  const visit = (node: ts.Node, outer: string | undefined): void => {
    let inside = outer
    if (isFunctionWithBody(node)) {
      const base = outer ? `${outer}.${ownName(node)}` : ownName(node)
      // Two functions with one path (two anonymous callbacks) are told apart by their order.
      const count = (seen.get(base) ?? 0) + 1
      seen.set(base, count)
      inside = count === 1 ? base : `${base}#${count}`
      const lines = lineOf(node.end) - lineOf(node.getStart(source)) + 1
      figures.functions.push({ file, name: inside, lines })
    }
    if (isCast(node)) figures.casts.push({ file, line: lineOf(node.getStart(source)) })
    if (ts.isCatchClause(node) && isBareCatch(node)) {
      figures.bareCatches.push({
        file,
        function: outer ?? '(top level)',
        line: lineOf(node.getStart(source)),
        commented: hasCommentInside(node.block, text),
      })
    }
    ts.forEachChild(node, (child) => visit(child, inside))
  }
  visit(source, undefined)
  return figures
}

/** The figures of every source file under `root`/src. */
export function measureSources(root: string): SourceFigures {
  const all: SourceFigures = { files: [], functions: [], casts: [], bareCatches: [] }
  for (const file of sourceFiles(root)) {
    const one = measureFile(root, file)
    all.files.push(...one.files)
    all.functions.push(...one.functions)
    all.casts.push(...one.casts)
    all.bareCatches.push(...one.bareCatches)
  }
  return all
}

/**
 * The room of a source path, as docs/architecture.md names them: `src/main/<folder>` for a folder
 * of main, `src/main/server*.ts` and `src/main/cli*.ts` for those file families, the file itself
 * for another top-level file of main, else `src/<folder>`.
 */
export function roomOf(file: string): string {
  const parts = file.split('/')
  if (parts[0] !== 'src') return parts[0] ?? file
  if (parts[1] !== 'main') return `src/${parts[1]}`
  if (parts.length > 3) return `src/main/${parts[2]}`
  const name = parts[2] ?? ''
  if (name.startsWith('server')) return 'src/main/server*.ts'
  if (name.startsWith('cli')) return 'src/main/cli*.ts'
  return file
}

/**
 * What is wrong with a pinned list against what is measured now: a measured row that has no pin,
 * a pinned row that grew, and a pin that is stale (its row is gone or back under the limit).
 */
export function pinProblems(pins: Pin[], measured: Pin[], what: string): string[] {
  const key = (file: string, name: string): string => `${file} ${name}`
  const now = new Map(measured.map(([file, name, n]) => [key(file, name), n]))
  const pinned = new Map(pins.map(([file, name, n]) => [key(file, name), n]))
  const problems: string[] = []
  for (const [row, n] of now) {
    const limit = pinned.get(row)
    if (limit === undefined) problems.push(`new ${what}: ${row} (${n})`)
    else if (n > limit) problems.push(`${what} grew: ${row} (${limit} -> ${n})`)
  }
  for (const [row, n] of pinned)
    if (!now.has(row))
      problems.push(`stale pin, remove it: ${row} (${n}, now gone or within the rule)`)
  return problems
}
