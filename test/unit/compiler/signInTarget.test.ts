import { describe, expect, it } from 'vitest'
import { compileTrace } from '../../../src/main/compiler'
import { SECRET_PLACEHOLDER } from '../../../src/shared/trace'
import { options } from './noise'
import { traceBuilder } from './traceBuilder'

const orders = {
  orders: [
    { id: 'A-1', item: 'Teapot' },
    { id: 'A-2', item: 'Kettle' },
  ],
}
const page = { type: 'document', mime: 'text/html' }

/** The demo shop's "list my orders": sign in on /orders/login, then the orders page loads its list. */
function signInThenList(password: string, recorded: boolean) {
  const b = traceBuilder('https://shop.example.com')
  if (recorded)
    b.fill('alice', { name: 'username', label: 'Username' })
      .fill(null, { name: 'password', label: 'Password', secret: true })
      .submit()
  return b
    .exchange('POST', '/orders/login', {
      ...page,
      form: `username=alice&password=${encodeURIComponent(password)}`,
      status: 302,
      responseText: '',
    })
    .exchange('GET', '/orders', { ...page, responseText: '<h1>Your orders</h1>' })
    .exchange('GET', '/orders/api/orders', { response: orders })
    .build('list my orders')
}

describe('a sign-in before a read', () => {
  it('is never the target of a recorded read, though it carries what was typed', () => {
    const result = compileTrace(signInThenList(SECRET_PLACEHOLDER, true), options)
    if (!result.ok) throw new Error(result.explanation.reason)
    const target = result.candidate.steps.at(-1)!.request
    expect(`${target.method} ${target.url}`).toBe('GET https://shop.example.com/orders/api/orders')
    expect(result.candidate.evidence.alternatives.map((a) => a.method)).not.toContain('POST')
  })

  it('is never the target of a read from a plain HAR that kept the password', () => {
    // The intent names the user the sign-in sends: the read carries nothing of it.
    const intent = 'list the orders for alice'
    const trace = { ...signInThenList('wonderland', false), intent }
    const result = compileTrace(trace, { ...options, intent })
    if (!result.ok) throw new Error(result.explanation.reason)
    expect(result.candidate.steps.at(-1)!.request.url).toBe(
      'https://shop.example.com/orders/api/orders',
    )
  })

  it('stays the target of an intent that signs in', () => {
    const trace = { ...signInThenList(SECRET_PLACEHOLDER, true), intent: 'sign in to the shop' }
    const result = compileTrace(trace, { ...options, intent: 'sign in to the shop' })
    if (!result.ok) throw new Error(result.explanation.reason)
    expect(result.candidate.steps.at(-1)!.request.method).toBe('POST')
  })
})
