// The planner's wire layout: the one description of every job the host (src/planner/) writes into the
// WebAssembly planner (assembly/) and of every answer it reads back. scripts/planner-wire/generate.js
// writes both ends from it: assembly/wire-layout.ts (the readers of each input, the writers of each
// answer's records, the codes) and src/planner/wasm-wire.ts (the writers of each input, the readers of
// each answer, the same codes). Change a job here, run `npm run wire:generate`, and both ends change
// together; test/planner/wire-layout.test.ts fails while either generated file differs from what this
// gives, and runs every job to see that each end reads exactly what the other wrote.
//
// Everything on the wire is an i32. A job's input is the elements of its layout in order; its answer
// is one i32 array whose first element is its own length, then the elements of the answer's layout.
// Field types:
// - 'i32': a whole number; `clamp` (host side): rounded and held to 0 ... 2^31 - 1 (a size beyond i32
//   fits nothing anyway), else written as Int32Array.from writes a number;
// - 'bool': 0 or 1;
// - 'i32?': a whole number, -1 for none (the host's undefined), clamped like `clamp` when there;
// - { record: 'R' }: R's fields, inline;
// - { list: 'R' } or { list: 'i32' }: a count, then that many Rs (or numbers);
// - { optional: 'R' }: 0 for none, else 1 and an R.
// `checks: true` marks a job only the tests' build of the planner has (build/planner-checks.wasm,
// assembly/checks/index.ts): the service's build exports none of them.

/** Codes that cross the wire: each value's name on each side. */
export const codes = [
  {
    name: 'StackPolicy',
    doc: "What may stand on a box type's top.",
    ts: { enum: 'StackPolicy' },
    values: [
      {
        value: 0,
        as: 'POLICY_FREE',
        ts: 'Free',
        doc: 'Its top joins the level it reaches: anything may stand on it (cartons in BR, units on a pallet).',
      },
      {
        value: 1,
        as: 'POLICY_BASE',
        ts: 'Base',
        doc: 'Its top carries items flagged double_stacked_top of its stack class, one tier only.',
      },
      { value: 2, as: 'POLICY_NONE', ts: 'None', doc: 'Nothing stands on it.' },
    ],
  },
  {
    name: 'SearchExit',
    doc: 'How a block search ended, counted per job for the host (the export searchExits(kind)).',
    ts: { names: 'SEARCH_EXITS' },
    count: 'EXIT_KINDS',
    values: [
      {
        value: 0,
        as: 'EXIT_ALL_PLACED',
        ts: 'all_placed',
        doc: 'Every unit of the root is placed: no load can be worth more, so the search returns at once.',
      },
      { value: 1, as: 'EXIT_EFFORT', ts: 'effort', doc: 'The effort budget ran out.' },
      { value: 2, as: 'EXIT_WIDEST_BEAM', ts: 'widest_beam', doc: 'The widest beam allowed ran to its end.' },
      { value: 3, as: 'EXIT_TIME_LIMIT', ts: 'time_limit', doc: 'The deadline passed.' },
    ],
  },
  {
    name: 'LoadReason',
    doc: "Why the container loader left a cargo type's items behind (the plan's unplaced reasons); where several hold, the loader names the highest.",
    ts: { names: 'LOAD_REASONS' },
    values: [
      { value: 0, as: 'FITS', ts: 'fits', doc: 'It fits some container type: whatever is left was out of containers.' },
      {
        value: 1,
        as: 'TOO_LARGE_FOR_EVERY_TYPE',
        ts: 'too_large_for_every_type',
        doc: 'No container type it may go into takes it in any orientation it may take.',
      },
      { value: 2, as: 'OVER_PAYLOAD', ts: 'over_payload', doc: 'Heavier than the payload of every type it fits.' },
      { value: 3, as: 'OUT_OF_CONTAINERS', ts: 'out_of_containers', doc: 'It fits, but the containers offered were used up.' },
      { value: 4, as: 'OVER_ROAD_GROSS', ts: 'over_road_gross', doc: "Heavier than what the road's gross leaves every type it fits." },
      {
        value: 5,
        as: 'OVER_AXLE_LIMITS',
        ts: 'over_axle_limits',
        doc: 'No place along any container it fits keeps the axles within their limits.',
      },
    ],
  },
];

/**
 * Orientation masks of a box type: bit o allows orientation o (assembly/cargo.ts orientedX/Y/Z): 0, 1 keep
 * h vertical; 2, 3 stand it on w; 4, 5 on l.
 */
export const masks = [
  { name: 'FIXED_ORIENTATION', value: 0b000001, doc: 'As given.' },
  { name: 'UPRIGHT_ORIENTATIONS', value: 0b000011, doc: 'Its height vertical, turned in the plane.' },
  { name: 'ANY_ORIENTATION', value: 0b111111, doc: 'Any of the six.' },
];

