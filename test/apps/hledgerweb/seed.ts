/**
 * The seed of hledger-web: one household's journal for the first quarter of 2026 (27
 * transactions over checking, savings, cash and a credit card), written to the instance's
 * `main.journal` before the server starts, and the two journals the upload workflow sends.
 * Descriptions are chosen so each month and each expense account has entries no other one has
 * (the read workflows' checks tell them apart by description).
 */

/** Where the journal lives as hledger-web sees it (a private mount, see server.ts). */
export const JOURNAL_DIR = '/home/sam/finance'
/** The journal's absolute path, as hledger-web names it in its /edit, /upload, /download URLs. */
const JOURNAL_PATH = `${JOURNAL_DIR}/main.journal`
/** `JOURNAL_PATH` as one URL path segment (hledger-web percent-encodes the slashes). */
export const JOURNAL_SEGMENT = encodeURIComponent(JOURNAL_PATH)

/** The seeded journal, in hledger's journal format (amounts in EUR, commodity on the right). */
export const SEED_JOURNAL = `; Household books of Sam Keller, first quarter of 2026

2026-01-01 Opening balance
    assets:bank:checking        2400.00 EUR
    assets:bank:savings         5000.00 EUR
    assets:cash                  150.00 EUR
    equity:opening

2026-01-02 Landlord Mueller
    expenses:rent                950.00 EUR
    assets:bank:checking

2026-01-05 Grocery Mart
    expenses:food:groceries       54.20 EUR
    assets:bank:checking

2026-01-09 Cafe Central
    expenses:food:dining           4.80 EUR
    assets:cash

2026-01-12 Stadtwerke Power
    expenses:utilities            62.00 EUR
    assets:bank:checking

2026-01-16 Trattoria Roma
    expenses:food:dining          38.50 EUR
    liabilities:creditcard

2026-01-23 Grocery Mart
    expenses:food:groceries       71.35 EUR
    assets:bank:checking

2026-01-28 Acme Corp Salary
    assets:bank:checking        3100.00 EUR
    income:salary

2026-01-30 Monthly transit pass
    expenses:transport            49.00 EUR
    assets:bank:checking

2026-02-02 Landlord Mueller
    expenses:rent                950.00 EUR
    assets:bank:checking

2026-02-04 Farmers Market
    expenses:food:groceries       23.10 EUR
    assets:cash

2026-02-08 Cafe Central
    expenses:food:dining           5.20 EUR
    assets:cash

2026-02-11 Stadtwerke Power
    expenses:utilities            58.40 EUR
    assets:bank:checking

2026-02-14 Sushi Bar Kaito
    expenses:food:dining          46.00 EUR
    liabilities:creditcard

2026-02-19 Grocery Mart
    expenses:food:groceries       66.90 EUR
    assets:bank:checking

2026-02-24 Pharmacy Linden
    expenses:health               12.75 EUR
    assets:bank:checking

2026-02-27 Acme Corp Salary
    assets:bank:checking        3100.00 EUR
    income:salary

2026-02-28 Transfer to savings
    assets:bank:savings          500.00 EUR
    assets:bank:checking

2026-03-02 Landlord Mueller
    expenses:rent                950.00 EUR
    assets:bank:checking

2026-03-03 Monthly transit pass
    expenses:transport            49.00 EUR
    assets:bank:checking

2026-03-06 Cafe Central
    expenses:food:dining           4.80 EUR
    assets:cash

2026-03-10 Credit card payment
    liabilities:creditcard        84.50 EUR
    assets:bank:checking

2026-03-12 Grocery Mart
    expenses:food:groceries       58.60 EUR
    assets:bank:checking

2026-03-14 Hardware Store Obi
    expenses:household            31.90 EUR
    liabilities:creditcard

2026-03-18 Cinema Odeon
    expenses:fun                  24.00 EUR
    liabilities:creditcard

2026-03-20 Pharmacy Linden
    expenses:health                8.40 EUR
    assets:cash

2026-03-27 Acme Corp Salary
    assets:bank:checking        3100.00 EUR
    income:salary
`

/** A journal with the seed plus one transaction described `description` (an upload's file). */
function journalWith(description: string, amount: string): Uint8Array {
  const extra = `\n2026-03-30 ${description}\n    expenses:household    ${amount}\n    assets:cash\n`
  return new TextEncoder().encode(SEED_JOURNAL + extra)
}

/** The file the person uploads: the seed plus "Bookshop Thalia". */
export const UPLOADED_JOURNAL = journalWith('Bookshop Thalia', '19.90 EUR')
/** The other file the working-tools check uploads: the seed plus "Garden Center Flora". */
export const OTHER_JOURNAL = journalWith('Garden Center Flora', '27.45 EUR')
/** The descriptions only the two uploaded files hold. */
export const UPLOAD_MARKERS = ['Bookshop Thalia', 'Garden Center Flora']
