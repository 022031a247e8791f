import t from 'tap';
import { CargoColours, MIXED_PALLET_COLOUR, paletteColour, rowName } from '../../src/packing-instructions/cargo-colours.js';

t.test('colours are handed out in order of first appearance and kept', async (t) => {
  const colours = new CargoColours();
  const a = colours.of('sku', 'SKU-1');
  const b = colours.of('pre_built', 'SKU-1');
  t.not(a, b, 'a pre-built named like a SKU is another cargo');
  t.equal(colours.of('sku', 'SKU-1'), a);
  t.equal(a, paletteColour(0));
  t.equal(b, paletteColour(1));
});

t.test('colours stay distinct past the palette', async (t) => {
  const seen = new Set(Array.from({ length: 60 }, (_, i) => paletteColour(i)));
  t.equal(seen.size, 60);
  for (const c of seen) t.match(c, /^#[0-9a-f]{6}$/);
});

t.test('a pallet wears its SKU colour, a mixed pallet grey', async (t) => {
  const colours = new CargoColours();
  const unit = (sku: string) => ({ sku, purchase_order: '', line_item_number: '', x: 0, y: 0, z: 0, l: 1, w: 1, h: 1 });
  const pallet = (skus: string[]) => ({
    pallet_index: 'AP1',
    pallet_code: 'EUR',
    length_mm: 1200,
    width_mm: 800,
    height_mm: 1000,
    weight_g: 1,
    units: skus.map(unit),
    layers: [],
    contents: [],
  });
  t.equal(colours.pallet(pallet(['A', 'A'])), colours.of('sku', 'A'));
  t.equal(colours.pallet(pallet(['A', 'B'])), MIXED_PALLET_COLOUR);
  t.equal(rowName('Big crate #12'), 'Big crate');
  t.equal(rowName('Crate #1 #3'), 'Crate #1');
});