const field = (name, type, doc, more = {}) => ({ name, type, doc, ...more });
const clamped = (name, doc) => field(name, 'i32', doc, { clamp: true });

/** Records: the parts jobs and answers are made of. */
export const records = {
  Limits: {
    doc: "A search's limits.",
    fields: [
      field('timeLimitMs', 'i32', 'Time limit in ms; 0: none (the effort alone bounds the search).'),
      field('effort', 'i32', 'Greedy placements allowed per search; 0: none.'),
    ],
  },
  BoxType: {
    doc: 'One type of box: a SKU unit, a pallet, a pre-built pallet, a carton type.',
    fields: [
      clamped('l', 'Length, mm.'),
      clamped('w', 'Width, mm.'),
      clamped('h', 'Height, mm.'),
      clamped('weightG', 'Weight of one box, g.'),
      clamped('count', 'How many boxes of the type.'),
      field('orientations', 'i32', 'The orientations it may take: a mask, bit o for orientation o (FIXED_ORIENTATION ...).'),
      field('policy', 'i32', 'What may stand on it.', { code: 'StackPolicy' }),
      field('canTop', 'bool', 'It may stand on a box of policy Base (a double-stack top).'),
      field('stackClass', 'i32', 'A top stands only on a base of its own class (pallets on pallets, cartons on cartons).'),
      field('maxLoadG', 'i32?', 'The most one box may carry above it, g (0: nothing); none: no limit.', { clamp: true }),
    ],
  },
  Box: {
    doc: 'A placed box, bottom layer first so that its support comes before it.',
    fields: [
      field('type', 'i32', "The index of its type among the input's box types (of its SKU, for the layer stacks)."),
      field('x', 'i32', 'Position along the length, mm.'),
      field('y', 'i32', 'Position across, mm.'),
      field('z', 'i32', 'Height of its bottom, mm.'),
      field('l', 'i32', 'Its extent along x, mm.'),
      field('w', 'i32', 'Its extent along y, mm.'),
      field('h', 'i32', 'Its extent along z, mm.'),
    ],
  },
  PalletLoad: {
    doc: 'One pallet of the palletizer, its units as boxes on the deck.',
    fields: [field('boxes', { list: 'Box' }, 'Its boxes.')],
  },
  Road: {
    doc: "A container type's road (docs/road-profiles.md): grams and millimetres, positions from the inside of its front wall.",
    fields: [
      field('grossLimitG', 'i32', 'Gross weight limit.'),
      field('steerTareG', 'i32', "The tractor's steer axle unladen."),
      field('driveTareG', 'i32', "The tractor's drive axles unladen."),
      field('wheelbaseMm', 'i32', "The tractor's wheelbase."),
      field('fifthWheelMm', 'i32', 'The fifth wheel ahead of the drive axles.'),
      field('steerLimitG', 'i32', 'Steer axle limit.'),
      field('driveLimitG', 'i32', 'Drive axles limit.'),
      field('driveMinShareMillionths', 'i32', "The drive axles' least share of the gross, in millionths."),
      field('chassisTareG', 'i32', "The chassis' tare."),
      field('chassisCogX', 'i32', "The chassis' centre of gravity."),
      field('kingpinX', 'i32', 'The kingpin.'),
      field('axleGroupX', 'i32', "The chassis' axle group."),
      field('axleGroupLimitG', 'i32', "The axle group's limit."),
      field('containerTareG', 'i32', "The container's tare."),
      field('containerCogX', 'i32', "The container's own centre of gravity."),
    ],
  },
  ContainerType: {
    doc: 'A container type the loader may use.',
    fields: [
      field('l', 'i32', 'Inner length, mm.'),
      field('w', 'i32', 'Inner width, mm.'),
      field('h', 'i32', 'Inner height, mm.'),
      field('payloadG', 'i32', 'Payload, g.'),
      field('count', 'i32', 'How many may be used.'),
      field('road', { optional: 'Road' }, 'The road it travels; none: no road rule.'),
    ],
  },
  LoadedContainer: {
    doc: 'One container the loader filled.',
    fields: [field('type', 'i32', "Its type: an index into the input's container types."), field('boxes', { list: 'Box' }, 'Its load.')],
  },
  CargoLeft: {
    doc: 'What the loader left of one box type.',
    fields: [field('count', 'i32', 'Boxes not loaded.'), field('reason', 'i32', 'Why: a LoadReason code.')],
  },
  PatternBox: {
    doc: "A carton of a layer's pattern, on the layer's floor.",
    fields: [
      field('x', 'i32', 'Position along the deck, mm.'),
      field('y', 'i32', 'Position across, mm.'),
      field('l', 'i32', 'Extent along x, mm.'),
      field('w', 'i32', 'Extent along y, mm.'),
      field('h', 'i32', 'Height, mm (the layer is as tall).'),
    ],
  },
  Pattern: {
    doc: 'One whole layer of a SKU: its guillotine pattern on the deck (one face of the unit up).',
    fields: [field('boxes', { list: 'PatternBox' }, 'Its cartons.')],
  },
  Sku: {
    doc: 'A SKU of the layer stacks.',
    fields: [
      clamped('l', 'Unit length, mm.'),
      clamped('w', 'Unit width, mm.'),
      clamped('h', 'Unit height, mm.'),
      field('upright', 'bool', 'Only its height may be vertical.'),
      clamped('weightG', 'Unit weight, g.'),
      field('maxLoadG', 'i32?', 'The most a unit may carry above it, g; none: no limit.', { clamp: true }),
      clamped('units', 'Units to load.'),
      field('patterns', { list: 'Pattern' }, 'Its layer on each face it may stand on, densest first.'),
    ],
  },
  Choice: {
    doc: 'One choice of layers: per SKU, in input order, the pattern it takes.',
    fields: [field('patterns', { list: 'i32' }, 'Per SKU the index of its pattern; -1 for none.')],
  },
  StackedPallet: {
    doc: 'A pallet of whole layers, and how many such pallets.',
    fields: [
      field('times', 'i32', 'How many pallets exactly like it.'),
      field('boxes', { list: 'Box' }, "Its boxes (type: the SKU's index), bottom layer first."),
    ],
  },
  LayerStacksBuilt: {
    doc: "The best choice's pallets.",
    fields: [
      field('pallets', { list: 'StackedPallet' }, 'Its pallets.'),
      field('rest', { list: 'i32' }, 'Per SKU, in input order, the units not in a whole layer: for the block search.'),
    ],
  },
  LayerKind: {
    doc: "A kind of layer for the layer stacks' knapsack.",
    fields: [
      field('height', 'i32', 'Its height, mm.'),
      field('weightG', 'i32', 'Its weight, g.'),
      field('count', 'i32', 'How many layers of the kind one pallet may take.'),
    ],
  },
  Pick: {
    doc: 'Layers the knapsack took, in the order the best fill first took them.',
    fields: [field('kind', 'i32', "The kind: an index into the input's kinds."), field('layers', 'i32', 'How many of its layers.')],
  },
};

