// A label that always faces the camera, drawn on a 2D canvas (no font or image is fetched).
import { CanvasTexture, Sprite, SpriteMaterial, SRGBColorSpace } from 'three';

/** `height` in millimetres of the scene. */
export function textSprite(text: string, height: number): Sprite {
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d')!;
  const fontPx = 64;
  context.font = `600 ${fontPx}px system-ui, sans-serif`;
  canvas.width = Math.ceil(context.measureText(text).width) + 24;
  canvas.height = fontPx + 24;
  context.font = `600 ${fontPx}px system-ui, sans-serif`;
  context.fillStyle = '#2b2f36';
  context.textBaseline = 'middle';
  context.fillText(text, 12, canvas.height / 2);
  const texture = new CanvasTexture(canvas);
  texture.colorSpace = SRGBColorSpace;
  const sprite = new Sprite(new SpriteMaterial({ map: texture, transparent: true, depthWrite: false }));
  sprite.scale.set((height * canvas.width) / canvas.height, height, 1);
  return sprite;
}
