// Product names from `simple-icons` (issue 10: an app no tool is on is no tool's site).
import { describe, expect, it } from 'vitest'
import { isProductName } from '../../../src/main/router/meaning/products'

describe('isProductName', () => {
  it('knows products whose names are English words, in any case', () => {
    for (const name of ['Notion', 'medium', 'BOX', 'Ghost', 'Obsidian', 'Google Drive'])
      expect(isProductName(name)).toBe(true)
    // (One it no longer lists, and a plural name said in the singular.)
    expect([isProductName('Bear'), isProductName('Google Doc')]).toEqual([true, true])
  })

  it("knows a vendor's products by their short names", () => {
    // (Google Colab, Google Keep: Google names a family of products.)
    expect([isProductName('Colab'), isProductName('Keep')]).toEqual([true, true])
  })

  it('knows no everyday word or phrase that names no product', () => {
    for (const name of ['budget', 'weekly goals', 'the', 'drive google'])
      expect(isProductName(name)).toBe(false)
  })
})
