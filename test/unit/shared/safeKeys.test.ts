import { afterEach, describe, expect, it } from 'vitest'
import { applyChanges } from '../../../src/shared/jsonChanges'
import { parsePath, valueAt, valuesAt } from '../../../src/shared/jsonPath'
import { isUnsafeKey, ownValue, setOwn, unsafeSegment } from '../../../src/shared/safeKeys'
import { applySelect } from '../../../src/main/api/select'
import { holds } from '../../../src/main/engine/outcome'
import { valueAt as embeddedValueAt } from '../../../src/main/compiler/embeddedData'

/** True when something wrote through a prototype during the test. */
const polluted = () =>
  'polluted' in {} || 'polluted' in Object.prototype || 'polluted' in Array.prototype

afterEach(() => {
  // A failing test must not leave the process polluted for the next one.
  delete (Object.prototype as Record<string, unknown>)['polluted']
})

describe('unsafe keys', () => {
  it('names the three keys that lead into a prototype, and no others', () => {
    expect(['__proto__', 'prototype', 'constructor'].every(isUnsafeKey)).toBe(true)
    expect(['proto', '__proto', 'Constructor', 'toString', 'x'].some(isUnsafeKey)).toBe(false)
  })

  it('finds an unsafe segment however a path writes it', () => {
    expect(unsafeSegment('__proto__.x')).toBe('__proto__')
    expect(unsafeSegment('a.constructor.prototype.x')).toBe('constructor')
    expect(unsafeSegment('a["__proto__"]')).toBe('__proto__')
    expect(unsafeSegment('items[?constructor==x].id')).toBe('constructor')
    expect(unsafeSegment('data[0].title')).toBeNull()
  })

  it('reads own properties only', () => {
    expect(ownValue({}, '__proto__')).toBeUndefined()
    expect(ownValue({}, 'toString')).toBeUndefined()
    expect(ownValue({ a: 1 }, 'a')).toBe(1)
    expect(ownValue([5, 6], 1)).toBe(6)
    expect(ownValue(JSON.parse('{"__proto__": {"x": 1}}'), '__proto__')).toBeUndefined()
  })

  it('sets a key named __proto__ as data, never as the prototype', () => {
    const target: Record<string, unknown> = {}
    setOwn(target, '__proto__', { polluted: true })
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype)
    expect(Object.keys(target)).toEqual(['__proto__'])
  })
})

describe('walkers refuse a path through a prototype', () => {
  it('a tool path with __proto__, prototype or constructor is no path', () => {
    for (const path of [
      '__proto__.polluted',
      'a.constructor.prototype',
      '["__proto__"].polluted',
      'list[?__proto__==x]',
      'list[?a.constructor==x]',
    ])
      expect(parsePath(path), path).toBeNull()
    expect(valuesAt({}, '__proto__')).toEqual([])
    expect(valueAt({ a: {} }, 'a.constructor')).toBeUndefined()
    expect(parsePath('a.b[0]')).not.toBeNull()
  })

  it('a based body change cannot write through __proto__ or constructor', () => {
    for (const path of [
      '__proto__.polluted',
      'constructor.prototype.polluted',
      'a.__proto__.polluted',
    ]) {
      const result = applyChanges({ a: {} }, [{ path, op: 'set', value: 'yes' }], {}, (v) => v)
      expect(result.ok, path).toBe(false)
    }
    const appended = applyChanges(
      {},
      [{ path: 'toString', op: 'append', value: 'x' }],
      {},
      (v) => v,
    )
    expect(appended).toEqual({ ok: true, value: { toString: ['x'] } })
    expect(polluted()).toBe(false)
  })

  it('a verify rule holds no field that only a prototype has', () => {
    expect(holds({}, 'toString', 'object')).toBe(false)
    expect(holds({}, '__proto__', 'object')).toBe(false)
    expect(holds({ a: 'x' }, 'a', 'string')).toBe(true)
  })

  it('embedded page data is read by own keys only', () => {
    expect(embeddedValueAt({ a: {} }, 'a.constructor')).toBeUndefined()
    expect(embeddedValueAt({ a: { b: 2 } }, 'a.b')).toBe(2)
  })

  it('select keeps a site key named __proto__ as data', () => {
    const answer = JSON.parse('{"data": {"__proto__": {"polluted": 1}, "b": 2}}') as unknown
    const { value } = applySelect(answer, ['data.b', 'data.{__proto__}'])
    expect(JSON.stringify(value)).toBe('{"data":{"b":2,"__proto__":{"polluted":1}}}')
    expect(polluted()).toBe(false)
  })
})
