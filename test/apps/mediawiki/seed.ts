/**
 * The seed data every instance starts with: the same users and pages, in the same order, so page
 * ids and titles are the same on every start.
 */

/** The administrator the installer creates; the workflows sign in as this user. */
export const ADMIN = { name: 'Admin', password: 'Sitecall-Wiki-2024' }

/** Pages imported after install, in order (page ids follow the order; Main Page is id 1). */
export const SEED_PAGES: Array<{ title: string; text: string }> = [
  { title: 'Meeting Notes', text: 'Notes from the weekly meeting.\n\n* Budget review\n* Roadmap' },
  { title: 'Retro Notes', text: 'What went well and what did not, sprint by sprint.' },
  { title: 'Planning Notes', text: 'Quarterly planning: goals and owners.' },
  { title: 'Standup Notes', text: 'Daily standup: yesterday, today, blockers.' },
  { title: 'Book Club', text: 'We read one book a month. Next: The Left Hand of Darkness.' },
  { title: 'Garden Plan', text: 'Tomatoes along the south fence, herbs by the door.' },
  { title: 'Garden Tools', text: 'Spade, rake, hose, two pairs of gloves.' },
  { title: 'Kitchen Rota', text: 'Monday: Ada. Tuesday: Grace. Wednesday: Linus.' },
  { title: 'Kitchen Supplies', text: 'Coffee, tea, oat milk, dish soap.' },
  { title: 'Bicycle Repair', text: 'How to fix a flat: levers, patch kit, pump.' },
  { title: 'Bicycle Routes', text: 'The river loop is 24 km; the hill route is 31 km.' },
  { title: 'Lunar Calendar', text: 'Full moons of the year, with their old names.' },
  { title: 'Lunar Eclipse', text: 'How a lunar eclipse happens and when to watch the next one.' },
  { title: 'Old Draft', text: 'A draft nobody finished. Safe to delete.' },
  { title: 'Unused Draft', text: 'Another abandoned draft.' },
  { title: 'Spare Draft', text: 'A spare draft kept for testing deletion.' },
  { title: 'Holiday Schedule', text: 'Office closed on public holidays; see the team calendar.' },
  { title: 'Onboarding Guide', text: 'Welcome! Start with the handbook and set up your laptop.' },
]