/** The jobs: each one's input and answer, as records of their own. */
export const jobs = [
  {
    name: 'palletize',
    doc: "Palletizing (assembly/palletize.ts): SKU units onto pallets of one type, the block search's pallets.",
    input: [
      field('deckL', 'i32', "The pallet deck's length, mm."),
      field('deckW', 'i32', "The pallet deck's width, mm."),
      field('loadHeight', 'i32', 'Load height: max_height less the pallet, mm.'),
      field('loadWeightG', 'i32', 'Load weight: max_weight less the pallet, g.'),
      field('limits', { record: 'Limits' }, 'Per search; the effort is per pallet.'),
      field('seed', 'i32', 'Breaks ties between blocks that score the same.'),
      field('mostPallets', 'i32', 'The most pallets worth building (a plan the host has beats any larger one); -1: no bound.'),
      field('prune', 'bool', "Builds stop once they cannot win (false: every build runs to its end, the tests' reference)."),
      field('cargo', { list: 'BoxType' }, 'One type per SKU.'),
    ],
    answer: [
      field('deadlineHit', 'bool', "A search met the time limit: the answer is the clock's."),
      field(
        'pallets',
        'i32',
        'Pallets the plan takes; more than mostPallets: no plan within it was found, and the pallets built are partial.',
      ),
      field('built', { list: 'PalletLoad' }, 'The pallets built, in planner order (AP1 first).'),
    ],
  },
  {
    name: 'packContainer',
    doc: "The BR benchmark's job (assembly/pack-container.ts): one container, boxes may be left out.",
    input: [
      field('l', 'i32', 'Inner length, mm.'),
      field('w', 'i32', 'Inner width, mm.'),
      field('h', 'i32', 'Inner height, mm.'),
      field('maxWeightG', 'i32', 'Payload, g; 0: none.'),
      field('limits', { record: 'Limits' }, 'The time limit bounds the whole job (0: one round of searches, each bounded by effort).'),
      field('seed', 'i32', 'Breaks ties between blocks that score the same.'),
      field('cargo', { list: 'BoxType' }, 'The box types.'),
    ],
    answer: [
      field('limited', 'bool', 'A search stopped at its time or effort limit rather than running out of moves.'),
      field('boxes', { list: 'Box' }, 'The load.'),
    ],
  },
  {
    name: 'loadContainers',
    doc: "Container loading (assembly/load-containers.ts): pallets, pre-built pallets and cartons into the order's containers.",
    input: [
      field(
        'limits',
        { record: 'Limits' },
        'The time limit guards the search for a better choice of containers; the effort is not read (floor plans are deterministic).',
      ),
      field('seed', 'i32', 'Not read by the loader (the same reason).'),
      field('containers', { list: 'ContainerType' }, 'The container types offered.'),
      field('cargo', { list: 'BoxType' }, 'The cargo types.'),
    ],
    answer: [
      field('deadlineHit', 'bool', 'The time limit cut a floor plan short or skipped the search for a better choice.'),
      field('containers', { list: 'LoadedContainer' }, 'The containers used, in loading order.'),
      field('left', { list: 'CargoLeft' }, 'Per cargo type, in input order.'),
    ],
  },
  {
    name: 'layerStacks',
    doc: "Mixed pallets of whole layers (assembly/layer-stacks.ts): the layer choices tried, the best one's pallets.",
    input: [
      clamped('deckL', "The pallet deck's length, mm."),
      clamped('deckW', "The pallet deck's width, mm."),
      clamped('loadHeight', 'Load height, mm.'),
      clamped('loadWeightG', 'Load weight, g.'),
      clamped('maxCartons', "The most cartons a filler's columns may hold."),
      clamped('atLeast', 'The least score any choice can have: one that reaches it is not beaten.'),
      field('skus', { list: 'Sku' }, 'The SKUs.'),
      field('choices', { list: 'Choice' }, 'The layer choices to try, in order.'),
    ],
    answer: [field('built', { optional: 'LayerStacksBuilt' }, 'None when no choice builds a pallet that stands.')],
  },
  {
    name: 'fullestPallet',
    checks: true,
    doc: "The tests' look at the layer stacks' knapsack (assembly/fullest-pallet.ts).",
    input: [
      field('loadHeight', 'i32', 'Load height, mm.'),
      field('loadWeightG', 'i32', 'Load weight, g.'),
      field('kinds', { list: 'LayerKind' }, 'The kinds of layers.'),
    ],
    answer: [field('picks', { list: 'Pick' }, 'The layers of the tallest fill; none when no layer fits.')],
  },
  {
    name: 'checkFirstWithin',
    checks: true,
    doc: "The tests' check of the search's grouped block scan against a plain one (assembly/checks/block-index-check.ts).",
    input: [
      field('l', 'i32', 'Bin length, mm.'),
      field('w', 'i32', 'Bin width, mm.'),
      field('h', 'i32', 'Bin height, mm.'),
      field('seed', 'i32', 'Seed of the blocks and of the probes.'),
      field('probes', 'i32', 'Random spaces and starting points tried.'),
      field('composites', 'i32', 'Composite blocks (stacked too); 0: none.'),
      field('cargo', { list: 'BoxType' }, 'The box types.'),
    ],
    answer: [
      field('mismatches', 'i32', 'Probes where the two scans differ.'),
      field('probes', 'i32', 'Probes run.'),
      field('blocks', 'i32', 'Blocks generated.'),
      field('found', 'i32', 'Probes that found a block.'),
    ],
  },
  {
    name: 'checkFitCache',
    checks: true,
    doc: "The tests' check of the fit cache and the reused runs against none (assembly/checks/block-index-check.ts).",
    input: [
      field('l', 'i32', 'Bin length, mm.'),
      field('w', 'i32', 'Bin width, mm.'),
      field('h', 'i32', 'Bin height, mm.'),
      field('seed', 'i32', 'Seed of the blocks.'),
      field('effort', 'i32', 'Greedy placements per search.'),
      field('composites', 'i32', 'Composite blocks (stacked too); 0: none.'),
      field('cargo', { list: 'BoxType' }, 'The box types.'),
    ],
    answer: [
      field('differ', 'i32', 'Searches whose loads or effort counted differ.'),
      field('searches', 'i32', 'Searches compared.'),
      field('placements', 'i32', 'Placements compared.'),
    ],
  },
  {
    name: 'checkCompositeBlocks',
    checks: true,
    doc: "The tests' check of every composite block, leaf by leaf (assembly/checks/composite-blocks-check.ts).",
    input: [
      field('l', 'i32', 'Bin length, mm.'),
      field('w', 'i32', 'Bin width, mm.'),
      field('h', 'i32', 'Bin height, mm.'),
      field('seed', 'i32', 'Seed of the blocks.'),
      field('composites', 'i32', 'Composite blocks asked for.'),
      field('stacked', 'bool', 'One block on another too.'),
      field('cargo', { list: 'BoxType' }, 'The box types.'),
    ],
    answer: [
      field('composites', 'i32', 'Composites generated.'),
      field('failing', 'i32', 'Composites failing a rule.'),
      field('withStack', 'i32', 'Composites with a leaf above the floor.'),
      field('mostLeaves', 'i32', 'The most leaves of one composite.'),
    ],
  },
];
