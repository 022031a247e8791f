// Draws a container in 3D (see isometric.ts) into a frame on the page: the floor and the two far
// walls, each placement as three shaded faces in its cargo colour, then the near edges of the
// container. A step picture shows what is already in faded, and the step's own placements bright.
import type { ContainerPlacement, PlannedContainer } from './order-plan.js';
import { project, visibleFaces, type Point } from './isometric.js';

export interface Frame {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface IsometricPicture {
  container: PlannedContainer;
  /** Painting order of container.placements (paintingOrder), computed once per container. */
  order: readonly number[];
  colourOf: (p: ContainerPlacement) => string;
  /** Placements drawn; all when absent. */
  shown?: (p: ContainerPlacement) => boolean;
  /** Placements drawn bright; the others shown are faded. All bright when absent. */
  bright?: (p: ContainerPlacement) => boolean;
  /** Draw only the back part of the container, this long (mm), so an early step is not lost in it. */
  length?: number;
}

const WALL = '#7a7f87';
const FLOOR = '#eceae4';
const DOOR = '#b00020';

/** Height a picture of this container takes at `width` (the projection's proportions). */
export function isometricHeight(container: PlannedContainer, width: number): number {
  const { minX, maxX, minY, maxY } = bounds(container, container.inner_mm.l);
  return ((maxY - minY) / (maxX - minX)) * width;
}

function bounds(container: PlannedContainer, l: number): { minX: number; maxX: number; minY: number; maxY: number } {
  const { w, h } = container.inner_mm;
  const corners = [0, l].flatMap((x) => [0, w].flatMap((y) => [0, h].map((z) => project(x, y, z))));
  return {
    minX: Math.min(...corners.map((c) => c.x)),
    maxX: Math.max(...corners.map((c) => c.x)),
    minY: Math.min(...corners.map((c) => c.y)),
    maxY: Math.max(...corners.map((c) => c.y)),
  };
}

export function drawIsometric(doc: PDFKit.PDFDocument, picture: IsometricPicture, frame: Frame): void {
  const { container } = picture;
  const { w, h } = container.inner_mm;
  const l = Math.min(picture.length ?? Infinity, container.inner_mm.l);
  const cut = l < container.inner_mm.l;
  const b = bounds(container, l);
  const scale = Math.min(frame.width / (b.maxX - b.minX), frame.height / (b.maxY - b.minY));
  const left = frame.x + (frame.width - (b.maxX - b.minX) * scale) / 2;
  const bottom = frame.y + frame.height;
  const toPage = (p: Point): [number, number] => [left + (p.x - b.minX) * scale, bottom - (p.y - b.minY) * scale];
  const polygon = (points: Point[]): void => {
    const [first, ...rest] = points.map(toPage);
    if (!first) return;
    doc.moveTo(...first);
    for (const point of rest) doc.lineTo(...point);
    doc.closePath();
  };
  const thin = Math.max(0.2, Math.min(0.6, scale * 400));

  // Floor, back wall (x = 0) and far wall (y = w): the inside the cargo stands against.
  polygon([project(0, 0, 0), project(l, 0, 0), project(l, w, 0), project(0, w, 0)]);
  doc.fill(FLOOR);
  polygon([project(0, 0, 0), project(0, w, 0), project(0, w, h), project(0, 0, h)]);
  doc.fillOpacity(0.5).fill('#d8dce2').fillOpacity(1);
  polygon([project(0, w, 0), project(l, w, 0), project(l, w, h), project(0, w, h)]);
  doc.fillOpacity(0.35).fill('#e4e7eb').fillOpacity(1);

  for (const i of picture.order) {
    const p = container.placements[i];
    if (!p || (picture.shown && !picture.shown(p))) continue;
    const bright = !picture.bright || picture.bright(p);
    const base = picture.colourOf(p);
    const faces = visibleFaces(p);
    const fill = (points: Point[], shade: number): void => {
      polygon(points);
      const colour = bright ? darken(base, shade) : mix(darken(base, shade), '#ffffff', 0.72);
      doc.lineWidth(bright ? thin : thin / 2).fillAndStroke(colour, bright ? '#222222' : '#9aa0a6');
    };
    fill(faces.near, 0.72);
    fill(faces.door, 0.86);
    fill(faces.top, 1);
  }

  // Near edges over the load, so the box still reads as a container; the door end in red.
  doc.lineWidth(0.6).strokeColor(WALL).dash(2, { space: 2 });
  polygon([project(0, 0, 0), project(l, 0, 0), project(l, 0, h), project(0, 0, h)]);
  doc.stroke();
  polygon([project(0, 0, h), project(l, 0, h), project(l, w, h), project(0, w, h)]);
  doc.stroke();
  doc.undash();
  // A cut picture ends in a plain edge: the door is further on.
  doc.lineWidth(cut ? 0.6 : 1.2).strokeColor(cut ? WALL : DOOR);
  polygon([project(l, 0, 0), project(l, w, 0), project(l, w, h), project(l, 0, h)]);
  doc.stroke();
}

function channels(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function toHex(rgb: number[]): string {
  return `#${rgb
    .map((c) =>
      Math.round(Math.max(0, Math.min(255, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

export function darken(hex: string, factor: number): string {
  return toHex(channels(hex).map((c) => c * factor));
}

export function mix(hex: string, other: string, t: number): string {
  const a = channels(hex);
  const b = channels(other);
  return toHex(a.map((c, i) => c + ((b[i] ?? 0) - c) * t));
}
