// What the document prints for numbers, units, flags, planner codes and names the fonts cannot show.
import t from 'tap';
import {
  formatDecimal,
  formatLength,
  formatPercent,
  formatSize,
  formatTotalWeight,
  formatWeight,
} from '../../src/packing-instructions/lane-units.js';
import { formatUtc } from '../../src/packing-instructions/order-header.js';
import { looseBoxRotation } from '../../src/packing-instructions/submitted-cargo-tables.js';
import { describeUnplacedKind, describeUnplacedReason } from '../../src/packing-instructions/unplaced-reasons.js';
import { fontName, fontRuns } from '../../src/packing-instructions/unicode-fonts.js';

t.test('lengths and weights in the lane units', async (t) => {
  t.equal(formatLength(1144, 'mm'), '1144');
  t.equal(formatLength(1144, 'cm'), '114.4');
  t.equal(formatLength(1200, 'in'), '47.2');
  t.equal(formatSize(1200, 800, 1144, 'cm'), '120 x 80 x 114.4');
  t.equal(formatWeight(217_000, 'kg'), '217');
  t.equal(formatWeight(18_550, 'kg'), '18.6');
  t.equal(formatWeight(250, 'kg'), '0.25', 'light cartons keep two decimals');
  t.equal(formatWeight(217_000, 'lb'), '478.4');
  t.equal(formatTotalWeight(1_779_750, 'kg'), '1,779.8 kg');
  t.equal(formatPercent(0.0925), '9.3%');
});

t.test('submitted decimals lose their padding', async (t) => {
  t.equal(formatDecimal('120.000000'), '120');
  t.equal(formatDecimal('120.500000'), '120.5');
  t.equal(formatDecimal('0.250000'), '0.25');
  t.equal(formatDecimal('1200'), '1200');
  t.equal(formatDecimal('n/a'), 'n/a');
});

t.test('timestamps print as UTC to the second', async (t) => {
  t.equal(formatUtc('2026-11-20T09:15:02.123456'), '2026-11-20 09:15:02 UTC');
  t.equal(formatUtc(new Date('2026-11-20T10:00:00.000Z')), '2026-11-20 10:00:00 UTC');
});

t.test('loose-box rotation flags name the behaviour of spec 2.6', async (t) => {
  const flags = (x: boolean, y: boolean, z: boolean) => looseBoxRotation({ rotation_x: x, rotation_y: y, rotation_z: z });
  t.equal(flags(true, true, true), 'Any orientation');
  t.equal(flags(false, false, false), 'No rotation');
  t.equal(flags(true, false, false), 'Turn on the floor only');
  t.equal(flags(false, true, false), 'Limited tilt only');
  t.equal(flags(true, true, false), 'Rotation x yes, y yes, z no');
});

t.test('planner codes read as sentences; unknown ones still show', async (t) => {
  t.equal(describeUnplacedReason('out_of_containers'), 'No room left in the containers of the order.');
  t.equal(describeUnplacedReason('some_new_reason'), 'some new reason');
  t.equal(describeUnplacedKind('unit'), 'SKU units');
  t.equal(describeUnplacedKind('pre_built'), 'Pre-built pallet');
});

t.test('text is split into runs of one font each, the first font that has the character', async (t) => {
  const runs = (text: string) => fontRuns(text).map((r) => [r.text, fontName(r.family, false), r.rightToLeft]);
  t.same(runs('PO-1 Müller & Søn'), [['PO-1 Müller & Søn', 'NotoSans', false]]);
  t.same(
    runs('PO-日本-1'),
    [
      ['PO-', 'NotoSans', false],
      ['日本-1', 'NotoSansJP', false],
    ],
    'digits and dashes stay with the run they follow',
  );
  t.same(runs('ООО Ромашка'), [['ООО Ромашка', 'NotoSans', false]], 'Cyrillic is in the first font');
  t.same(runs('Al Waha شركة الواحة'), [
    ['Al Waha ', 'NotoSans', false],
    ['شركة الواحة', 'NotoSansArabic', true],
  ]);
  t.same(runs('서울 무역'), [['서울 무역', 'NotoSansKR', false]]);
  t.same(runs('东莞贸易有限公司'), [['东莞贸易有限公司', 'NotoSansSC', false]], 'simplified Chinese the Japanese font lacks, in one font');
  t.same(runs('a\tb\u0007c'), [['a b?c', 'NotoSans', false]], 'tabs print as spaces, control characters as "?"');
  t.same(runs('\u{10FFFD}x'), [['?x', 'NotoSans', false]], 'a character no font has prints as "?"');
});
