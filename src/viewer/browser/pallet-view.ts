// One service-built pallet, built up layer by layer as a person stacks it: the deck, then each
// layer of units in its SKU's colour.
import { Group, type Mesh, MeshLambertMaterial, Scene, Vector3 } from 'three';
import type { LoadPlanPallet } from '../../load-plan/load-plan.js';
import { boxMesh, lights, sceneView, type SceneView } from './container-scene.js';
import { el } from './dom.js';
import { mm, type ViewerData } from './plan-data.js';

const DECK = new MeshLambertMaterial({ color: '#a47b52' });

export interface PalletView {
  show(ref: string): void;
}

export function palletView(section: HTMLElement, data: ViewerData): PalletView {
  const title = el('h2', {}, 'Pallet');
  const canvas = el('canvas', { class: 'pallet-canvas', 'aria-label': 'The pallet in 3D' });
  const slider = el('input', { type: 'range', id: 'layer', min: '1', max: '1', value: '1', step: '1' });
  const label = el('output', { for: 'layer', id: 'layer-label' });
  section.append(title, canvas, el('label', { for: 'layer', class: 'slider-label' }, 'Layer ', label), slider);
  let view: SceneView | undefined;
  let layers: { z: number; meshes: Mesh[] }[] = [];
  const materials = new Map<string, MeshLambertMaterial>();

  const showLayers = () => {
    const upTo = Number(slider.value);
    layers.forEach((layer, i) => layer.meshes.forEach((mesh) => (mesh.visible = i < upTo)));
    const layer = layers[upTo - 1];
    label.textContent = layer ? `${upTo} of ${layers.length}: ${layer.meshes.length} units, from ${mm(layer.z)} above the deck` : 'none';
    view?.render();
  };
  slider.addEventListener('input', showLayers);

  return {
    show(ref) {
      const pallet: LoadPlanPallet | undefined = data.load_plan.pallets.find((p) => p.ref === ref);
      if (!pallet) return;
      section.hidden = false;
      title.textContent = `Pallet ${pallet.ref} (${pallet.pallet_code}), layer by layer`;
      const scene = new Scene();
      lights(scene);
      const top = Math.max(0, ...pallet.units.map((u) => u.z + u.h));
      const deckHeight = Math.max(20, pallet.h - top);
      const deck = boxMesh({ x: 0, y: 0, z: -deckHeight, l: pallet.l, w: pallet.w, h: deckHeight }, DECK);
      const cargo = new Group();
      const byZ = new Map<number, Mesh[]>();
      for (const unit of pallet.units) {
        const colour = data.colours.skus[unit.sku] ?? '#999999';
        let material = materials.get(colour);
        if (!material) materials.set(colour, (material = new MeshLambertMaterial({ color: colour })));
        const mesh = boxMesh(unit, material);
        cargo.add(mesh);
        const z = Math.round(unit.z);
        byZ.set(z, [...(byZ.get(z) ?? []), mesh]);
      }
      scene.add(deck, cargo);
      layers = [...byZ.entries()].sort(([a], [b]) => a - b).map(([z, meshes]) => ({ z, meshes }));
      slider.max = String(Math.max(1, layers.length));
      slider.value = slider.max;
      const size = Math.max(pallet.l, pallet.w, pallet.h);
      if (!view) view = sceneView(canvas, scene, new Vector3(pallet.l / 2, pallet.h / 3, pallet.w / 2), size * 0.8);
      else view.scene = scene;
      view.resize();
      showLayers();
      section.scrollIntoView({ block: 'nearest' });
    },
  };
}
