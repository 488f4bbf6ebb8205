import { describe, expect, it } from 'vitest'
import { queryParam } from '../../../src/shared/queryParam'

describe('queryParam', () => {
  it('gives a parameter of a parsed query as it is: a string, or an array when repeated', () => {
    const query = { wait: '12', apps: ['a', 'b'] }
    expect(queryParam(query, 'wait')).toBe('12')
    expect(queryParam(query, 'apps')).toEqual(['a', 'b'])
  })

  it('gives undefined for an absent parameter and for a query that is not an object', () => {
    expect(queryParam({ wait: '1' }, 'token')).toBeUndefined()
    expect(queryParam(undefined, 'token')).toBeUndefined()
    expect(queryParam(null, 'token')).toBeUndefined()
    expect(queryParam('token=x', 'token')).toBeUndefined()
  })
})
