// The load-plan viewer page: every container in 3D, a step slider that adds placements in loading
// order, details of a placement on click or tap, a pallet's layers, the centre of gravity against
// its limits, and what each colour stands for.
import './viewer.css';
import { BoxGeometry, EdgesGeometry, LineBasicMaterial, LineSegments, type MeshLambertMaterial, type Mesh } from 'three';
import { containersScene, pick, sceneView } from './container-scene.js';
import { el, facts } from './dom.js';
import { palletView } from './pallet-view.js';
import { kg, kindName, loadingSequence, mm, readViewerData, type Step, type ViewerData } from './plan-data.js';

const data = readViewerData();
const steps = loadingSequence(data);
const app = document.getElementById('app')!;
app.replaceChildren();

const canvas = el('canvas', { id: 'scene', 'aria-label': 'The containers in 3D' });
const stage = el(
  'section',
  { class: 'stage' },
  canvas,
  el('p', { class: 'hint' }, 'Drag to turn · pinch or scroll to zoom · tap a pallet or box'),
);
const stepSlider = el('input', { type: 'range', id: 'step', min: '0', max: String(steps.length), value: String(steps.length), step: '1' });
const stepLabel = el('output', { for: 'step', id: 'step-label' });
const stepNow = el('p', { class: 'step-now', id: 'step-now' });
const containerChoice = el(
  'select',
  { id: 'container' },
  el('option', { value: '' }, `All ${data.load_plan.containers.length} containers`),
);
data.load_plan.containers.forEach((c, i) =>
  containerChoice.append(
    el(
      'option',
      { value: String(i) },
      `Container ${c.index}: ${c.code}, ${c.placements.length > 0 ? `${c.placements.length} placements` : 'booked, not needed (empty)'}`,
    ),
  ),
);
const controls = el(
  'section',
  { class: 'card controls' },
  el('label', { for: 'container', class: 'slider-label' }, 'Look at'),
  containerChoice,
  el('label', { for: 'step', class: 'slider-label' }, 'Loading step ', stepLabel),
  stepSlider,
  stepNow,
);
const details = el(
  'section',
  { class: 'card', id: 'details' },
  el('h2', {}, 'Details'),
  el('p', { class: 'muted' }, 'Tap a pallet or box in the view to see what it is.'),
);
const palletSection = el('section', { class: 'card', id: 'pallet-view' });
palletSection.hidden = true;
app.append(stage, controls, details, palletSection, centreOfGravity(data), legend(data), unplaced(data));

const { scene, placements, target, radius, frames, outlines } = containersScene(data, steps);
const view = sceneView(canvas, scene, target, radius);
// One container alone, or all side by side; the step slider goes on counting over the whole plan.
containerChoice.addEventListener('change', () => {
  const only = containerChoice.value === '' ? undefined : Number(containerChoice.value);
  outlines.forEach((outline, i) => (outline.visible = only === undefined || i === only));
  const frame = only === undefined ? { target, radius } : frames[only];
  if (frame) view.frame(frame.target.clone(), frame.radius);
  showSteps();
});
if (data.load_plan.containers.length < 2) containerChoice.parentElement?.querySelector('label[for=container]')?.remove();
if (data.load_plan.containers.length < 2) containerChoice.remove();
const pallets = palletView(palletSection, data);
const meshes = placements.map((p) => p.mesh);
const stepOf = new Map<Mesh, Step>(placements.map((p) => [p.mesh, p.step]));

function showSteps(): void {
  const shown = Number(stepSlider.value);
  const only = containerChoice.value === '' ? undefined : Number(containerChoice.value);
  placements.forEach((p, i) => (p.mesh.visible = i < shown && (only === undefined || p.step.containerIndex === only)));
  const drawn = placements.filter((p) => p.mesh.visible).length;
  canvas.dataset.drawn = String(drawn);
  stepLabel.textContent = `${shown} of ${steps.length}`;
  const last = steps[shown - 1];
  stepNow.textContent = last
    ? `${drawn} placements shown. Last loaded: ${last.placement.ref} into container ${last.container.index} (${last.container.code}), loading order ${last.placement.loading_order}.`
    : 'Nothing loaded yet: move the slider to add placements in loading order.';
  view.render();
}
stepSlider.addEventListener('input', showSteps);

