import { describe, expect, it } from 'vitest'
import { namesPlace } from '../../../src/main/intent/place'

// Golden examples: [intent, value, names a place]. A place is a name that modifies a common noun
// inside a locative phrase; what the act is about is said after its noun, after the verb, or as
// what a thing is called.
const GOLDEN: Array<[string, string, boolean]> = [
  [
    'delete the customer Emmy Noether from the customers table of the shop database',
    'customers',
    true,
  ],
  ['delete the customer Emmy Noether from the customers table of the shop database', 'shop', true],
  [
    'delete the customer Emmy Noether from the customers table of the shop database',
    'Emmy Noether',
    false,
  ],
  ['show me the rows of the products table in the shop database', 'products', true],
  ['export the orders table of the shop database as CSV', 'orders', false],
  ['change the price of the Fountain Pen in the shop products table to 27.50', 'products', true],
  [
    'change the price of the Fountain Pen in the shop products table to 27.50',
    'Fountain Pen',
    false,
  ],
  ['find the customers in the city Paris in the shop database', 'Paris', false],
  ['import the SQL file new-customers.sql into the shop database', 'shop', true],
  ['add a text column called supplier to the products table', 'supplier', false],
  ['create a new database called inventory', 'inventory', false],
  ['search for tomato in our Recipes category', 'Recipes', true],
  ['rename the Tech category to Science', 'Tech', false],
  ['list the shop products', 'shop', false],
]

describe('namesPlace', () => {
  it.each(GOLDEN)('%s: %s → %s', (intent, value, place) => {
    expect(namesPlace(intent, value)).toBe(place)
  })

  it('needs every mention to be a place', () => {
    expect(namesPlace('open shop, then list the orders in the shop database', 'shop')).toBe(false)
  })

  it('is false for a value the intent does not mention, or one without words', () => {
    expect(namesPlace('list the orders in the shop database', 'warehouse')).toBe(false)
    expect(namesPlace('list the orders in the shop database', '---')).toBe(false)
  })
})
