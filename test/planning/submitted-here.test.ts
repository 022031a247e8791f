// The orders whose submit this process took (src/planning/submitted-here.ts): remembered until asked,
// and bounded.
import t from 'tap';
import { SubmittedHere } from '../../src/planning/submitted-here.js';

t.test('an order is submitted here until asked once; others never were', async (t) => {
  const here = new SubmittedHere();
  here.add(7);
  t.notOk(here.checkOff(8), 'an id never added');
  t.ok(here.checkOff(7), 'the id added');
  t.notOk(here.checkOff(7), 'forgotten once asked');
  t.equal(here.size, 0);
});

t.test('past its bound the oldest ids go first', async (t) => {
  const here = new SubmittedHere(3);
  for (const id of [1, 2, 3, 4]) here.add(id);
  t.equal(here.size, 3);
  t.notOk(here.checkOff(1), 'the oldest was dropped');
  t.ok(here.checkOff(2) && here.checkOff(3) && here.checkOff(4), 'the newest three kept');
});