// The selected placement glows a little and wears an outline that shows through whatever hides it.
const outline = new LineSegments(
  new EdgesGeometry(new BoxGeometry(1.03, 1.03, 1.03)),
  new LineBasicMaterial({ color: '#d1006f', depthTest: false }),
);
outline.renderOrder = 11;
let selected: { mesh: Mesh; material: MeshLambertMaterial } | undefined;
function select(mesh: Mesh | undefined): void {
  if (selected) selected.mesh.material = selected.material;
  selected = undefined;
  outline.removeFromParent();
  const step = mesh && stepOf.get(mesh);
  if (!mesh || !step) {
    view.render();
    return;
  }
  const material = mesh.material as MeshLambertMaterial;
  const highlighted = material.clone();
  highlighted.emissive.set('#ffffff');
  highlighted.emissiveIntensity = 0.12;
  mesh.material = highlighted;
  mesh.add(outline);
  selected = { mesh, material };
  const { placement, container } = step;
  const skus = placement.kind === 'pallet' ? (data.pallet_skus[placement.ref] ?? []) : [];
  const rows: [string, string][] = [
    ['Ref', placement.ref],
    ['Kind', kindName(placement.kind)],
    [
      'SKU',
      skus.length > 0 ? skus.join(', ') : placement.kind === 'loose_box' ? 'loose box as submitted' : 'pre-built pallet as submitted',
    ],
    ['Size (l × w × h)', `${placement.l} × ${placement.w} × ${placement.h} mm`],
    ['Weight', kg(placement.weight_kg)],
    ['Container', `${container.index}: ${container.code}`],
    ['Loading order', String(placement.loading_order)],
    ['Position', `${mm(placement.x)} from the front wall, ${mm(placement.y)} from the left wall, ${mm(placement.z)} up`],
  ];
  const body: (Node | string)[] = [el('h2', {}, `${placement.ref}`), facts(rows)];
  if (placement.kind === 'pallet') {
    const button = el('button', { type: 'button' }, `Show ${placement.ref} layer by layer`);
    button.addEventListener('click', () => pallets.show(placement.ref));
    body.push(button);
  }
  details.replaceChildren(...body);
  details.dataset.ref = placement.ref;
  if (placement.kind === 'pallet') pallets.show(placement.ref);
  view.render();
}

// A tap selects; a drag turns the view and selects nothing.
let down: { x: number; y: number } | undefined;
canvas.addEventListener('pointerdown', (event) => (down = { x: event.clientX, y: event.clientY }));
canvas.addEventListener('pointerup', (event) => {
  if (!down || Math.hypot(event.clientX - down.x, event.clientY - down.y) > 6) return;
  select(pick(view, meshes, canvas, event.clientX, event.clientY) as Mesh | undefined);
});

view.resize();
showSteps();
document.body.dataset.ready = 'true';

function centreOfGravity(data: ViewerData): HTMLElement {
  const section = el('section', { class: 'card', id: 'cog' }, el('h2', {}, 'Centre of gravity and axle loads'));
  section.append(
    el(
      'p',
      { class: 'muted' },
      "The dot marks the cargo's centre of gravity; the rectangle on the floor is where it may lie: within 5 % of the inner length from the middle and 5 % of the inner width from the centreline (CTU Code).",
    ),
  );
  data.load_plan.containers.forEach((container, i) => {
    const limits = data.cog_limits_mm[i]!;
    const cog = container.center_of_gravity_mm;
    if (!cog) {
      // booked by the order's count (spec 2.8) and not needed: nothing to weigh
      section.append(el('h3', {}, `Container ${container.index}: ${container.code}, empty (booked, not needed)`));
      return;
    }
    const verdict = container.within_cog_limits ? 'within the limits' : 'OUTSIDE the limits';
    section.append(
      el('h3', { class: container.within_cog_limits ? 'ok' : 'bad' }, `Container ${container.index}: ${container.code}, ${verdict}`),
      facts([
        ['Cargo weight', kg(container.cargo_weight_kg)],
        ['Along the length', `${mm(cog.x)} from the front wall (limits ${mm(limits.x[0])} to ${mm(limits.x[1])})`],
        ['Across', `${mm(cog.y)} from the left wall (limits ${mm(limits.y[0])} to ${mm(limits.y[1])})`],
        ['Height', `${mm(cog.z)} above the floor`],
      ]),
    );
    const road = container.road;
    if (road) {
      const against = (load: number, limit: number) => `${kg(load)} of ${kg(limit)}`;
      section.append(
        el(
          'h3',
          { class: road.within_road_limits ? 'ok' : 'bad' },
          `On the ${road.profile} road: ${road.within_road_limits ? 'within the limits' : 'OVER the limits'}`,
        ),
        facts([
          ['Gross', against(road.gross_kg, road.gross_limit_kg)],
          ['Steer axle', against(road.axle_loads_kg.steer, road.axle_limits_kg.steer)],
          [
            'Drive axles',
            against(road.axle_loads_kg.drive, road.axle_limits_kg.drive) +
              (road.drive_min_kg > 0 ? `, at least ${kg(road.drive_min_kg)}` : ''),
          ],
          ['Trailer axles', against(road.axle_loads_kg.trailer, road.axle_limits_kg.trailer)],
        ]),
      );
    }
  });
  return section;
}

function legend(data: ViewerData): HTMLElement {
  const list = el('ul', { class: 'legend' });
  for (const entry of data.legend) {
    const swatch = el('span', { class: 'swatch' });
    swatch.style.background = entry.colour;
    list.append(el('li', {}, swatch, entry.label));
  }
  return el('section', { class: 'card' }, el('h2', {}, 'Colours'), list);
}

function unplaced(data: ViewerData): HTMLElement {
  const section = el('section', { class: 'card' }, el('h2', {}, 'Not loaded'));
  if (data.load_plan.unplaced.length === 0) section.append(el('p', { class: 'muted' }, 'Everything is loaded.'));
  else
    section.append(
      el(
        'ul',
        {},
        ...data.load_plan.unplaced.map((u) =>
          el('li', { class: 'bad' }, `${u.count} × ${u.ref} (${u.kind}): ${u.detail ?? u.reason.replaceAll('_', ' ')}`),
        ),
      ),
    );
  return section;
}
