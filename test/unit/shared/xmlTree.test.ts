/** The JSON view of XML answers that tools' paths read (src/shared/xmlTree.ts). */
import { describe, expect, it } from 'vitest'
import { textAt } from '../../../src/shared/jsonPath'
import { isXmlMediaType, xmlTree } from '../../../src/shared/xmlTree'

describe('xmlTree', () => {
  it('makes records of elements with attributes or children, always as lists', () => {
    const tree = xmlTree(
      '<?xml version="1.0"?><root ok="1"><items><item id="7"><title>One</title></item></items></root>',
    )
    expect(tree).toEqual({ root: [{ ok: '1', items: [{ item: [{ id: '7', title: 'One' }] }] }] })
    // A list of one record reads like a list of many.
    expect(textAt(tree, 'root[0].items[0].item[?title==One].id')).toBe('7')
  })

  it('keeps text-only elements as strings (a list when repeated), CDATA and entities decoded', () => {
    const tree = xmlTree(
      '<r><tag>a &amp; b</tag><tag>c</tag><note><![CDATA[<hi>]]></note><c id="1">Family</c></r>',
    )
    expect(tree).toEqual({
      r: [{ tag: ['a & b', 'c'], note: '<hi>', c: [{ id: '1', '#text': 'Family' }] }],
    })
  })

  it('drops names that would reach an object prototype, and reads nothing from non-XML', () => {
    expect(xmlTree('<r><__proto__>x</__proto__><ok>y</ok></r>')).toEqual({ r: [{ ok: 'y' }] })
    expect(xmlTree('plain text')).toBeUndefined()
    expect(xmlTree('')).toBeUndefined()
  })

  it('knows XML media types from HTML', () => {
    expect(isXmlMediaType('text/xml')).toBe(true)
    expect(isXmlMediaType('application/atom+xml')).toBe(true)
    expect(isXmlMediaType('application/xhtml+xml')).toBe(false)
    expect(isXmlMediaType('text/html')).toBe(false)
  })
})
