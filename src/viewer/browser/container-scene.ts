// The 3D scene of every container of the plan, side by side. Plan axes (x along the length from
// the front wall, y across from the left wall, z up) map to three.js as x -> x, z -> y (up),
// y -> z, so the containers stand on the ground with their doors towards +x.
import {
  AmbientLight,
  BoxGeometry,
  BufferGeometry,
  Color,
  DirectionalLight,
  EdgesGeometry,
  Float32BufferAttribute,
  Group,
  LineBasicMaterial,
  LineLoop,
  LineSegments,
  Mesh,
  MeshBasicMaterial,
  MeshLambertMaterial,
  PerspectiveCamera,
  Raycaster,
  Scene,
  SphereGeometry,
  Vector2,
  Vector3,
  WebGLRenderer,
  type Object3D,
} from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import type { Step, ViewerData } from './plan-data.js';
import { textSprite } from './text-sprite.js';

export const BACKGROUND = '#f4f5f7';
const GAP_MM = 1200;
const EDGE = new LineBasicMaterial({ color: '#2b2f36' });
const UNIT_BOX = new BoxGeometry(1, 1, 1);
const UNIT_EDGES = new EdgesGeometry(UNIT_BOX);

export interface PlacementMesh {
  mesh: Mesh;
  step: Step;
}

export interface SceneView {
  renderer: WebGLRenderer;
  scene: Scene;
  camera: PerspectiveCamera;
  render(): void;
  resize(): void;
  /** Turns the view to look at a sphere around `target`, keeping the direction it looks from. */
  frame(target: Vector3, radius: number): void;
}

/**
 * A renderer with orbit controls on a canvas, drawing again whenever the view moves. Whenever the
 * canvas changes size (a phone turned), the camera steps back or closer along its line of sight so
 * that a sphere of `radius` around the target fills the narrower side.
 */
export function sceneView(canvas: HTMLCanvasElement, scene: Scene, target: Vector3, radius: number): SceneView {
  // preserveDrawingBuffer: the picture stays readable after it is shown (screenshots, the browser test).
  const renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  renderer.setClearColor(new Color(BACKGROUND));
  const camera = new PerspectiveCamera(40, 1, 50, radius * 40);
  // From the front-left corner, above: the first rows loaded are nearest.
  camera.position.copy(target).add(new Vector3(-0.45, 0.6, 0.75).normalize().multiplyScalar(radius * 2.5));
  const controls = new OrbitControls(camera, canvas);
  controls.target.copy(target);
  controls.maxPolarAngle = Math.PI / 2 - 0.02; // never below the floor
  const view: SceneView = {
    renderer,
    scene,
    camera,
    render: () => renderer.render(view.scene, camera),
    frame(newTarget, newRadius) {
      camera.position.sub(controls.target).add(newTarget);
      controls.target.copy(newTarget);
      radius = newRadius;
      view.resize();
    },
    resize() {
      const { clientWidth: width, clientHeight: height } = canvas;
      if (width === 0 || height === 0) return;
      renderer.setSize(width, height, false);
      camera.aspect = width / height;
      camera.updateProjectionMatrix();
      const vertical = (camera.fov * Math.PI) / 180;
      const horizontal = 2 * Math.atan(Math.tan(vertical / 2) * camera.aspect);
      const distance = radius / Math.sin(Math.min(vertical, horizontal) / 2);
      camera.position.sub(controls.target).setLength(distance).add(controls.target);
      controls.update();
      view.render();
    },
  };
  controls.addEventListener('change', view.render);
  controls.update();
  new ResizeObserver(() => view.resize()).observe(canvas);
  return view;
}

export function lights(scene: Scene): void {
  scene.add(new AmbientLight('#ffffff', 1.6));
  const sun = new DirectionalLight('#ffffff', 1.6);
  sun.position.set(-0.5, 1, 0.7);
  scene.add(sun);
}

/** A box of the plan (mm, plan axes) as a coloured mesh with dark edges, offset across by `dz`. */
export function boxMesh(
  box: { x: number; y: number; z: number; l: number; w: number; h: number },
  material: MeshLambertMaterial,
  dz = 0,
): Mesh {
  const mesh = new Mesh(UNIT_BOX, material);
  // A hair smaller than the slot, so neighbours' faces do not flicker into each other.
  mesh.scale.set(Math.max(box.l - 6, 1), Math.max(box.h - 6, 1), Math.max(box.w - 6, 1));
  mesh.position.set(box.x + box.l / 2, box.z + box.h / 2, dz + box.y + box.w / 2);
  mesh.add(new LineSegments(UNIT_EDGES, EDGE));
  return mesh;
}

export interface ContainersScene {
  scene: Scene;
  placements: PlacementMesh[];
  target: Vector3;
  /** Of a sphere around the target that holds every container. */
  radius: number;
  /** The same for each container alone. */
  frames: { target: Vector3; radius: number }[];
  /** Each container's outline, floor, labels and centre of gravity. */
  outlines: Group[];
}

