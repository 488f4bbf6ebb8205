/**
 * Shows what the compiler makes of one stored workflow: the candidate's steps, inputs and
 * top alternatives, next to the answer key. Run: `npx tsx test/apps/show.ts app/workflow [har]`.
 */
import { compileStored, judge, loadStoredWorkflows } from './corpus'

async function main(): Promise<void> {
  const [ref, which] = process.argv.slice(2)
  const [appName, id] = (ref ?? '').split('/')
  const entry = (await loadStoredWorkflows([appName!])).find((e) => e.workflow.id === id)
  if (!entry) throw new Error(`no workflow ${ref}`)
  const path = which === 'har' ? 'har' : 'recording'
  const result = compileStored(entry, path)
  const { key } = entry.workflow
  console.log('intent:', entry.workflow.intent)
  console.log(
    'key target:',
    key.target,
    'inputs:',
    key.inputs.map((i) => i.recorded),
    'deps:',
    key.dependencies,
    'mutating:',
    key.mutating,
  )
  if (!result) return console.log('not recorded')
  if (!result.ok) return console.log(JSON.stringify(result.explanation, null, 1).slice(0, 3000))
  const tool = result.candidate
  console.log(
    'name:',
    tool.name,
    'mutating:',
    tool.mutating,
    'score:',
    tool.evidence.score,
    'confidence:',
    tool.evidence.confidence,
  )
  for (const s of tool.steps)
    console.log(
      'step',
      s.id,
      s.request.method,
      s.request.url,
      JSON.stringify(s.request.body)?.slice(0, Number(process.env.SHOW_BODY ?? 300)),
      JSON.stringify(s.extract),
    )
  console.log('inputs:', JSON.stringify(tool.inputs.properties, null, 0).slice(0, 1500))
  console.log(
    'signals:',
    tool.evidence.signals.map((s) => `${s.name}:${s.weight} ${s.detail}`).join('\n  '),
  )
  console.log(
    'alternatives:\n  ' +
      tool.evidence.alternatives
        .slice(0, 6)
        .map((a) => `${a.score} ${a.method} ${a.url.slice(0, 120)} (${a.reason})`)
        .join('\n  '),
  )
  console.log('verify:', JSON.stringify(tool.verify).slice(0, 300))
  console.log('verdict:', judge(result, key).problems)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