export function containersScene(data: ViewerData, steps: Step[]): ContainersScene {
  const scene = new Scene();
  lights(scene);
  const materials = new Map<string, MeshLambertMaterial>();
  const material = (colour: string) => {
    let m = materials.get(colour);
    if (!m) materials.set(colour, (m = new MeshLambertMaterial({ color: colour })));
    return m;
  };
  const containers = data.load_plan.containers;
  const offsets: number[] = [];
  let across = 0;
  for (const container of containers) {
    offsets.push(across);
    across += container.inner_mm.w + GAP_MM;
  }
  const outlines = containers.map((_, i) => containerFrame(data, i, offsets[i]!));
  scene.add(...outlines);
  const placements = steps.map((step) => {
    const mesh = boxMesh(step.placement, material(data.colours.placements[step.placement.ref] ?? '#999999'), offsets[step.containerIndex]);
    mesh.userData.ref = step.placement.ref;
    scene.add(mesh);
    return { mesh, step };
  });
  const longest = Math.max(1000, ...containers.map((c) => c.inner_mm.l));
  const width = Math.max(1000, across - GAP_MM);
  const height = Math.max(1000, ...containers.map((c) => c.inner_mm.h));
  return {
    scene,
    placements,
    target: new Vector3(longest / 2, height / 2, width / 2),
    radius: 0.5 * Math.hypot(longest, width, height),
    outlines,
    frames: containers.map(({ inner_mm: { l, w, h } }, i) => ({
      target: new Vector3(l / 2, h / 2, offsets[i]! + w / 2),
      radius: 0.5 * Math.hypot(l, w, h),
    })),
  };
}

/** The container's outline, its floor, its name, where its doors are, and its centre of gravity with the limits. */
function containerFrame(data: ViewerData, index: number, dz: number): Group {
  const container = data.load_plan.containers[index]!;
  const { l, w, h } = container.inner_mm;
  const group = new Group();
  const outline = new LineSegments(new EdgesGeometry(new BoxGeometry(l, h, w)), new LineBasicMaterial({ color: '#5b6270' }));
  outline.position.set(l / 2, h / 2, dz + w / 2);
  group.add(outline);
  const floor = new Mesh(new BoxGeometry(l, 20, w), new MeshLambertMaterial({ color: '#c9ccd2' }));
  floor.position.set(l / 2, -10, dz + w / 2);
  group.add(floor);
  const name = textSprite(`${container.index}: ${container.code}`, 520);
  name.position.set(l / 2, h + 450, dz + w / 2);
  group.add(name);
  const doors = textSprite('doors', 300);
  doors.position.set(l + 500, 300, dz + w / 2);
  group.add(doors);

  const limits = data.cog_limits_mm[index];
  const cog = container.center_of_gravity_mm;
  if (limits) {
    const colour = container.within_cog_limits ? '#1a7f37' : '#cf222e';
    const area = new LineLoop(
      new BufferGeometry().setAttribute(
        'position',
        new Float32BufferAttribute(
          [
            limits.x[0],
            8,
            dz + limits.y[0],
            limits.x[1],
            8,
            dz + limits.y[0],
            limits.x[1],
            8,
            dz + limits.y[1],
            limits.x[0],
            8,
            dz + limits.y[1],
          ],
          3,
        ),
      ),
      new LineBasicMaterial({ color: colour }),
    );
    group.add(area);
    const allowed = new Mesh(
      new BoxGeometry(limits.x[1] - limits.x[0], 4, limits.y[1] - limits.y[0]),
      new MeshBasicMaterial({ color: colour, transparent: true, opacity: 0.35, depthWrite: false }),
    );
    allowed.position.set((limits.x[0] + limits.x[1]) / 2, 4, dz + (limits.y[0] + limits.y[1]) / 2);
    group.add(allowed);
    if (cog) {
      // Drawn over the cargo, so the marker shows through pallets that hide it.
      const marker = new Mesh(
        new SphereGeometry(110, 20, 14),
        new MeshBasicMaterial({ color: colour, depthTest: false, transparent: true, opacity: 0.9 }),
      );
      marker.position.set(cog.x, cog.z, dz + cog.y);
      marker.renderOrder = 10;
      group.add(marker);
      const drop = new LineSegments(
        new BufferGeometry().setAttribute('position', new Float32BufferAttribute([cog.x, cog.z, dz + cog.y, cog.x, 8, dz + cog.y], 3)),
        new LineBasicMaterial({ color: colour, depthTest: false, transparent: true }),
      );
      drop.renderOrder = 10;
      group.add(drop);
    }
  }
  return group;
}

/** The nearest visible placement under a point of the canvas, if any. */
export function pick(
  view: SceneView,
  meshes: readonly Object3D[],
  canvas: HTMLCanvasElement,
  clientX: number,
  clientY: number,
): Object3D | undefined {
  const rect = canvas.getBoundingClientRect();
  const pointer = new Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
  const raycaster = new Raycaster();
  raycaster.setFromCamera(pointer, view.camera);
  return raycaster.intersectObjects(
    meshes.filter((m) => m.visible),
    false,
  )[0]?.object;
}
